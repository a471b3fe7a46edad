"""Measure the work bounds on paragraph-length real data: how much of each bound the largest real input needs.

    python -m benchmarks.work_bounds [--shared PATH] [--min-words 245 380] [--longest 300] [--bounds ter eed …]

The bounds (CharacTER ``max_shift_work``, TER ``search_budget``, EED ``max_cells``, WER/CER ``max_cells``) exist
for pathological lines and must never bind on real segments. Sentences are far from them; paragraphs are the
realistic worst case, so this builds paragraphs from WMT22 de→en: consecutive segments of every system joined
until reference A has at least ``--min-words`` words (245: paragraphs of 245–285 words, against both references;
380: 380–430 words, against reference A), and adds the ``--longest`` CNN/DM summary pairs (by hypothesis ×
reference words). For every hypothesis/reference pair it
counts the work in each bound's own units, unbounded: the shift searches (CharacTER, TER) are run on every pair and
timed; the alignments whose work is their size (EED, WER/CER cells) are timed on the ``--timed`` largest pairs. It
prints the largest work, the time it took, the slowest timed pair, the total time, and the default bound with its
headroom over the largest work. Times are CPU time of this process, so that other load on the machine does not
inflate them; timing is for people, never a test.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import load_set
from metrics.core.levenshtein import distance as levenshtein
from metrics.families.character.metric import CharacTERConfig, _shift_search
from metrics.families.eed.metric import EED, align, preprocess
from metrics.families.ter.metric import TER, TERConfig
from metrics.families.ter.search import SearchBudget, ter_pair
from metrics.families.wer.metric import CER, WER, ErrorRateConfig

ROOT = Path(__file__).resolve().parent.parent
Pair = tuple[str, str]


@dataclass(frozen=True)
class Measured:
    metric: str
    data: str
    pairs: int
    largest: int  # work units of the largest pair
    largest_seconds: float  # time of that pair
    slowest_seconds: float  # the slowest pair (not always the largest)
    total_seconds: float
    bound: int | None  # the default bound, in the same units


def paragraphs(texts: Sequence[str], lengths: Sequence[int], min_words: int) -> list[str]:
    """``texts`` joined into paragraphs at the boundaries where the reference reaches ``min_words`` words."""
    out, current, words = [], [], 0
    for text, length in zip(texts, lengths, strict=True):
        current.append(text)
        words += length
        if words >= min_words:
            out.append(" ".join(current))
            current, words = [], 0
    return out  # a short tail is dropped: it is not a paragraph


def wmt_pairs(shared: Path, min_words: int, ref_files: Sequence[str]) -> list[Pair]:
    refs, systems = load_set(shared / "wmt22" / "de-en", ["ref.A.txt", *ref_files[1:]])
    lengths = [len(line.split()) for line in refs[0]]
    ref_paragraphs = [paragraphs(stream, lengths, min_words) for stream in refs]
    words = [len(p.split()) for p in ref_paragraphs[0]]
    print(f"# {len(words)} paragraphs of {min(words)}-{max(words)} words, {len(systems)} systems, {len(refs)} ref(s)")
    return [
        (hyp, stream[k])
        for hyps in systems.values()
        for k, hyp in enumerate(paragraphs(hyps, lengths, min_words))
        for stream in ref_paragraphs
    ]


def cnndm_pairs(shared: Path, longest: int) -> list[Pair]:
    (ref,), systems = load_set(shared / "cnndm_see2017", ["reference.txt"])
    pairs = [(hyp, r) for hyps in systems.values() for hyp, r in zip(hyps, ref, strict=True)]
    return sorted(pairs, key=lambda p: -len(p[0].split()) * len(p[1].split()))[:longest]


def _measure(pairs: Sequence[Pair], one: Callable[[str, str], int]) -> tuple[int, float, float, float]:
    largest, largest_t, slowest, total = -1, 0.0, 0.0, 0.0
    for hyp, ref in pairs:
        start = time.process_time()
        work = one(hyp, ref)
        took = time.process_time() - start
        total += took
        slowest = max(slowest, took)
        if work > largest:
            largest, largest_t = work, took
    return largest, largest_t, slowest, total


@dataclass(frozen=True)
class Sized:
    """An alignment whose work is known before it runs: ``size`` counts it, ``run`` does it."""

    size: Callable[[str, str], int]
    run: Callable[[str, str], object]


def _measure_sized(pairs: Sequence[Pair], sized: Sized, timed: int) -> tuple[int, float, float, float]:
    """The largest size over every pair; times of the ``timed`` largest pairs only (their total, not all pairs')."""
    by_size = sorted(pairs, key=lambda p: -sized.size(*p))[:timed]
    return _measure(by_size, lambda hyp, ref: (sized.run(hyp, ref), sized.size(hyp, ref))[1])


def character_work(hyp: str, ref: str) -> int:
    h, r = hyp.split(), ref.split()
    d0 = levenshtein(h, r) if h and r else 0
    return _shift_search(h, r, d0, None).work if d0 else 0


def ter_work(metric: TER) -> Callable[[str, str], int]:
    unbounded = SearchBudget(10**18)
    return lambda hyp, ref: ter_pair(metric.tokenize(hyp), metric.tokenize(ref), unbounded).work


def eed_cells(metric: EED) -> Sized:
    c = metric.config

    def texts(hyp: str, ref: str) -> tuple[str, str]:
        return preprocess(hyp, c.language, c.variant), preprocess(ref, c.language, c.variant)

    def size(hyp: str, ref: str) -> int:
        h, r = texts(hyp, ref)
        return (len(h) + 1) * len(r)

    return Sized(size, lambda hyp, ref: align(*texts(hyp, ref), metric._costs, False))


def rate_cells(metric: WER | CER) -> Sized:
    def size(hyp: str, ref: str) -> int:
        return len(metric.symbols(hyp)) * len(metric.symbols(ref))

    return Sized(size, lambda hyp, ref: metric._pair(metric.symbols(hyp), metric.symbols(ref)))


BOUNDS = ("characTER", "ter", "eed", "wer", "cer")


def measure(
    shared: Path, min_words: Sequence[int], longest: int, timed: int, bounds: Sequence[str] = BOUNDS
) -> list[Measured]:
    sets = {}
    for k, least in enumerate(min_words):
        ref_files = ("ref.A.txt", "ref.B.txt") if k == 0 else ("ref.A.txt",)
        sets[f"wmt22 paragraphs ≥{least} words"] = wmt_pairs(shared, least, ref_files)
    sets[f"cnndm {longest} longest summaries"] = cnndm_pairs(shared, longest)
    wer, cer, eed, ter = WER(), CER(), EED(), TER()
    metrics: list[tuple[str, Callable[[str, str], int] | Sized, int | None]] = [
        ("characTER max_shift_work", character_work, CharacTERConfig().max_shift_work),
        ("ter search_budget", ter_work(ter), TERConfig().search_budget),
        ("eed max_cells", eed_cells(eed), eed.config.max_cells),
        ("wer max_cells", rate_cells(wer), ErrorRateConfig().max_cells),
        ("cer max_cells", rate_cells(cer), ErrorRateConfig().max_cells),
    ]
    results = []
    for name, work, bound in metrics:
        if name.split()[0] not in bounds:
            continue
        for data, pairs in sets.items():
            if isinstance(work, Sized):
                largest, largest_t, slowest, total = _measure_sized(pairs, work, timed)
            else:
                largest, largest_t, slowest, total = _measure(pairs, work)
            results.append(Measured(name, data, len(pairs), largest, largest_t, slowest, total, bound))
            print(_row(results[-1]), flush=True)
    return results


HEADER = f"{'bound':26} {'data':36} {'pairs':>6} {'largest work':>13} {'its s':>7} {'slowest s':>9} {'total s':>8} {'default':>9} {'headroom':>9}"


def _row(m: Measured) -> str:
    headroom = "—" if m.bound is None or m.largest <= 0 else f"{m.bound / m.largest:8.1f}x"
    bound = "none" if m.bound is None else f"{m.bound:.1e}"
    return (
        f"{m.metric:26} {m.data:36} {m.pairs:6d} {m.largest:13.3e} {m.largest_seconds:7.3f} "
        f"{m.slowest_seconds:9.3f} {m.total_seconds:8.2f} {bound:>9} {headroom:>9}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--min-words", type=int, nargs="+", default=[245, 380])
    parser.add_argument("--longest", type=int, default=300)
    parser.add_argument("--timed", type=int, default=20, help="largest pairs timed for the cell-bounded alignments")
    parser.add_argument("--bounds", nargs="+", choices=BOUNDS, default=BOUNDS, help="the bounds to measure")
    args = parser.parse_args(argv)
    if not args.shared.exists():
        parser.error(f"{args.shared} does not exist: the bounds are measured on the real sets in shared/data")
    print(HEADER)
    measure(args.shared, args.min_words, args.longest, args.timed, args.bounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
