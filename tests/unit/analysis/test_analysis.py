"""The analysis core on real data: bucket scores equal the reference implementations on the bucket's lines, the
n-gram and word counts equal brute-force counts (compare-mt's algorithms), the agreement equals mt-thresholds."""

from __future__ import annotations

from collections import Counter, defaultdict

import mt_thresholds
import numpy as np
import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF

from metrics.analysis.agreement import agreements, all_pairs, baseline_agreement, human_agreement, threshold_name
from metrics.analysis.buckets import (
    LENGTH_DIFF_EDGES,
    LENGTH_EDGES,
    BucketKind,
    by_category,
    by_values,
    edge_labels,
    length_edges,
    parse_edges,
)
from metrics.analysis.disagreement import disagreements
from metrics.analysis.documents import document_scores, ranking_flips
from metrics.analysis.ngrams import characteristic_ngrams, corpus_matches, reference_counts
from metrics.analysis.scoring import BucketSettings, bucket_scores, subset
from metrics.analysis.slices import Slice, by_slices
from metrics.analysis.units import WHITESPACE_WORDS, lengths, reference_lengths, token_unit, unit_for
from metrics.analysis.words import frequencies, reference_frequencies, word_accuracy
from metrics.core.language import Language
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.stats.significance import paired_test
from tests.support.corpora import load_corpus, slice_corpus
from tests.support.parity import rel_close
from tests.support.paths import DATA

SETTINGS = BucketSettings(n_bootstrap=200)


@pytest.fixture(scope="module")
def deen():
    corpus = slice_corpus("wmt22-de-en")
    metrics = {"bleu": create("bleu"), "chrf": create("chrf"), "ter": create("ter")}
    return corpus, evaluate(corpus.systems, corpus.refs, metrics)


def _stats(evaluation):
    return {r.name: dict(r.stats) for r in evaluation.systems}


def test_compare_mt_labels():
    # compare-mt's Bucketer.set_bucket_cutoffs on its default length and length-difference cutoffs
    assert edge_labels(LENGTH_EDGES) == ("<10", "[10,20)", "[20,30)", "[30,40)", "[40,50)", "[50,60)", ">=60")
    assert edge_labels(LENGTH_DIFF_EDGES) == (
        "<-20", "[-20,-10)", "[-10,-5)", "-5", "-4", "-3", "-2", "-1", "0", "1", "2", "3", "4", "5", "[6,11)",
        "[11,21)", ">=21",
    )  # fmt: skip
    assert edge_labels((0.25, 0.5), integer=False) == ("<0.25", "[0.25,0.5)", ">=0.5")
    assert parse_edges("5:10,20", "x") == (5.0, 10.0, 20.0)
    for bad in ("10:5", "", "a:b", "1:inf"):
        with pytest.raises(ValueError):
            parse_edges(bad, "x")


def test_bucket_bleu_and_chrf_equal_sacrebleu_on_the_buckets_lines(deen):
    corpus, evaluation = deen
    unit = unit_for(evaluation.metrics["bleu"], corpus.refs)
    found = lengths(unit, corpus.refs, corpus.systems, {r.name: r.stats["bleu"] for r in evaluation.systems})
    bucketing = by_values(BucketKind.REF_LENGTH, "ref-length", "ref", found.refs, LENGTH_EDGES)
    results, notes = bucket_scores(bucketing, evaluation.metrics, _stats(evaluation), settings=SETTINGS)
    assert len(results) == 7 and sum(len(r.segments) for r in results) == 400
    small = [r for r in results if len(r.segments) < SETTINGS.min_test_segments]
    assert small and notes == (
        f"ref: bucket(s) {', '.join(r.label for r in small)} hold fewer than 10 segments; no paired test there",
    )
    assert all(e.p_value is None for r in small for e in r.scores)
    checked = 0
    for result in results:
        lines = list(result.segments)
        refs = [[stream[i] for i in lines] for stream in corpus.refs]
        for name, hyps in corpus.systems.items():
            chosen = [hyps[i] for i in lines]
            assert rel_close(result.score(name, "bleu").score, SacreBLEU().corpus_score(chosen, refs).score)
            assert rel_close(result.score(name, "chrf").score, SacreCHRF().corpus_score(chosen, refs).score)
            checked += 1
    assert checked == 35


