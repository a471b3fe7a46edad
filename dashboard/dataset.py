"""The data the app scores: named system outputs, reference streams, an optional source, all the same length. A
dataset may have no references (a source and outputs, or outputs alone): only metrics that read none score it.

A :class:`Dataset` is immutable; edits (rename, remove, add) return a new one, so a failed edit can never leave a
half-changed dataset in the session. Each system has a stable id that follows it through renames and stays distinct
when two systems have identical outputs (a re-run, a copied baseline), so widgets and view state key on it; each
stream has a content hash, so caches keyed by content survive renames.
Optional human judgments (:class:`metrics.stats.human.HumanScores`, keyed by system name) and external metrics' segment
scores (:class:`metrics.families.external.ExternalScores`, by metric name, then system) and human error annotations
(:class:`metrics.annotations.Annotations`, MQM, ESA or spans, by name, then system) follow their system through renames
and removals.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType

from metrics.annotations.model import Annotations
from metrics.annotations.spans_jsonl import span_records
from metrics.core.language import Language, detect_language
from metrics.families.external import ExternalScores
from metrics.io.inputs import InputError
from metrics.stats.human import HumanScores


def stream_hash(texts: Sequence[str]) -> str:
    """Content hash of one stream; JSON encoding keeps segment boundaries unambiguous."""
    return hashlib.sha256(json.dumps(list(texts), ensure_ascii=False).encode()).hexdigest()[:32]


def unique_name(name: str, taken: Sequence[str]) -> str:
    """``name`` or ``name (2)``, ``name (3)``… so that two files with the same stem both stay loaded."""
    base = name.strip() or "system"
    candidate, k = base, 2
    while candidate in taken:
        candidate, k = f"{base} ({k})", k + 1
    return candidate


@dataclass(frozen=True)
class Dataset:
    title: str
    systems: Mapping[str, tuple[str, ...]]
    refs: tuple[tuple[str, ...], ...]
    ref_names: tuple[str, ...]
    source: tuple[str, ...] | None = None
    default_metrics: tuple[str, ...] | None = None  # None: chosen from the data (metrics.core.defaults)
    notes: tuple[str, ...] = field(default=())
    # Arrays cannot take part in ``==``; fingerprint() covers the judgments instead.
    human: HumanScores | None = field(default=None, compare=False)
    external: Mapping[str, ExternalScores] = field(default_factory=dict)
    # Human error annotations by name (``mqm``, ``esa``…): their spans lie in these systems' texts and source.
    annotations: Mapping[str, Annotations] = field(default_factory=dict, compare=False)
    # One id per system, in the order of ``systems``; left empty, they are numbered s1, s2, …
    system_ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.system_ids:
            object.__setattr__(self, "system_ids", tuple(f"s{k}" for k in range(1, len(self.systems) + 1)))
        if len(self.system_ids) != len(self.systems) or len(set(self.system_ids)) != len(self.system_ids):
            raise InputError("dataset", f"{len(self.systems)} systems need as many distinct ids: {self.system_ids}")
        if not self.systems:
            raise InputError("dataset", "at least one system output is needed")
        if len(self.ref_names) != len(self.refs):
            raise InputError("dataset", f"{len(self.refs)} references but {len(self.ref_names)} reference names")
        streams = [*zip(self.ref_names, self.refs, strict=True), *self.systems.items()]
        if self.source is not None:
            streams.append(("source", self.source))
        first_name, first = ("the first reference", self.refs[0]) if self.refs else streams[0]
        n = len(first)
        for name, texts in streams:
            if len(texts) != n:
                raise InputError(name, f"has {len(texts)} segments but {first_name} has {n}")
        for name in self.systems:
            if not name.strip():
                raise InputError("dataset", "system names cannot be empty")
        if self.human is not None:
            source = self.human.source or "human scores"
            for name, values in self.human.scores.items():
                if name not in self.systems:
                    raise InputError(source, f"judges system {name!r}, which is not loaded")
                if len(values) != n:
                    raise InputError(source, f"covers {len(values)} segments of {name!r}, the data has {n}")
        for metric_name, scores in self.external.items():
            if metric_name != scores.name:
                raise InputError(scores.source, f"holds scores of {scores.name!r}, filed under {metric_name!r}")
            unknown = [name for name in scores.systems if name not in self.systems]
            if unknown:
                raise InputError(
                    scores.source, f"scores system(s) {', '.join(map(repr, unknown))}, which are not loaded"
                )
            if len(scores) != n:
                raise InputError(scores.source, f"scores {len(scores)} segments, the data has {n}")

        for name, marked in self.annotations.items():
            where = marked.source or name
            unknown = [system for system in marked.systems if system not in self.systems]
            if unknown:
                raise InputError(where, f"rates system(s) {', '.join(map(repr, unknown))}, which are not loaded")
            if marked.n_segments != n:
                raise InputError(where, f"rates {marked.n_segments} segments, the data has {n}")

    def __len__(self) -> int:
        return len(next(iter(self.systems.values())))

    @property
    def has_references(self) -> bool:
        return bool(self.refs)

    @cached_property
    def source_hash(self) -> str | None:
        """Content hash of the source (``None`` without one): part of the key of a result that reads it."""
        return None if self.source is None else stream_hash(self.source)

    # Every result's key reads the hashes on every rerun (12 systems under 4 metrics: the references hashed 56
    # times, most of an Overview rerun's CPU time, growing with each metric added); a dataset is immutable, so each
    # hash, and the language, is worked out once per instance.
    @cached_property
    def refs_hash(self) -> str:
        return stream_hash(["\x1d".join(stream) for stream in self.refs])

    @cached_property
    def language(self) -> Language | None:
        """The references' language when it is Chinese, Japanese or Korean (a sample of segments tells)."""
        return detect_language(self.refs).language

    @cached_property
    def _system_hashes(self) -> Mapping[str, str]:
        return {name: stream_hash(texts) for name, texts in self.systems.items()}

    def system_hash(self, name: str) -> str:
        return self._system_hashes[name]

    def system_id(self, name: str) -> str:
        """The stable id of the system now called ``name``."""
        return self.system_ids[list(self.systems).index(name)]

    def system_name(self, system_id: str) -> str | None:
        """The current name of the system with this id (``None`` when it is no longer loaded)."""
        names = dict(zip(self.system_ids, self.systems, strict=True))
        return names.get(system_id)

    def human_hash(self, name: str) -> str | None:
        """Content hash of the human scores of one system (``None`` when it has none)."""
        if self.human is None or name not in self.human.scores:
            return None
        return hashlib.sha256(self.human.scores[name].tobytes()).hexdigest()[:32]

    def fingerprint(self) -> str:
        """Hash of all content (names included), e.g. to tell two workspaces apart."""
        return self._fingerprint

    @cached_property
    def _fingerprint(self) -> str:
        parts = [self.refs_hash, *(f"{name}={self.system_hash(name)}" for name in self.systems)]
        if self.source_hash is not None:
            parts.append(f"source={self.source_hash}")
        if self.human is not None:
            parts += [f"human:{name}={self.human_hash(name)}" for name in self.human.scores]
        parts += [f"external:{name}={scores.fingerprint()}" for name, scores in self.external.items()]
        parts += [f"annotations:{name}={self.annotations_hash(name)}" for name in self.annotations]
        return stream_hash(parts)

    def annotations_hash(self, name: str) -> str:
        """Content hash of one set of annotations (the systems' names, every rating, error and span): part of the key
        of a score or table made from them."""
        return self._annotation_hashes[name]

    @cached_property
    def _annotation_hashes(self) -> Mapping[str, str]:
        # the records of the span format: every rating, error, span and score, not the file lines they came from
        return {
            name: stream_hash([a.scheme.value, *(json.dumps(r, ensure_ascii=False) for r in span_records(a))])
            for name, a in self.annotations.items()
        }

    def with_annotations(self, name: str, annotations: Annotations) -> Dataset:
        """The same data with these annotations added under ``name``, or replacing those of that name."""
        return replace(self, annotations={**self.annotations, name: annotations})

    def without_annotations(self, name: str) -> Dataset:
        return replace(self, annotations={k: v for k, v in self.annotations.items() if k != name})

    def with_human(self, human: HumanScores | None) -> Dataset:
        """The same data with these judgments (checked against the systems and length), or without any."""
        return replace(self, human=human)

    def with_external(self, scores: ExternalScores) -> Dataset:
        """The same data with these external scores added, or replacing those of the same name."""
        return replace(self, external={**self.external, scores.name: scores})

    def without_external(self, name: str) -> Dataset:
        return replace(self, external={k: v for k, v in self.external.items() if k != name})

    def renamed(self, old: str, new: str) -> Dataset:
        new = new.strip()
        if not new:
            raise InputError(old, "a system name cannot be empty")
        if new != old and new in self.systems:
            raise InputError(old, f"another system is already called {new!r}")
        systems = {(new if name == old else name): texts for name, texts in self.systems.items()}
        human = self.human
        if human is not None:
            scores = {(new if name == old else name): values for name, values in human.scores.items()}
            human = HumanScores(scores, human.source)
        external = {k: v.renamed(old, new) for k, v in self.external.items()}
        annotations = {
            k: replace(v, ratings=MappingProxyType({(new if s == old else s): r for s, r in v.ratings.items()}))
            for k, v in self.annotations.items()
        }
        return replace(self, systems=systems, human=human, external=external, annotations=annotations)

    def without(self, name: str) -> Dataset:
        systems = {k: v for k, v in self.systems.items() if k != name}
        if not systems:
            raise InputError(name, "the last system cannot be removed; load another one first")
        human = self.human
        if human is not None:
            scores = {k: v for k, v in human.scores.items() if k != name}
            human = HumanScores(scores, human.source) if scores else None
        external = {k: v.without(name) for k, v in self.external.items()}
        ids = tuple(i for i, k in zip(self.system_ids, self.systems, strict=True) if k != name)
        # annotations of the removed system alone go with it
        annotations = {
            k: replace(v, ratings=MappingProxyType({s: r for s, r in v.ratings.items() if s != name}))
            for k, v in self.annotations.items()
            if set(v.systems) - {name}
        }
        return replace(self, systems=systems, human=human, external=external, annotations=annotations, system_ids=ids)

    def with_systems(self, added: Mapping[str, Sequence[str]]) -> Dataset:
        """The systems, then ``added`` (renamed ``name (2)``… where a name is taken), each with a new id."""
        systems = dict(self.systems)
        ids = list(self.system_ids)
        next_id = 1 + max((int(i[1:]) for i in ids if i[:1] == "s" and i[1:].isdigit()), default=0)
        for name, texts in added.items():
            systems[unique_name(name, list(systems))] = tuple(texts)
            ids.append(f"s{next_id}")
            next_id += 1
        return replace(self, systems=systems, system_ids=tuple(ids))

    def context(self) -> dict[str, tuple[str, ...]]:
        """The texts an output is read against, named for a table's column: the first reference, else the source;
        empty with neither."""
        if self.refs:
            return {"reference": self.refs[0]}
        return {} if self.source is None else {"source": self.source}

    def segment_refs(self, i: int) -> list[str]:
        return [stream[i] for stream in self.refs]
