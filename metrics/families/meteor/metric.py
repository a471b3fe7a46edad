"""METEOR (Banerjee & Lavie, 2005, "METEOR: An Automatic Metric for MT Evaluation with Improved Correlation with
Human Judgments"; Lavie & Agarwal, 2007), equal to nltk 3.10.4's ``nltk.translate.meteor_score``.

Equivalent nltk call, per segment: ``meteor_score([r.split() for r in refs], hyp.split(), alpha=0.9, beta=3.0,
gamma=0.5)`` with the default ``preprocess=str.lower``, ``stemmer=PorterStemmer()`` and ``wordnet`` = WordNet 3.0.
The input is split on Unicode whitespace and every token lowercased; nothing else is tokenized.

Alignment, exactly as nltk does it (it is greedy; there is no search for the alignment with fewest crossings):

1. exact: hypothesis words from last to first each take the highest-index unmatched reference word equal to it;
2. stem: the words left on both sides are replaced by their Porter stems (nltk ``PorterStemmer``, NLTK_EXTENSIONS
   mode) and matched the same way;
3. synonym: every stem left in the hypothesis, last to first, takes the highest-index reference stem left that is
   the stem itself or a lemma name without ``_`` of a WordNet synset of the stem (``wordnet.synsets(stem)``, with
   morphy across parts of speech; see :mod:`metrics.families.meteor.wordnet`). WordNet is queried with *stems*, so many true
   synonyms are missed; that is nltk's behaviour and it is kept.

With ``m`` matches, ``P = m/|hyp|``, ``R = m/|ref|``, ``Fmean = P·R / (α·P + (1−α)·R)``; chunks are maximal runs of
matches adjacent in both sentences (matches sorted by hypothesis position), ``frag = chunks/m``,
``penalty = γ·frag^β`` and ``score = (1 − penalty)·Fmean``; an empty side or no match gives 0. Identical sentences
do not score 1 (6 tokens: 0.99769). With several references the best score wins (the first on ties).

Corpus score: the arithmetic **mean of the segment scores** (aggregate ``"mean"``). nltk has no corpus METEOR;
averaging sentence scores is the convention people quote with nltk (the official Meteor 1.5 jar instead pools
statistics over the corpus and uses different parameters and resources, so its numbers differ).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import repeat
from typing import ClassVar, Literal

import numpy as np

from metrics.core import limits
from metrics.core.base import Metric
from metrics.core.cache import BoundedCache
from metrics.core.config import check_options, option
from metrics.core.explanation import Explanation
from metrics.core.limits import SegmentLimit
from metrics.core.porter import porter_stemmer
from metrics.core.tokens import Token, locate
from metrics.families.meteor.wordnet import WordNetIndex, wordnet_index

REFERENCE = "nltk-3.10.4"
VERSION = "scorelens-0.1.0"
_STEM_CACHE_LIMIT = 1_000_000  # a word and its stem are small; a corpus has few distinct words


@dataclass(frozen=True)
class MeteorConfig:
    """nltk's defaults: α = 0.9 (weight of precision in the harmonic mean), β = 3 (shape of the fragmentation
    penalty), γ = 0.5 (its maximum). Ranges are those of the METEOR papers."""

    alpha: float = option(
        0.9, label="α", help="Weight of precision in Fmean = P·R/(α·P + (1−α)·R).", low=0.0, high=1.0, step=0.05
    )
    beta: float = option(3.0, label="β", help="Shape of the fragmentation penalty γ·frag^β.", low=0.0, step=0.5)
    gamma: float = option(
        0.5, label="γ", help="The largest possible fragmentation penalty.", low=0.0, high=1.0, step=0.05
    )

    def __post_init__(self) -> None:
        check_options(self)


class MatchStage(Enum):
    """The nltk module that produced a match; stages run in this order, each on what the previous left."""

    EXACT = "exact"
    STEM = "stem"
    SYNONYM = "synonym"


@dataclass(frozen=True)
class MeteorMatch:
    """One aligned word pair. ``hyp_form``/``ref_form`` are the strings compared: lowercased words for exact
    matches, Porter stems for stem and synonym matches. Tokens carry spans in the original texts."""

    hyp_index: int
    ref_index: int
    stage: MatchStage
    hyp_form: str
    ref_form: str
    hyp_token: Token
    ref_token: Token


@dataclass(frozen=True)
class MeteorChunk:
    """A maximal run of matches adjacent in both sentences: hypothesis tokens ``[hyp_start, hyp_end)`` aligned
    one by one to reference tokens ``[ref_start, ref_end)``."""

    hyp_start: int
    hyp_end: int
    ref_start: int
    ref_end: int

    def __len__(self) -> int:
        return self.hyp_end - self.hyp_start


@dataclass(frozen=True)
class MeteorAlignment:
    """The hypothesis scored against one reference. The floats are computed in nltk's order of operations, so
    ``(1 - penalty) * fmean`` is bit-for-bit ``score`` whenever ``matches`` is not empty."""

    index: int  # position among the segment's references
    hyp_tokens: tuple[Token, ...]
    ref_tokens: tuple[Token, ...]
    matches: tuple[MeteorMatch, ...]  # sorted by hypothesis index
    stage_counts: tuple[tuple[MatchStage, int], ...]  # matches per stage, every stage in order
    chunks: tuple[MeteorChunk, ...]
    precision: float
    recall: float
    fmean: float
    fragmentation: float
    penalty: float
    score: float

    @property
    def m(self) -> int:
        return len(self.matches)

    @property
    def hyp_len(self) -> int:
        return len(self.hyp_tokens)

    @property
    def ref_len(self) -> int:
        return len(self.ref_tokens)


@dataclass(frozen=True, kw_only=True)
class MeteorExplanation(Explanation):
    """Evidence for one segment: every reference's alignment and the one that won (``best_ref``: nltk takes the
    maximum score, the first reference on ties)."""

    best_ref: int
    alignments: tuple[MeteorAlignment, ...]
    alpha: float
    beta: float
    gamma: float

    @property
    def chosen(self) -> MeteorAlignment:
        return self.alignments[self.best_ref]

    @property
    def matches(self) -> tuple[MeteorMatch, ...]:
        return self.chosen.matches

    @property
    def chunks(self) -> tuple[MeteorChunk, ...]:
        return self.chosen.chunks

    @property
    def m(self) -> int:
        return self.chosen.m

    @property
    def precision(self) -> float:
        return self.chosen.precision

    @property
    def recall(self) -> float:
        return self.chosen.recall

    @property
    def fmean(self) -> float:
        return self.chosen.fmean

    @property
    def fragmentation(self) -> float:
        return self.chosen.fragmentation

    @property
    def penalty(self) -> float:
        return self.chosen.penalty

    def recompute(self) -> float:
        """The score again from the evidence alone: counts → P, R, Fmean, fragmentation, penalty."""
        w = self.chosen
        return meteor_from_counts(
            len(w.matches), len(w.chunks), w.hyp_len, w.ref_len, self.alpha, self.beta, self.gamma
        )

    def formula(self) -> str:
        """The familiar one-liner, e.g. ``Score: 0.9654 = Fmean: 0.9836 × (1 − Penalty: 0.0185)``."""
        w = self.chosen
        if not w.matches:
            reason = "empty hypothesis" if not w.hyp_len else "empty reference" if not w.ref_len else "no matches"
            return f"Score: {self.score:.4f} ({reason})"
        return f"Score: {self.score:.4f} = Fmean: {w.fmean:.4f} × (1 − Penalty: {w.penalty:.4f})"


def meteor_from_counts(
    matches: int, chunks: int, hyp_len: int, ref_len: int, alpha: float, beta: float, gamma: float
) -> float:
    """nltk ``single_meteor_score``'s arithmetic, in its order of operations; 0.0 where nltk divides by zero."""
    return _components(matches, chunks, hyp_len, ref_len, alpha, beta, gamma)[-1]


