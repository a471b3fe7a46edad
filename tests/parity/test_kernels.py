"""The compiled kernels against the pure-Python path they accelerate: bit-identical rows on real data for every
kernelized metric (each path run by a fresh metric, so no cache crosses over), and the kernels' building blocks
against their references on real and generated input."""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest
from nltk.stem.porter import PorterStemmer

from metrics.core.registry import create, families
from metrics.families.bleu.tokenizers import _RE_13A
from metrics.families.ter.metric import TER
from metrics.families.ter.search import SearchBudget, ter_pair, work_bound
from metrics.kernels import in_threads, kernel, pure_python
from tests.support.corpora import Corpus, slice_corpus
from tests.support.paths import DATA, ROOT

KERNELS = tuple(sorted(path.stem.removeprefix("_") for path in (ROOT / "metrics" / "kernels").glob("_*.pyx")))

# Every family declares the inputs on which its kernels must match the pure path (``Family.kernel_cases``).
CASES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    (case.metric, dict(case.options), case.corpora) for family in families() for case in family.kernel_cases
]


def _rows(metric_id: str, options: dict[str, Any], corpus: Corpus) -> list[tuple[np.ndarray, tuple[str, ...]]]:
    metric = create(metric_id, options)
    return [(s.rows, s.notes) for s in (metric.stats(hyps, corpus.refs) for hyps in corpus.systems.values())]


def test_every_kernel_is_built() -> None:
    """The install builds them (setup.py); a broken build would silently fall back to the slow path."""
    assert [name for name in KERNELS if kernel(name) is None] == []


@pytest.mark.parametrize(("metric_id", "options", "names"), CASES, ids=lambda v: str(v))
def test_rows_are_bit_identical_to_the_pure_path(
    corpora: dict[str, Corpus], metric_id: str, options: dict[str, Any], names: tuple[str, ...]
) -> None:
    for name in names:
        compiled = _rows(metric_id, options, corpora[name])
        with pure_python():
            assert kernel("ngrams") is None
            pure = _rows(metric_id, options, corpora[name])
        assert len(compiled) == len(pure) > 0
        for (rows, notes), (expected_rows, expected_notes) in zip(compiled, pure, strict=True):
            assert rows.dtype == expected_rows.dtype and rows.shape == expected_rows.shape
            assert rows.tobytes() == expected_rows.tobytes(), f"{metric_id} {options} on {name}"
            assert notes == expected_notes


def test_ter_falls_back_where_the_budget_could_bind() -> None:
    """A pair whose search the budget might stop goes to the pure search, which reports the stop."""
    hyp = " ".join(f"w{i % 37} x{i}" for i in range(300))
    ref = " ".join(f"x{i} w{(i * 7) % 37}" for i in range(300))
    metric = TER(search_budget=3_000_000)
    row = metric.stats([hyp], [[ref]]).rows[0]
    with pure_python():
        expected = TER(search_budget=3_000_000).stats([hyp], [[ref]]).rows[0]
    assert row.tobytes() == expected.tobytes()
    assert row[6] == 1.0  # the budget stopped this search: only the pure path can say so


def test_work_bound_covers_what_the_search_spends(corpora: dict[str, Corpus]) -> None:
    compiled = kernel("ter")
    assert compiled is not None
    metric = TER()
    corpus = corpora["wmt22-de-en"]
    for hyp, ref in list(zip(corpus.systems["LT22"], corpus.refs[0], strict=True))[:150]:
        hyp_words, ref_words = metric.tokenize(hyp), metric.tokenize(ref)
        trace = ter_pair(hyp_words, ref_words, SearchBudget())
        vocab: dict[str, int] = {}
        ref_ids = [vocab.setdefault(w, len(vocab)) for w in ref_words]
        result = compiled.ter_pair([vocab.get(w, -1) for w in hyp_words], ref_ids)
        assert (result[0], result[1]) == (trace.edits, len(trace.shifts))
        assert trace.work <= work_bound(len(hyp_words), len(ref_words), result[5], result[6])


def _words() -> list[str]:
    words: set[str] = set()
    for path in DATA.rglob("*"):
        if path.suffix in (".txt", ".jsonl"):
            text = path.read_text(encoding="utf-8")
            words.update(text.split())
            words.update(re.findall(r"[a-z0-9]+", text.lower()))
    rng = random.Random(13)
    letters = "aeiouybcdlmnstzwxg*ÉİΣK"
    words.update("".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) for _ in range(20_000))
    suffixes = ("ational", "alli", "logi", "ization", "iveness", "ement", "ion", "ies", "ied", "eed", "ing", "ed")
    stems = ("conflat", "hop", "fil", "yy", "by", "rel", "electr", "adopt", "ro", "a*", "x")
    words.update(a + b + c for a in stems for b in suffixes for c in ("", "ly", "s", "*d", "e", "ll"))
    return sorted(words)


