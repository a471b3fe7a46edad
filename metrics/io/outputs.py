"""Writing output files so that a file under its final name is always whole.

A file is written under a temporary name in its own folder (``.<name>.<random>.part``) and renamed over the final
name (``os.replace``, atomic on one file system) only once the last byte is out. A run stopped half-way — Ctrl-C, a
``kill``, a full disk — therefore leaves either the previous file or none, never a truncated one that ends on a whole
row and looks complete; an exception (``KeyboardInterrupt`` included) removes the temporary file too, and only a
process killed outright (``SIGKILL``) can leave a ``.part`` file behind.

A folder that cannot be written is found before any work: :func:`check_writable` creates and removes a file there.
Every ``OSError`` of writing becomes an :class:`OutputError` that names the file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PART_SUFFIX = ".part"


class OutputError(ValueError):
    """An output file or folder that cannot be written; the message names it and says why."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot write {path}: {reason}")


def _token() -> str:
    # os.urandom, not secrets or tempfile: those import hashlib, which a plain scoring run does without
    return os.urandom(6).hex()


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


def check_writable(directory: Path) -> None:
    """Create ``directory`` if needed and prove a file can be created in it (and remove that file)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".scorelens-probe.{_token()}{PART_SUFFIX}"
        probe.open("xb").close()
        probe.unlink()
    except OSError as err:
        raise OutputError(directory, _reason(err)) from None


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed to ``path`` when the block ends normally, removed when
    it raises. An ``OSError`` from the block or the rename is raised as an :class:`OutputError` naming ``path``."""
    # Created here, not by tempfile.mkstemp (whose files only their owner may read): the final file gets the
    # permissions the user's umask gives every new file.
    part = path.parent / f".{path.name}.{_token()}{PART_SUFFIX}"
    try:
        part.open("xb").close()
    except OSError as err:
        raise OutputError(path, _reason(err)) from None
    try:
        yield part
        os.replace(part, path)
    except OSError as err:
        part.unlink(missing_ok=True)
        raise OutputError(path, _reason(err)) from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all."""
    with replacing(path) as part:
        part.write_text(text, encoding="utf-8")