def test_bucket_rouge_equals_rouge_score_on_the_buckets_summaries():
    corpus = slice_corpus("cnndm")
    metrics = {"rouge1": create("rouge1"), "rougeL": create("rougeL")}
    evaluation = evaluate(corpus.systems, corpus.refs, metrics)
    unit = token_unit(metrics["rouge1"])
    values = reference_lengths(unit, corpus.refs)
    bucketing = by_values(BucketKind.REF_LENGTH, "ref-length", "ref", values, (40, 60, 80))
    results, _ = bucket_scores(bucketing, metrics, _stats(evaluation), settings=SETTINGS)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    for result in results:
        for name, hyps in corpus.systems.items():
            means = defaultdict(list)
            for i in result.segments:
                scored = scorer.score(corpus.refs[0][i], hyps[i])
                for key in ("rouge1", "rougeL"):
                    means[key].append(scored[key].fmeasure)
            for key in ("rouge1", "rougeL"):
                assert rel_close(result.score(name, key).score, float(np.mean(means[key])))


def test_bucket_intervals_and_tests_are_the_paired_bootstrap_on_the_bucket(deen):
    corpus, evaluation = deen
    values = np.array([len(r.split()) for r in corpus.refs[0]])
    bucketing = by_values(BucketKind.REF_LENGTH, "ref-length", "ref", values, (15, 30))
    stats = _stats(evaluation)
    results, _ = bucket_scores(bucketing, evaluation.metrics, stats, baseline="PROMT", settings=SETTINGS)
    for result in results:
        index = np.array(result.segments)
        for metric_id, metric in evaluation.metrics.items():
            chosen = {name: subset(stats[name][metric_id], index) for name in stats}
            report = paired_test(metric, chosen, "PROMT", "bs", 200, 12345, "float64")
            p_of = {p.system: p.p_value for p in report.pairs}
            diff_of = {p.system: (p.diff, *p.diff_ci) for p in report.pairs}
            for name in stats:
                entry = result.score(name, metric_id)
                assert entry.interval == report.intervals[name]
                assert entry.p_value == p_of.get(name)
                # the difference from the baseline and its interval: paired_test's diff and diff_ci on the bucket
                d = entry.difference
                if name == "PROMT":
                    assert d is None
                else:
                    assert d is not None and all(map(rel_close, (d.score, d.lo, d.hi), diff_of[name]))
                    assert d.lo < d.hi
    assert results[0].score("PROMT", "bleu").p_value is None


def test_per_system_buckets_hold_each_systems_own_segments(deen):
    corpus, evaluation = deen
    names = [r.name for r in evaluation.systems]
    unit = unit_for(evaluation.metrics["bleu"], corpus.refs)
    found = lengths(unit, corpus.refs, corpus.systems, {r.name: r.stats["bleu"] for r in evaluation.systems})
    diffs = np.stack([found.hyps[n] - found.refs for n in names])
    bucketing = by_values(BucketKind.LENGTH_DIFF, "length-diff", "diff", diffs, LENGTH_DIFF_EDGES, names)
    results, notes = bucket_scores(bucketing, evaluation.metrics, _stats(evaluation), settings=SETTINGS)
    assert all(r.system is not None and {e.system for e in r.scores} == {r.system} for r in results)
    assert all(e.p_value is None and e.difference is None for r in results for e in r.scores)
    for name in names:
        mine = [i for r in results if r.system == name for i in r.segments]
        assert sorted(mine) == list(range(400))  # every segment of every system lands in exactly one bucket
    lt22 = next(r for r in results if r.system == "LT22" and r.label == "0")
    hyps = [corpus.systems["LT22"][i] for i in lt22.segments]
    refs = [[s[i] for i in lt22.segments] for s in corpus.refs]
    assert rel_close(lt22.score("LT22", "bleu").score, SacreBLEU().corpus_score(hyps, refs).score)
    assert all(0 <= found.hyps["LT22"][i] - found.refs[i] < 1 for i in lt22.segments)  # "0" is [0,1)
    assert "no segments in bucket(s)" in notes[0]