def test_porter_stems_as_nltk() -> None:
    compiled = kernel("porter")
    assert compiled is not None
    nltk = PorterStemmer()
    words = _words()
    assert len(words) > 20_000
    assert [w for w in words if compiled.stem(w) != nltk.stem(w)] == []


def _post_13a(line: str) -> str:
    for pattern, repl in _RE_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def test_13a_scan_equals_the_regular_expressions(corpora: dict[str, Corpus]) -> None:
    compiled = kernel("tokenize")
    assert compiled is not None
    texts = [t for corpus in corpora.values() for stream in (*corpus.systems.values(), *corpus.refs) for t in stream]
    rng = random.Random(7)
    alphabet = "aZ09.,-'\"&;:/ \t\n\u00a0\u3000\x1c\x85é中-..,,1-"
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(30_000)]
    assert [t for t in texts if compiled.post_13a(f" {t} ") != _post_13a(f" {t} ")] == []


@pytest.mark.parametrize("max_order", [1, 4, 9])
def test_clipped_matches_equal_counters(max_order: int) -> None:
    from collections import Counter

    compiled = kernel("ngrams")
    assert compiled is not None
    rng = random.Random(max_order)
    for _ in range(2000):
        hyp = [rng.randint(-1, 6) for _ in range(rng.randint(0, 25))]
        refs = [[rng.randint(0, 6) for _ in range(rng.randint(0, 25))] for _ in range(rng.randint(1, 3))]
        expected = []
        for n in range(1, max_order + 1):
            hyp_counts = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
            ref_counts = [Counter(tuple(r[i : i + n]) for i in range(len(r) - n + 1)) for r in refs]
            expected.append(sum(min(c, max(rc[g] for rc in ref_counts)) for g, c in hyp_counts.items()))
        assert compiled.clipped_matches(hyp, refs, 1, max_order) == expected
        text = "".join(chr(97 + x) if x >= 0 else "Z" for x in hyp)  # -1: an item no reference has
        assert compiled.clipped_matches(text, ["".join(chr(97 + x) for x in r) for r in refs], 1, max_order) == expected


def test_ter_kernel_on_random_pairs() -> None:
    """Short pairs over a tiny vocabulary: many shifts, ties and blocks at the end of the hypothesis."""
    from metrics.core.edits import EditOp

    compiled = kernel("ter")
    assert compiled is not None
    rng = random.Random(3)
    for _ in range(3000):
        vocab = rng.randint(1, 5)
        hyp = [rng.randint(0, vocab) for _ in range(rng.randint(1, 14))]
        ref = [rng.randint(0, vocab) for _ in range(rng.randint(1, 14))]
        trace = ter_pair([str(x) for x in hyp], [str(x) for x in ref])
        expected = (trace.edits, len(trace.shifts), *(trace.count(op) for op in (EditOp.SUBSTITUTE, EditOp.INSERT)))
        assert compiled.ter_pair(hyp, ref)[:5] == (*expected, trace.count(EditOp.DELETE))


_TRICKY = [
    "",
    "\n\n",
    " \n.\nA",
    "İstanbul \u212aelvin CAFÉ naïve Straße\n\n  \nx",
    "supercalifragilistic 12345678 123456789 abcdefgh abcdefghi ABCDEFGHI\nrunning runners ran\n",
    "中文 and 日本語 text\nwith mixed λέξεις",
    "a" * 300 + " b\n" + "b" * 9,
]


@pytest.mark.parametrize("stemmer", [False, True])
@pytest.mark.parametrize("metric_id", ["rouge1", "rougeLsum"])
def test_rouge_vocabulary_tokenizes_as_the_pure_path(corpora: dict[str, Corpus], metric_id: str, stemmer: bool) -> None:
    """The kernel's scan of rouge-score's tokenizer gives the pure path's words and sentence ends."""
    compiled = kernel("rouge")
    assert compiled is not None
    metric = create(metric_id, {"stemmer": stemmer})
    vocabulary = metric._vocabulary_for(compiled)
    texts = list(_TRICKY)
    for name in ("cnndm", "wmt22-de-en", "wmt22-en-zh"):
        corpus = corpora[name]
        texts += [t for stream in (*corpus.systems.values(), *corpus.refs) for t in stream[:60]]
    for text in texts:
        encoded = vocabulary.encode(text)
        words, ends = metric._words(text)
        assert (vocabulary.words(encoded), encoded.sentence_ends) == (words, ends), repr(text)


def _random_text(rng: random.Random, words: list[str]) -> str:
    length = rng.choice([0, 1, 3, 10, 40, 70, 140])
    return "".join(rng.choice(words) + rng.choice("  \n,") for _ in range(length))


