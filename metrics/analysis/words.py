"""Word accuracy by frequency: each system's word precision, recall and F-measure, with words bucketed by how often
they occur in the references or in a training corpus (compare-mt's word-accuracy analysis, ``bucketers.py``).

compare-mt (``WordBucketer._calc_trg_matches``) matches the k-th occurrence of a word in the output with its k-th
occurrence in the reference, so a word type contributes ``min(count in output, count in reference)`` matches; a
reference word falls in the bucket of its frequency, an output word in the bucket of its own (a matched word is the
same word). Per bucket, ``recall = matches / reference words``, ``precision = matches / output words`` and
``F = 2PR / (P + R)`` (0 when nothing matched). Frequencies are counts in the references (compare-mt's default) or
in a training corpus; buckets default to compare-mt's ``1:2:3:4:5:10:100:1000`` (a word never seen is ``<1``).

With several references every (output, reference) pair counts, as if the corpus were repeated once per reference,
and a word's frequency is counted **in the reference it is matched against** (:func:`reference_frequencies`): each
copy is compare-mt's analysis with that one reference, and the copies' counts add up. So "frequency 1" means
"occurs once in a reference", whatever the number of references. Counting in all references pooled (compare-mt
given their concatenation) would not: a word both translators used once has count 2, a word only one of them used
has count 1, so odd buckets fill with the words translators disagree on — which the other reference lacks, and an
output matches less often — and the chart zig-zags (WMT22 de-en, two references: F 0.30, 0.68, 0.56, 0.65 for
counts 1–4 against a smooth 0.56–0.60 with one). A training corpus is one stream: its counts bucket every copy.
Intervals: the bootstrap of :mod:`metrics.analysis.scoring` over segments (sacrebleu's draws).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from metrics.analysis.buckets import assign, check_edges, edge_labels
from metrics.analysis.scoring import DEFAULT_SETTINGS, BucketSettings, intervals_of
from metrics.stats.resampling import bootstrap_indices, resample_counts
from metrics.stats.significance import Interval

FREQUENCY_EDGES: tuple[float, ...] = (1, 2, 3, 4, 5, 10, 100, 1000)
Tokens = Sequence[str]
Frequencies = Mapping[str, int]


@dataclass(frozen=True)
class WordAccuracy:
    """One system on the words of one frequency bucket, with the bootstrap interval of its F-measure."""

    system: str
    label: str
    position: int
    matches: int
    ref_words: int
    out_words: int
    precision: float
    recall: float
    fmeasure: float
    interval: Interval


def frequencies(corpus: Iterable[Tokens]) -> Counter[str]:
    """How often each token occurs in a tokenized corpus."""
    counts: Counter[str] = Counter()
    for tokens in corpus:
        counts.update(tokens)
    return counts


def reference_frequencies(refs: Sequence[Sequence[Tokens]]) -> tuple[Counter[str], ...]:
    """How often each token occurs in each reference stream (``refs[i][r]``: reference ``r`` of segment ``i``),
    one count per reference: what :func:`word_accuracy` buckets each reference's words by."""
    n_refs = max((len(r) for r in refs), default=0)
    return tuple(frequencies(segment[r] for segment in refs if r < len(segment)) for r in range(n_refs))


def _f_measure(matches: np.ndarray, ref: np.ndarray, out: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(matches > 0, matches / np.where(ref > 0, ref, 1), 0.0)
        precision = np.where(matches > 0, matches / np.where(out > 0, out, 1), 0.0)
        f = np.where(matches > 0, 2 * precision * recall / np.where(matches > 0, precision + recall, 1), 0.0)
    return precision, recall, f


def word_accuracy(
    outputs: Mapping[str, Sequence[Tokens]],
    refs: Sequence[Sequence[Tokens]],
    counts: Frequencies | Sequence[Frequencies],
    edges: Sequence[float] = FREQUENCY_EDGES,
    settings: BucketSettings = DEFAULT_SETTINGS,
) -> tuple[WordAccuracy, ...]:
    """Per system and frequency bucket: matches, word counts, P, R, F and F's interval.

    ``outputs[system][i]``: the tokens of segment ``i``; ``refs[i]``: the token lists of its references;
    ``counts``: word frequencies, one per reference (:func:`reference_frequencies`) or one for all (the
    :func:`frequencies` of a training corpus).
    """
    edges = check_edges(edges, "word frequency buckets")
    labels = edge_labels(edges)
    n_buckets = len(labels)
    names = list(outputs)
    n = len(refs)
    ref_total = np.zeros((n, n_buckets))
    out_total = np.zeros((len(names), n, n_buckets))
    matched = np.zeros((len(names), n, n_buckets))
    per_reference = [counts] if isinstance(counts, Mapping) else list(counts)
    if not per_reference:
        raise ValueError("word accuracy needs word frequencies: one count per reference, or one for all")
    bucket_of: list[dict[str, int]] = [{} for _ in per_reference]

    def bucket(word: str, r: int) -> int:
        r = 0 if len(per_reference) == 1 else r
        found = bucket_of[r].get(word)
        if found is None:
            found = bucket_of[r][word] = int(assign(np.array([per_reference[r].get(word, 0)]), edges)[0])
        return found

    for i in range(n):
        if len(per_reference) > 1 and len(refs[i]) > len(per_reference):
            raise ValueError(f"segment {i + 1} has {len(refs[i])} references but frequencies of {len(per_reference)}")
        for r, ref in enumerate(refs[i]):
            ref_counts = Counter(ref)
            for word, c in ref_counts.items():
                ref_total[i, bucket(word, r)] += c
            for s, name in enumerate(names):
                hyp = outputs[name][i]
                for word, c in Counter(hyp).items():
                    k = bucket(word, r)
                    out_total[s, i, k] += c
                    matched[s, i, k] += min(c, ref_counts.get(word, 0))
    observed = _f_measure(matched.sum(axis=1), ref_total.sum(axis=0)[None, :], out_total.sum(axis=1))
    index = bootstrap_indices(n, settings.n_bootstrap, settings.seed)
    draws = resample_counts(index, n)  # resamples × segments
    boot_m, boot_o = (
        (draws @ x.transpose(1, 0, 2).reshape(n, -1)).reshape(-1, len(names), n_buckets).transpose(1, 0, 2)
        for x in (matched, out_total)
    )
    boot_r = (draws @ ref_total)[None, :, :]
    boot_f = _f_measure(boot_m, boot_r, boot_o)[2]  # systems × resamples × buckets
    results = []
    for s, name in enumerate(names):
        intervals = intervals_of(observed[2][s], boot_f[s].T)
        for k, label in enumerate(labels):
            results.append(
                WordAccuracy(
                    name,
                    label,
                    k,
                    int(matched[s, :, k].sum()),
                    int(ref_total[:, k].sum()),
                    int(out_total[s, :, k].sum()),
                    float(observed[0][s, k]),
                    float(observed[1][s, k]),
                    float(observed[2][s, k]),
                    intervals[k],
                )
            )
    return tuple(results)