def test_lengths_from_statistics_equal_the_tokenizers_counts(deen):
    corpus, evaluation = deen
    one_ref = [corpus.refs[0]]
    bleu = create("bleu")
    stats = {name: bleu.stats(hyps, one_ref) for name, hyps in corpus.systems.items()}
    unit = token_unit(bleu)
    from_rows = lengths(unit, one_ref, corpus.systems, stats)
    counted = lengths(unit, one_ref, corpus.systems)
    assert from_rows.derived == () and counted.derived == ("references", *corpus.systems)
    assert np.array_equal(from_rows.refs, counted.refs)
    assert all(np.array_equal(from_rows.hyps[n], counted.hyps[n]) for n in corpus.systems)
    ter = evaluation.metrics["ter"]
    ter_lengths = lengths(
        token_unit(ter), corpus.refs, corpus.systems, {r.name: r.stats["ter"] for r in evaluation.systems}
    )
    assert "references" not in ter_lengths.derived  # TER's rows hold the mean reference length
    assert np.array_equal(ter_lengths.refs, reference_lengths(token_unit(ter), corpus.refs))


def test_cjk_lengths_count_characters():
    corpus = slice_corpus("wmt22-en-zh")
    assert unit_for(create("bleu"), corpus.refs).label == "characters (CJK text)"
    zh = unit_for(create("bleu", {"tokenize": "zh"}), corpus.refs)
    assert zh.label == "BLEU tokens (tok:zh)"
    assert unit_for(create("chrf"), corpus.refs).label == "characters (chrF)"
    text = corpus.refs[0][0]
    assert len(unit_for(create("bleu"), corpus.refs).tokens("我们 ok")) == 3
    assert reference_lengths(zh, [[text]])[0] >= sum(1 for c in text if "\u4e00" <= c <= "\u9fff")


def _compare_mt_matches(ref: list[str], out: list[str], min_n: int, max_n: int) -> Counter:
    """compare-mt's ngram_utils.compare_ngrams for one sentence pair: decrement the reference's counts."""
    ref_counts: Counter = Counter()
    for n in range(min_n, max_n + 1):
        for i in range(len(ref) - n + 1):
            ref_counts[tuple(ref[i : i + n])] += 1
    match: Counter = Counter()
    for n in range(min_n, max_n + 1):
        for i in range(len(out) - n + 1):
            gram = tuple(out[i : i + n])
            if ref_counts[gram] > 0:
                match[gram] += 1
                ref_counts[gram] -= 1
    return match


def test_ngram_matches_equal_a_brute_force_count():
    corpus = slice_corpus("ted")
    a, b = "sys1", "sys2"
    refs = [[r.split()] for r in corpus.refs[0]]
    allowed = reference_counts(refs)
    matches = {s: corpus_matches([h.split() for h in corpus.systems[s]], allowed) for s in (a, b)}
    report = characteristic_ngrams(a, b, matches, top=30)
    totals = {s: Counter() for s in (a, b)}
    segments = defaultdict(set)
    for s in (a, b):
        for i, (ref, hyp) in enumerate(zip(corpus.refs[0], corpus.systems[s], strict=True)):
            found = _compare_mt_matches(ref.split(), hyp.split(), 1, 4)
            totals[s].update(found)
            for gram in found:
                segments[gram].add(i)
    expected = {g: (totals[a][g] + 1) / (totals[a][g] + totals[b][g] + 2) for g in totals[a].keys() | totals[b].keys()}
    for contrast in (*report.a_better, *report.b_better):
        assert (contrast.matches_a, contrast.matches_b) == (totals[a][contrast.tokens], totals[b][contrast.tokens])
        assert contrast.ratio == expected[contrast.tokens]
        assert set(contrast.segments) == segments[contrast.tokens]
    best = max(expected.values())
    assert report.a_better[0].ratio == best and report.b_better[0].ratio == min(expected.values())
    assert len(report.a_better) == 30 and all(c.ratio > 0.5 for c in report.a_better)


def test_ngram_matches_clip_at_the_largest_reference_count():
    hyp = ["the", "the", "the", "cat"]
    refs = [["the", "cat"], ["the", "the", "dog"]]
    found = corpus_matches([hyp], reference_counts([refs]))[0]
    assert found[("the",)] == 2 and found[("cat",)] == 1 and found[("the", "the")] == 1
    with pytest.raises(ValueError, match="both are 'A'"):
        characteristic_ngrams("A", "A", {"A": [found]})