@pytest.mark.parametrize(
    ("metric_id", "options"),
    [
        ("rouge1", {}),
        ("rouge2", {}),
        ("rouge1", {"n": 4}),
        ("rougeL", {}),
        ("rougeLsum", {}),
        ("rougeL", {"stemmer": True}),
    ],
    ids=str,
)
def test_rouge_rows_on_random_texts(metric_id: str, options: dict[str, Any]) -> None:
    """Few distinct words (many ties and repeats), texts past 64 tokens, missing references: rows as the pure path."""
    rng = random.Random(13)
    words = ["a", "B", "cats", "Running", "run", "x9", "é", "the", "abcdefghij"]
    hyps = [_random_text(rng, words) for _ in range(300)]
    refs = [[_random_text(rng, words) if k == 0 or rng.random() < 0.7 else None for _ in hyps] for k in range(3)]
    compiled = create(metric_id, options)
    rows = compiled.stats(hyps, refs).rows
    with pure_python():
        expected = create(metric_id, options).stats(hyps, refs).rows
    assert rows.tobytes() == expected.tobytes()
    segment = [r[5] for r in refs if r[5] is not None]
    assert compiled.segment_row(hyps[5], segment).tobytes() == expected[5].tobytes()


@pytest.mark.parametrize(
    ("metric_id", "options"),
    [("rouge2", {}), ("rougeL", {}), ("rougeLsum", {}), ("rouge1", {"stemmer": True})],
    ids=str,
)
def test_rouge_rows_split_over_threads(
    monkeypatch: pytest.MonkeyPatch, metric_id: str, options: dict[str, Any]
) -> None:
    """Three threads, each with its own vocabulary, over runs of real segments: the pure path's rows, and the same
    rows again for a second system (references encoded by the first call, per run). The unicode tokenizer keeps to
    one thread, and forked workers are not asked to compute what threads do."""
    from metrics.families.rouge import metric as rouge_metric

    monkeypatch.setattr(rouge_metric, "processors", lambda: 3)
    monkeypatch.setattr(rouge_metric, "THREAD_SEGMENTS", 7)
    corpus = slice_corpus("cnndm")
    metric = create(metric_id, options)
    for hyps in list(corpus.systems.values())[:2]:
        rows = metric.stats(hyps, corpus.refs).rows
        with pure_python():
            expected = create(metric_id, options).stats(hyps, corpus.refs).rows
        assert rows.tobytes() == expected.tobytes()
    assert len(metric._vocabularies) == 3 and len({id(v) for v in metric._vocabularies}) == 3
    assert metric.traits.in_process
    alone = create(metric_id, {**options, "tokenizer": "unicode"})
    alone.stats(corpus.systems["baseline"], corpus.refs)
    assert len(alone._vocabularies) == 1 and not alone.traits.in_process


def test_rouge_vocabulary_stems_each_token_once_into_shared_forms() -> None:
    """With the stemmer, tokens longer than three characters become their Porter stems, tokens sharing a stem (or
    equal to one) share an id, and sentence ends count the stems."""
    compiled = kernel("rouge")
    assert compiled is not None
    vocabulary = compiled.Vocabulary(True, stem=True)
    first, second = vocabulary.encode_all(["Running runs\nrun\n\nran dying", "generalizations news run"])
    porter = PorterStemmer()
    words = ["running", "runs", "run", "ran", "dying"]
    assert (
        vocabulary.words(first)
        == [porter.stem(w) if len(w) > 3 else w for w in words]
        == ["run", "run", "run", "ran", "die"]
    )
    assert first.sentence_ends == (2, 3, 5)
    assert vocabulary.words(second) == ["gener", "news", "run"]
    rows = compiled.ngram_rows(vocabulary, 1, ["runner run"], [[vocabulary.encode("running")]])
    assert list(rows)[3] == 1.0  # "run" matches the stem of "running" once


def test_rouge_rows_refuse_a_missing_hypothesis() -> None:
    compiled = kernel("rouge")
    assert compiled is not None
    vocabulary = compiled.Vocabulary()
    with pytest.raises(TypeError, match="hypothesis is None"):
        compiled.ngram_rows(vocabulary, 1, ["a", None], [vocabulary.encode_all(["a", "b"])])


def test_in_threads_keeps_part_order_and_raises_the_first_error() -> None:
    assert in_threads(lambda k: k * k, 4) == [0, 1, 4, 9]

    def work(k: int) -> int:
        if k >= 2:
            raise ValueError(f"part {k}")
        return k

    with pytest.raises(ValueError, match="part 2"):
        in_threads(work, 4)


def test_rouge_starts_a_new_vocabulary_past_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from metrics.families.rouge import metric as rouge_metric

    corpus = slice_corpus("cnndm")
    metric = create("rougeLsum")
    hyps = corpus.systems["baseline"]
    first = metric.stats(hyps, corpus.refs).rows
    monkeypatch.setattr(rouge_metric, "VOCABULARY_LIMIT", 100)
    before = list(metric._vocabularies)
    again = metric.stats(hyps, corpus.refs).rows
    assert not set(map(id, metric._vocabularies)) & set(map(id, before)) and first.tobytes() == again.tobytes()
    with pytest.raises(ValueError, match="another vocabulary"):
        kernel("rouge").lcs_rows(metric._vocabularies[0], ["a"], [[before[0].encode("a")]])
