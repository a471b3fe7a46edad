"""A file's content given instead of its path: what a front end that serves other people takes for a file option."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, repr=False)
class Upload:
    """The bytes of a file a user sent, with the file's name for labels. An option that names a file
    (:attr:`metrics.core.config.Resource.FILE`) also takes one of these, and the metric then reads ``data``, never
    the file system. Two uploads are equal when their names and contents are (``digest``, the content's SHA-256),
    so a config holding one compares, hashes and prints by that, not by its bytes."""

    name: str
    data: bytes = field(compare=False)
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        import hashlib  # here: every config imports this module, and a command line's start-up leaves hashlib out

        object.__setattr__(self, "digest", hashlib.sha256(self.data).hexdigest())

    def __repr__(self) -> str:
        return f"Upload({self.name!r}, sha256:{self.digest[:12]}, {len(self.data)} bytes)"