def _compare_mt_word_counts(ref: list[str], out: list[str], bucket) -> tuple[Counter, Counter, Counter]:
    """compare-mt's WordBucketer._calc_trg_buckets_and_matches: k-th occurrence matches k-th occurrence."""
    positions = defaultdict(list)
    for i, w in enumerate(ref):
        positions[w].append(i)
    seen: Counter = Counter()
    ref_total, out_total, matched = Counter(bucket(w) for w in ref), Counter(), Counter()
    for w in out:
        out_total[bucket(w)] += 1
        if seen[w] < len(positions[w]):
            matched[bucket(ref[positions[w][seen[w]]])] += 1
        seen[w] += 1
    return ref_total, out_total, matched


def test_word_accuracy_equals_compare_mts_counts():
    corpus = slice_corpus("ted")
    refs = [[r.split()] for r in corpus.refs[0]]
    counts = frequencies(r.split() for r in corpus.refs[0])
    outputs = {s: [h.split() for h in texts] for s, texts in corpus.systems.items()}
    found = word_accuracy(outputs, refs, counts, settings=SETTINGS)
    edges = (1, 2, 3, 4, 5, 10, 100, 1000)

    def bucket(w: str) -> int:
        return sum(counts.get(w, 0) >= e for e in edges)

    for system, texts in corpus.systems.items():
        ref_total, out_total, matched = Counter(), Counter(), Counter()
        for ref, out in zip(corpus.refs[0], texts, strict=True):
            r, o, m = _compare_mt_word_counts(ref.split(), out.split(), bucket)
            ref_total += r
            out_total += o
            matched += m
        for entry in (w for w in found if w.system == system):
            k = entry.position
            assert (entry.matches, entry.ref_words, entry.out_words) == (matched[k], ref_total[k], out_total[k])
            if matched[k]:
                p, r = matched[k] / out_total[k], matched[k] / ref_total[k]
                assert rel_close(entry.fmeasure, 2 * p * r / (p + r))
                assert entry.interval.lo <= entry.fmeasure <= entry.interval.hi
            else:
                assert entry.fmeasure == 0.0
    assert [w.label for w in found[:9]] == list(edge_labels(edges))


def test_two_references_do_not_zig_zag(deen):
    # WMT22 de-en, two references: each word is bucketed by its count in the reference it is matched against, so
    # the counts are compare-mt's on each reference alone, added up. Pooling both references made odd counts mark
    # the words the translators disagree on: F 0.30, 0.68, 0.56, 0.65 for counts 1–4.
    corpus, _ = deen
    refs = [[stream[i].split() for stream in corpus.refs] for i in range(len(corpus.refs[0]))]
    outputs = {s: [h.split() for h in texts] for s, texts in corpus.systems.items()}
    counts = reference_frequencies(refs)
    assert len(counts) == 2 and counts[0] == frequencies(r.split() for r in corpus.refs[0])
    found = word_accuracy(outputs, refs, counts, settings=SETTINGS)
    edges = (1, 2, 3, 4, 5, 10, 100, 1000)
    for system, texts in corpus.systems.items():
        ref_total, out_total, matched = Counter(), Counter(), Counter()
        for r, stream in enumerate(corpus.refs):

            def bucket(w: str, r: int = r) -> int:
                return sum(counts[r].get(w, 0) >= e for e in edges)

            for ref, out in zip(stream, texts, strict=True):
                for total, part in zip(
                    (ref_total, out_total, matched),
                    _compare_mt_word_counts(ref.split(), out.split(), bucket),
                    strict=True,
                ):
                    total += part
        mine = [w for w in found if w.system == system]
        for entry in mine:
            k = entry.position
            assert (entry.matches, entry.ref_words, entry.out_words) == (matched[k], ref_total[k], out_total[k])
        f = [w.fmeasure for w in mine[1:6]]  # counts 1, 2, 3, 4 and 5–9
        # no alternation: counts 2 and 3 lie near their neighbours' mean (pooled: 0.25 below it at count 2)
        assert np.abs(np.diff(f[:4], 2)).max() < 0.1, f"{system} zig-zags: {f}"
        assert max(f) - min(f) < 0.07 and min(f) > 0.5
    jd = {w.label: w for w in found if w.system == "JDExploreAcademy"}
    assert (jd["1"].matches, jd["1"].ref_words, jd["1"].out_words) == (1544, 3327, 1999)
    assert rel_close(jd["1"].fmeasure, 2 * 1544 / (3327 + 1999))  # F = 2m / (ref + out)
    assert (jd["2"].ref_words, jd["[10,100)"].ref_words) == (1352, 3321)
    # one reference: compare-mt's numbers, whichever way the frequencies are passed
    single = [[r[0]] for r in refs]
    assert word_accuracy(outputs, single, reference_frequencies(single), settings=SETTINGS) == word_accuracy(
        outputs, single, frequencies(r.split() for r in corpus.refs[0]), settings=SETTINGS
    )
    with pytest.raises(ValueError, match="word frequencies"):
        word_accuracy(outputs, refs, [], settings=SETTINGS)