def _components(
    matches: int, chunks: int, hyp_len: int, ref_len: int, alpha: float, beta: float, gamma: float
) -> tuple[float, float, float, float, float, float]:
    """(P, R, Fmean, fragmentation, penalty, score); zeros where nltk hits ZeroDivisionError."""
    if matches == 0 or hyp_len == 0 or ref_len == 0:
        precision = matches / hyp_len if hyp_len else 0.0
        recall = matches / ref_len if ref_len else 0.0
        return precision, recall, 0.0, 0.0, 0.0, 0.0
    precision = float(matches) / hyp_len
    recall = float(matches) / ref_len
    fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
    frag = float(chunks) / matches
    penalty = gamma * frag**beta
    return precision, recall, fmean, frag, penalty, (1 - penalty) * fmean


# One match of a raw alignment: (hyp index, ref index, stage); alignments are sorted by hypothesis index.
_Pair = tuple[int, int, MatchStage]
_EXACT, _STEM, _SYNONYM = MatchStage.EXACT, MatchStage.STEM, MatchStage.SYNONYM


class _Stems:
    """nltk's PorterStemmer with a memo: stemming is the costliest step and words repeat across a corpus."""

    def __init__(self) -> None:
        self._stemmer: Callable[[str], str] | None = None
        self._cache: BoundedCache[str, str] = BoundedCache(_STEM_CACHE_LIMIT)

    def __call__(self, word: str) -> str:
        stem = self._cache.get(word)
        if stem is None:
            if self._stemmer is None:
                self._stemmer = porter_stemmer()  # nltk's PorterStemmer, as nltk's meteor_score default
            stem = self._cache[word] = self._stemmer(word)
        return stem

    def many(self, words: Sequence[str]) -> tuple[str, ...]:
        get = self._cache.get
        stems = [get(word) for word in words]
        if None in stems:
            stems = [self(word) for word in words]
        return tuple(stems)  # type: ignore[arg-type]