def test_agreement_equals_mt_thresholds(deen):
    _, evaluation = deen
    names = [r.name for r in evaluation.systems]
    scores = {r.name: dict(r.scores) for r in evaluation.systems}
    found = agreements(evaluation.metrics, scores, all_pairs(names))
    assert {g.metric for g in found} == {"bleu", "chrf"}  # TER is not covered
    assert len(found) == 2 * 10
    for g in found:
        delta = scores[g.a][g.metric] - scores[g.b][g.metric]
        assert g.delta == delta
        assert g.human_agreement == mt_thresholds.accuracy(abs(delta), g.metric) / 100
        assert g.human_agreement is not None and 0 < g.human_agreement < 1
    assert rel_close(human_agreement("bleu", 0.82), 0.6080473022154216)  # the WMT22 de-en example
    assert threshold_name("bleu", create("bleu", {"tokenize": "zh"})) == "bleu"
    assert threshold_name("bleu", create("bleu", {"lowercase": True})) is None
    assert threshold_name("chrf++", create("chrf++")) is None
    # WMT scored BLEU on Chinese, Japanese, Korean targets with sacrebleu's tokenizer for the language
    assert threshold_name("bleu", create("bleu"), Language.CHINESE) is None
    assert threshold_name("bleu", create("bleu", {"tokenize": "zh"}), Language.CHINESE) == "bleu"
    assert threshold_name("bleu", create("bleu", {"tokenize": "zh"}), Language.JAPANESE) is None
    assert threshold_name("chrf", create("chrf"), Language.JAPANESE) == "chrf"
    with pytest.raises(ValueError, match="compared with itself"):
        agreements(evaluation.metrics, scores, [("LT22", "LT22")])
    # a copy of a system differs by 0: no preference, so no estimate (the fit's 44 % at 0 would read as a verdict)
    copied = {**scores, "copy": dict(scores["LT22"])}
    (tie,) = [g for g in agreements(evaluation.metrics, copied, [("copy", "LT22")]) if g.metric == "bleu"]
    assert tie.delta == 0 and tie.human_agreement is None
    assert ("copy", "bleu") not in baseline_agreement(evaluation.metrics, copied, "LT22")
    assert ("PROMT", "bleu") in baseline_agreement(evaluation.metrics, copied, "LT22")


def test_documents_score_their_lines_and_flips_are_opposite_orders(deen):
    corpus, evaluation = deen
    docs = [f"doc{i // 40}" for i in range(400)]
    found = document_scores(docs, evaluation.metrics, _stats(evaluation))
    assert [d.document for d in found] == [f"doc{k}" for k in range(10)]
    third = found[3]
    assert third.segments == tuple(range(120, 160))
    hyps = corpus.systems["PROMT"][120:160]
    refs = [s[120:160] for s in corpus.refs]
    assert rel_close(third.scores["PROMT"]["bleu"], SacreBLEU().corpus_score(hyps, refs).score)
    corpus_scores = {r.name: dict(r.scores) for r in evaluation.systems}
    flips = ranking_flips(found, corpus_scores, {"bleu": True, "ter": False})
    for flip in flips:
        doc = next(d for d in found if d.document == flip.document)
        sign = 1 if flip.metric == "bleu" else -1
        for here, there in flip.pairs:
            assert sign * (doc.scores[here][flip.metric] - doc.scores[there][flip.metric]) > 0
            assert sign * (corpus_scores[there][flip.metric] - corpus_scores[here][flip.metric]) > 0
    assert [f.share for f in flips] == sorted((f.share for f in flips), reverse=True)