# Shared by every Meteor in the process, like nltk's own synset cache: a word's stem never changes.
_STEMS = _Stems()


class _Text:
    """One text as nltk's METEOR sees it: lowercased tokens, then (on first need) their Porter stems and, per
    position, the WordNet lemma names of the stem. References are prepared once and reused across systems.

    ``last`` maps each word to its last position; only words occurring more than once get a tuple of positions in
    ``repeats``. Ints keep ``last`` invisible to the garbage collector: tracked containers in a corpus-sized cache
    made collections cost more than the scoring itself.
    """

    __slots__ = ("words", "last", "repeats", "stems", "synonyms")

    def __init__(self, text: str) -> None:
        # Lowercasing the whole text equals lowercasing each token (nltk): whitespace has no case and ends a word
        # for the final-sigma rule as the end of a string does (tests/parity/meteor/test_meteor.py::test_tokens_are_nltk_inputs).
        words = self.words = tuple(text.lower().split())
        self.last = {word: index for index, word in enumerate(words)}
        self.repeats: dict[str, tuple[int, ...]] = {}
        if len(self.last) < len(words):
            self.repeats = {
                word: tuple([i for i, other in enumerate(words) if other == word])
                for word, count in Counter(words).items()
                if count > 1
            }
        self.stems: tuple[str, ...] = ()
        self.synonyms: list[frozenset[str] | None] = []


def _pair_from_end(
    hyp: Sequence[str], hyp_ids: Sequence[int], ref: Sequence[str], ref_ids: Sequence[int], stage: MatchStage
) -> tuple[list[_Pair], list[int], list[int]]:
    """nltk ``_match_enums``: items from last to first take the highest-index free reference item equal to them.

    Returns the pairs and the unmatched hypothesis ids (descending) and reference ids (ascending).
    """
    positions: dict[str, list[int]] = {}
    for k, item in enumerate(ref):
        positions.setdefault(item, []).append(k)
    pairs: list[_Pair] = []
    hyp_rest = []
    ref_taken = set()
    for k in range(len(hyp) - 1, -1, -1):
        slots = positions.get(hyp[k])
        if slots:
            j = slots.pop()
            ref_taken.add(j)
            pairs.append((hyp_ids[k], ref_ids[j], stage))
        else:
            hyp_rest.append(hyp_ids[k])
    return pairs, hyp_rest, [ref_ids[k] for k in range(len(ref)) if k not in ref_taken]