def test_disagreements_need_opposite_opinions():
    scores = {
        "A": {"bleu": np.array([50.0, 10, 30, 20]), "chrf": np.array([40.0, 60, 30, 20]), "ter": np.array([10.0, 80, 5, 5])},
        "B": {"bleu": np.array([20.0, 40, 30, 20]), "chrf": np.array([60.0, 40, 30, 25]), "ter": np.array([5.0, 20, 5, 5])},
    }  # fmt: skip
    found = disagreements("A", "B", scores, {"bleu": True, "chrf": True, "ter": False})
    assert {d.segment for d in found} == {0, 1}  # segments 2 and 3: no metric prefers A while another prefers B
    first = next(d for d in found if d.segment == 0)
    assert (first.for_a, first.for_b) == ("bleu", "chrf") and first.delta_for_a == 30 and first.delta_for_b == -20
    second = next(d for d in found if d.segment == 1)
    assert second.for_b in {"bleu", "ter"} and second.for_a == "chrf"
    with pytest.raises(ValueError, match="two different systems"):
        disagreements("A", "A", scores, {"bleu": True, "chrf": True})


def test_categories_slices_and_bad_buckets():
    bucketing = by_category("meta:domain", "domain", ["news", "talk", "news"])
    assert bucketing.labels == ("news", "talk") and list(bucketing.segments(0)) == [0, 2]
    (only,) = by_slices([Slice("short ones", "", (0, 2))], 3)
    assert only.labels == ("short ones",) and list(only.segments(0)) == [0, 2]
    with pytest.raises(ValueError, match="the data has 3 segments"):
        by_slices([Slice("x", "", (5,))], 3)
    with pytest.raises(ValueError, match="increasing"):
        Slice("x", "", (2, 0))
    with pytest.raises(ValueError, match="too many buckets"):
        by_category("meta:id", "id", [str(i) for i in range(500)])
    assert WHITESPACE_WORDS.tokens("a  b") == ["a", "b"]


def test_length_buckets_widen_for_paragraphs_and_keep_compare_mts_edges_for_sentences():
    """On WMT22 sentences compare-mt's 10…60 serve; on WMT23 paragraphs (58 words a reference) most segments would
    share the last bucket, so the edges step by 20 up to past the 90th percentile."""
    sentences = slice_corpus("wmt22-de-en")
    words = np.array([len(r.split()) for r in sentences.refs[0]])
    assert np.mean(words >= 60) < 0.25 and length_edges(words) == LENGTH_EDGES
    paragraphs = load_corpus(DATA / "wmt23-he-en-para", ["ref.A.txt", "ref.B.txt"])
    words = np.array([len(r.split()) for r in paragraphs.refs[1]])
    assert np.mean(words >= 60) > 0.25
    edges = length_edges(words)
    assert edges == (20.0, 40.0, 60.0, 80.0, 100.0, 120.0) and edges[-1] > np.quantile(words, 0.9) > 6 * 10
    index = by_values(BucketKind.REF_LENGTH, "ref-length", "ref", words, edges).index
    assert np.bincount(index).max() < 0.5 * len(words)  # no bucket holds most of the corpus


def test_score_edges_of_a_never_positive_metric_mirror_and_keep_zero_apart():
    from metrics.analysis.buckets import score_edges

    mqm = np.array([0.0, 0.0, -1.0, -0.1, -5.0, -6.0, -25.0, -2.0, 0.0, -10.0])
    edges = score_edges(mqm)
    assert edges == (-90.0, -80.0, -70.0, -60.0, -50.0, -40.0, -30.0, -20.0, -10.0, 0.0)
    assert score_edges(np.array([0.0, -1.0, -5.0, -6.0, -2.0]))[-2:] == (-1.0, 0.0)
    assert score_edges(np.array([10.0, 55.0, 90.0])) == (10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0)