class Meteor(Metric[MeteorConfig, MeteorExplanation]):
    """METEOR as nltk 3.10.4 computes it; see the module docstring for the algorithm and the nltk call.

    Segment statistics: ``meteor`` (the segment score) and, for the winning reference, ``matches``, ``chunks``,
    ``hyp_len``, ``ref_len``. The corpus score is the mean of segment scores (aggregate ``"mean"``).
    """

    id: ClassVar[str] = "meteor"
    aggregate: ClassVar[Literal["mean"]] = "mean"
    Config: ClassVar[type] = MeteorConfig
    explanation_type: ClassVar[type[MeteorExplanation]] = MeteorExplanation

    def __init__(self, config: MeteorConfig | None = None, **options: object) -> None:
        super().__init__(config, **options)
        self._stem = _STEMS
        self._wordnet: WordNetIndex | None = None
        self._text_cache: BoundedCache[str, _Text] = BoundedCache()
        self._row_cache: BoundedCache[tuple[str, ...], tuple[float, ...]] = BoundedCache()

    @property
    def segment_limit(self) -> SegmentLimit | None:
        return limits.METEOR

    @property
    def name(self) -> str:
        return "METEOR"

    @property
    def columns(self) -> tuple[str, ...]:
        # Pooled by mean: only "meteor" is a corpus quantity; the other columns describe the winning reference.
        return ("meteor", "matches", "chunks", "hyp_len", "ref_len")

    def signature(self) -> str:
        c = self.config
        return (
            f"case:lc|tok:split|stem:porter|syn:wordnet-3.0|alpha:{c.alpha:g}|beta:{c.beta:g}|gamma:{c.gamma:g}"
            f"|agg:mean|ref:{REFERENCE}|version:{VERSION}"
        )

    @property
    def wordnet(self) -> WordNetIndex:
        if self._wordnet is None:
            self._wordnet = wordnet_index()
        return self._wordnet

    def tokenize(self, text: str) -> tuple[str, ...]:
        """nltk's input as callers give it: ``text.split()``, then ``str.lower`` on every token."""
        return self._text(text).words

    def _text(self, text: str) -> _Text:
        return self._text_cache.get_or_make(text, lambda: _Text(text))

    def _stems(self, text: _Text) -> tuple[str, ...]:
        if len(text.stems) != len(text.words):
            text.stems = self._stem.many(text.words)
        return text.stems

    @staticmethod
    def _synonym_slots(text: _Text) -> list[frozenset[str] | None]:
        """Per position, the WordNet lemma names of its stem, filled in on first need (most never need them)."""
        text.synonyms = [None] * len(text.words)
        return text.synonyms

    def _align(self, hyp: _Text, ref: _Text) -> list[_Pair]:
        """nltk ``_enum_align_words``: exact, then stem, then WordNet synonym matches, sorted by hyp index.

        nltk's exact stage walks the hypothesis from the end and gives each word the highest unmatched reference
        position holding it. For one word that pairs its occurrences counted from the end (last with last, …)
        whatever other words do, so a word that occurs once on either side pairs the two last positions.
        """
        hyp_last, ref_last = hyp.last, ref.last
        common = hyp_last.keys() & ref_last.keys()
        multi = common.intersection(hyp.repeats).intersection(ref.repeats) if hyp.repeats and ref.repeats else ()
        if multi:
            common -= multi
        pairs: list[_Pair] = [(hyp_last[word], ref_last[word], _EXACT) for word in common]
        for word in multi:
            hyp_at, ref_at = hyp.repeats[word], ref.repeats[word]
            k = min(len(hyp_at), len(ref_at))
            pairs.extend(zip(hyp_at[-k:], ref_at[-k:], repeat(_EXACT, k), strict=True))
        n, r = len(hyp.words), len(ref.words)
        if len(pairs) < n and len(pairs) < r:
            hyp_taken = {pair[0] for pair in pairs}
            ref_taken = {pair[1] for pair in pairs}
            hyp_left = [i for i in range(n) if i not in hyp_taken]
            ref_left = [j for j in range(r) if j not in ref_taken]
            hyp_stems, ref_stems = self._stems(hyp), self._stems(ref)
            ref_left_stems = {ref_stems[j] for j in ref_left}
            if any(hyp_stems[i] in ref_left_stems for i in hyp_left):
                stemmed, hyp_rest, ref_left = _pair_from_end(
                    [hyp_stems[i] for i in hyp_left], hyp_left, [ref_stems[j] for j in ref_left], ref_left, _STEM
                )
                pairs.extend(stemmed)
                ref_left_stems = {ref_stems[j] for j in ref_left}
            else:
                hyp_rest = hyp_left[::-1]
            if hyp_rest and ref_left:
                names = hyp.synonyms or self._synonym_slots(hyp)
                lemma_names = self.wordnet.lemma_names
                for i in hyp_rest:
                    stem = hyp_stems[i]
                    found = names[i]
                    if found is None:
                        found = names[i] = lemma_names(stem)
                    if stem in ref_left_stems or not found.isdisjoint(ref_left_stems):
                        pairs.extend(self._synonyms(hyp, hyp_rest, ref_stems, ref_left))
                        break
        pairs.sort()
        return pairs

    def _synonyms(
        self, hyp: _Text, hyp_rest: Sequence[int], ref_stems: Sequence[str], ref_rest: list[int]
    ) -> list[_Pair]:
        """nltk ``_enum_wordnetsyn_match``: each remaining hypothesis position (``hyp_rest``, descending) takes the
        highest remaining reference position (``ref_rest``, ascending) whose stem is the hypothesis stem or one of
        its WordNet lemma names."""
        pairs: list[_Pair] = []
        lemma_names = self.wordnet.lemma_names
        for i in hyp_rest:
            stem = hyp.stems[i]
            names = hyp.synonyms[i]
            if names is None:
                names = hyp.synonyms[i] = lemma_names(stem)
            for slot in range(len(ref_rest) - 1, -1, -1):
                candidate = ref_stems[ref_rest[slot]]
                if candidate == stem or candidate in names:
                    pairs.append((i, ref_rest.pop(slot), _SYNONYM))
                    break
            if not ref_rest:
                break
        return pairs

    def _best(self, hyp: _Text, refs: Sequence[str]) -> tuple[list[list[_Pair]], list[tuple[float, int]], int]:
        """Every reference's alignment, (score, chunks) per reference, and the winner (first maximum, as nltk's
        ``max()`` over a generator)."""
        if not refs:
            raise ValueError("METEOR needs at least one reference per segment (nltk's max() over none fails)")
        c = self.config
        alignments, results = [], []
        best = 0
        for k, ref in enumerate(refs):
            prepared = self._text(ref)
            pairs = self._align(hyp, prepared)
            chunks = _count_chunks(pairs) if pairs else 0
            score = meteor_from_counts(
                len(pairs), chunks, len(hyp.words), len(prepared.words), c.alpha, c.beta, c.gamma
            )
            alignments.append(pairs)
            results.append((score, chunks))
            if score > results[best][0]:
                best = k
        return alignments, results, best

    def _row(self, hyp: _Text, ref: str, pairs: list[_Pair], score: float, chunks: int) -> tuple[float, ...]:
        return (score, float(len(pairs)), float(chunks), float(len(hyp.words)), float(len(self.tokenize(ref))))

    def _segment(self, hyp: str, refs: Sequence[str]) -> tuple[float, ...]:
        # Systems often produce the same output for a segment (29% of WMT22 de-en hypotheses repeat another
        # system's), and the statistics depend on nothing else.
        key = (hyp, *refs)
        row = self._row_cache.get(key)
        if row is None:
            prepared = _Text(hyp)  # not cached: a hypothesis rarely recurs, and repeats reuse the row
            alignments, results, best = self._best(prepared, refs)
            row = self._row(prepared, refs[best], alignments[best], *results[best])
            self._row_cache[key] = row
        return row

    def _segment_row(self, hyp: str, refs: Sequence[str]) -> tuple[float, ...]:
        return self._segment(hyp, refs)

    def score_pooled(self, pooled: np.ndarray) -> np.ndarray:
        return np.asarray(pooled, dtype=np.float64)[..., 0]

    def _explain(self, hyp: str, refs: Sequence[str]) -> MeteorExplanation:
        """Every reference's alignment (matches with their stage and compared forms, chunks, P, R, Fmean,
        fragmentation, penalty) from the same alignment code as :meth:`_segment_row`, and the winner."""
        refs = list(refs)
        prepared = _Text(hyp)
        alignments, results, best = self._best(prepared, refs)
        hyp_words = prepared.words
        hyp_tokens = locate(hyp, hyp.split())
        c = self.config
        evidence = []
        for k, (ref, pairs) in enumerate(zip(refs, alignments, strict=True)):
            ref_words = self.tokenize(ref)
            ref_tokens = locate(ref, ref.split())
            matches = []
            for i, j, stage in pairs:
                if stage is MatchStage.EXACT:
                    forms = hyp_words[i], ref_words[j]
                else:
                    forms = self._stem(hyp_words[i]), self._stem(ref_words[j])
                matches.append(MeteorMatch(i, j, stage, forms[0], forms[1], hyp_tokens[i], ref_tokens[j]))
            precision, recall, fmean, frag, penalty, score = _components(
                len(pairs), results[k][1], len(hyp_words), len(ref_words), c.alpha, c.beta, c.gamma
            )
            evidence.append(
                MeteorAlignment(
                    k,
                    hyp_tokens,
                    ref_tokens,
                    tuple(matches),
                    tuple((stage, sum(m.stage is stage for m in matches)) for stage in MatchStage),
                    _chunks(pairs),
                    precision,
                    recall,
                    fmean,
                    frag,
                    penalty,
                    score,
                )
            )
        row = self._row(prepared, refs[best], alignments[best], *results[best])
        return MeteorExplanation(
            score=row[0], row=row, best_ref=best, alignments=tuple(evidence), alpha=c.alpha, beta=c.beta, gamma=c.gamma
        )


def _count_chunks(pairs: Sequence[_Pair]) -> int:
    """nltk ``_count_chunks``: 1 + the number of places where the next match is not (+1, +1); 1 for no match."""
    chunks = 1
    for k in range(len(pairs) - 1):
        if pairs[k + 1][0] != pairs[k][0] + 1 or pairs[k + 1][1] != pairs[k][1] + 1:
            chunks += 1
    return chunks


def _chunks(pairs: Sequence[_Pair]) -> tuple[MeteorChunk, ...]:
    runs: list[MeteorChunk] = []
    start = 0
    for k in range(1, len(pairs) + 1):
        if k == len(pairs) or pairs[k][0] != pairs[k - 1][0] + 1 or pairs[k][1] != pairs[k - 1][1] + 1:
            runs.append(MeteorChunk(pairs[start][0], pairs[k - 1][0] + 1, pairs[start][1], pairs[k - 1][1] + 1))
            start = k
    return tuple(runs)


__all__ = [
    "MatchStage",
    "Meteor",
    "MeteorAlignment",
    "MeteorChunk",
    "MeteorConfig",
    "MeteorExplanation",
    "MeteorMatch",
    "meteor_from_counts",
]
