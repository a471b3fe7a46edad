"""External segment scores: both layouts read exactly, every kind of bad input an error naming file and line, and an
external metric resampled, tested, correlated and exported exactly like a computed metric with the same rows."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dashboard import workspace
from metrics.cli.external import parse_meta
from metrics.cli.main import main
from metrics.core.registry import create
from metrics.evaluate import evaluate
from metrics.families.external import External, ExternalExplanation, parse_external
from metrics.families.external.scores import default_name
from metrics.io.inputs import InputError
from metrics.stats.correlation import correlate
from metrics.stats.human import HumanScores
from metrics.stats.significance import all_pairs
from rendering.evidence import explanation_parts
from rendering.lessons import lesson_for
from rendering.teach import NoLesson
from tests.support.corpora import slice_corpus
from tests.support.paths import DATA
from tests.support.ui import app, shown, small_dataset

SYSTEMS = ["alpha", "beta"]
SCORES = {"alpha": [0.25, -1.5, 3.0], "beta": [0.5, 0.75, 1e-3]}


def jsonl(scores=SCORES, base: int = 0) -> bytes:
    rows = [
        {"system": s, "segment": i + base, "score": v} for s, values in scores.items() for i, v in enumerate(values)
    ]
    return "\n".join(json.dumps(r) for r in rows).encode() + b"\n"


def parse(data: bytes, source: str = "ext.jsonl", **declared) -> object:
    return parse_external(data, source, "comet", SYSTEMS, 3, **declared)


# ------------------------------------------------------------------------------------------------------ reading


def test_long_and_wide_layouts_read_the_same_scores():
    expected = {s: tuple(v) for s, v in SCORES.items()}
    assert parse(jsonl()).scores == expected
    assert parse(jsonl()).lines == {"alpha": (1, 2, 3), "beta": (4, 5, 6)}
    long_tsv = "system\tsegment\tscore\tlp\n" + "".join(
        f"{s}\t{i}\t{v!r}\tde-en\n" for s, values in SCORES.items() for i, v in enumerate(values)
    )
    found = parse(long_tsv.encode(), "ext.tsv")
    assert found.scores == expected and found.notes == (
        "ext.tsv: field(s) lp are not used (only system, segment, score)",
    )
    wide = "beta,alpha\n" + "".join(f"{b!r},{a!r}\n" for a, b in zip(SCORES["alpha"], SCORES["beta"], strict=True))
    assert parse(wide.encode(), "ext.csv").scores == expected
    # a wide table with its own segment column, in another order, counted from 1
    rows = "".join(f"{i + 1},{SCORES['alpha'][i]!r},{SCORES['beta'][i]!r}\r\n" for i in (2, 0, 1))
    assert parse(("segment,alpha,beta\r\n" + rows).encode(), "ext.csv", one_based=True).scores == expected
    assert parse(jsonl(base=1), one_based=True).scores == expected


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda b: b.replace(b'"score": 0.75', b'"score": NaN'), r"ext.jsonl, line 5: score is nan"),
        (lambda b: b.replace(b'"score": 0.75', b'"score": Infinity'), r"ext.jsonl, line 5: score is inf"),
        (lambda b: b.replace(b'"score": 0.75', b'"score": "0.75"'), r"ext.jsonl, line 5: score '0.75' is text"),
        (lambda b: b.replace(b'"score": 0.75', b'"score": true'), r"ext.jsonl, line 5: score is true, not a number"),
        (lambda b: b.replace(b'"score": 0.75', b'"score": null'), r"ext.jsonl, line 5: score is null"),
        (lambda b: b.replace(b'"segment": 1, "score": 0.75', b'"segment": 0, "score": 0.75'),
         r"ext.jsonl, line 5: a second score for system 'beta', segment 0 \(first on line 4\)"),
        (lambda b: b.replace(b'"segment": 1, "score": 0.75', b'"segment": 3, "score": 0.75'),
         r"ext.jsonl, line 5: segment 3 is beyond the 3 loaded segments"),
        (lambda b: b.replace(b'"segment": 1, "score": 0.75', b'"segment": 1.0, "score": 0.75'),
         r"ext.jsonl, line 5: segment 1.0 is not a whole number"),
        (lambda b: b.replace(b'"segment": 1, "score": 0.75', b'"segment": -1, "score": 0.75'),
         r"ext.jsonl, line 5: segment -1 is below the first segment; the file is read as 0-based"),
        (lambda b: b.replace(b'"system": "beta", "segment": 1', b'"system": "delta", "segment": 1'),
         r"ext.jsonl, line 5: system 'delta' is not loaded \(loaded: alpha, beta\)"),
        (lambda b: b.replace(b'"system": "beta", "segment": 1, ', b""),
         r"ext.jsonl, line 5: object has no 'system' field"),
        (lambda b: b.replace(b'{"system": "beta", "segment": 1, "score": 0.75}\n', b""),
         r"ext.jsonl: system 'beta' has no score for 1 segment\(s\): 1$"),
        (lambda b: b"\n".join(line for line in b.split(b"\n") if b"beta" not in line),
         r"ext.jsonl: no scores for system\(s\) 'beta'"),
        (lambda b: b.replace(b"\n", b"\n\n", 1), r"ext.jsonl, line 2: empty line"),
        (lambda b: b.replace(b"}", b"", 1), r"ext.jsonl, line 1: not valid JSON"),
        (lambda b: b"", r"ext.jsonl: file is empty"),
    ],
)  # fmt: skip
def test_bad_input_names_file_and_line(edit, message):
    with pytest.raises(InputError, match=message):
        parse(edit(jsonl()))


def test_bad_tables_name_file_and_line():
    with pytest.raises(InputError, match=r"ext.csv, line 3: score 'n/a' is not a number"):
        parse(b"alpha,beta\n1,2\nn/a,3\n4,5\n", "ext.csv")
    with pytest.raises(InputError, match=r"ext.csv, line 1: column\(s\) 'gamma' are neither loaded systems"):
        parse(b"alpha,gamma\n1,2\n", "ext.csv")
    with pytest.raises(InputError, match=r"ext.csv, line 3: row has 1 fields but the header has 2"):
        parse(b"alpha,beta\n1,2\n3\n", "ext.csv")
    with pytest.raises(InputError, match=r"ext.csv: system 'alpha' has no score for 1 segment\(s\): 2"):
        parse(b"alpha,beta\n1,2\n3,4\n", "ext.csv")
    with pytest.raises(InputError, match=r"ext.tsv, line 1: a table of system/score rows needs a 'segment' column"):
        parse(b"system\tscore\nalpha\t1\n", "ext.tsv")
    with pytest.raises(InputError, match=r"ext.txt: external scores are read from"):
        parse(b"1\n2\n3\n", "ext.txt")
    with pytest.raises(InputError, match=r"ext.jsonl: provenance .*'\|'"):
        parse(jsonl(), provenance="COMET | 22")
    with pytest.raises(InputError, match=r"ext.jsonl: external metric name 'co met'"):
        parse_external(jsonl(), "ext.jsonl", "co met", SYSTEMS, 3)


def test_names_and_cli_declarations():
    assert default_name("runs/comet 22.scores.jsonl") == "comet-22.scores"
    assert parse_meta("comet:lower,one-based,provenance=COMET-22, wmt22-comet-da") == (
        "comet",
        parse_meta("comet:one-based,lower,provenance=COMET-22, wmt22-comet-da")[1],
    )
    name, declared = parse_meta("mx:lower,provenance=MetricX-23: xl, 1.0")
    assert (name, declared.higher_is_better, declared.one_based, declared.provenance) == (
        "mx",
        False,
        False,
        "MetricX-23: xl, 1.0",
    )
    with pytest.raises(ValueError, match="unknown field 'upper'"):
        parse_meta("mx:upper")


# ------------------------------------------------------------------------------------- a metric like any other


@pytest.fixture(scope="module")
def wmt():
    corpus = slice_corpus("wmt22-de-en")
    names = list(corpus.systems)[:3]
    return corpus, {n: corpus.systems[n] for n in names}


def _as_external(metric_id: str, systems, refs, **declared) -> tuple[External, dict]:
    """An external metric whose file holds ``metric_id``'s own segment scores (its rows, for a one-column metric)."""
    metric = create(metric_id)
    stats = {n: metric.stats(h, refs) for n, h in systems.items()}
    values = {n: metric.segment_scores(s).tolist() for n, s in stats.items()}
    scores = parse_external(jsonl(values), f"{metric_id}.jsonl", "ext", list(systems), len(refs[0]), **declared)
    return External(scores), stats


def test_resampling_tests_and_correlation_equal_those_of_the_same_rows(wmt):
    corpus, systems = wmt
    external, stats = _as_external("cider", systems, corpus.refs)
    cider = create("cider")
    evaluation = evaluate(systems, corpus.refs, {"ext": external})
    ext_stats = {r.name: r.stats["ext"] for r in evaluation.systems}
    for name in systems:
        np.testing.assert_array_equal(ext_stats[name].rows, stats[name].rows)
        assert evaluation.system(name).scores["ext"] == cider.corpus_score(stats[name])
    ours = all_pairs(external, ext_stats, n_samples=300, seed=7)
    theirs = all_pairs(cider, stats, n_samples=300, seed=7)
    assert ours.intervals == theirs.intervals and ours.groups == theirs.groups
    assert [(p.p_value, p.diff, p.diff_ci) for p in ours.pairs] == [
        (p.p_value, p.diff, p.diff_ci) for p in theirs.pairs
    ]
    rng = np.random.default_rng(3)
    human = HumanScores({n: rng.normal(size=len(corpus.refs[0])) for n in systems}, "h")
    assert correlate(external, ext_stats, human, 200, 5, label="x") == correlate(cider, stats, human, 200, 5, label="x")
    assert evaluation.signatures["ext"].startswith("provenance:unstated|file:cider.jsonl|sha256:")


def test_explanation_view_and_declared_absence_of_a_lesson(wmt):
    corpus, systems = wmt
    external, _ = _as_external("meteor", systems, corpus.refs, provenance="nltk METEOR, here")
    stats = {n: external.system_stats(n, h, corpus.refs) for n, h in systems.items()}
    name = list(systems)[1]
    refs = [stream[7] for stream in corpus.refs]
    ex = external.explain_segment(name, 7, systems[name][7], refs)
    assert isinstance(ex, ExternalExplanation)
    assert ex.row == tuple(stats[name].rows[7]) and ex.score == external.segment_scores(stats[name])[7]
    assert (ex.system, ex.segment, ex.line, ex.provenance) == (name, 7, 400 + 8, "nltk METEOR, here")
    parts = explanation_parts(ex, systems[name][7], refs)
    assert "meteor.jsonl, line 408" in parts[0].payload and "nltk METEOR, here" in parts[1].payload
    assert isinstance(lesson_for(ExternalExplanation), NoLesson)
    with pytest.raises(ValueError, match="belong to named systems"):
        external.stats(systems[name], corpus.refs)
    with pytest.raises(ValueError, match="has no scores for system 'other'"):
        external.system_stats("other", systems[name], corpus.refs)


def test_cli_puts_the_external_metric_beside_the_others(tmp_path, capsys, wmt):
    corpus, systems = wmt
    folder = DATA / "wmt22-de-en"
    names = list(systems)
    values = {n: [float(len(h)) for h in systems[n]] for n in names}  # lower is better: output length
    path = tmp_path / "len.jsonl"
    path.write_bytes(jsonl({n: values[n] for n in names}, base=1))
    argv = [
        "score",
        "--refs",
        str(folder / "ref.A.txt"),
        "--systems",
        *(str(folder / "sys" / f"{n}.txt") for n in names),
    ]
    argv += [
        "--metrics",
        "bleu",
        "--external",
        f"chars={path}",
        "--external-meta",
        "chars:lower,one-based,provenance=len(), py",
    ]
    assert main([*argv, "--format", "json", "--segments", "--paired-bs", "--all-pairs"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["metrics"]["chars"] == {
        "name": "chars",
        "signature": document["signatures"]["chars"],
        "segment_signature": document["signatures"]["chars"].removeprefix("bs:1000|seed:12345|"),
        "higher_is_better": False,
    }
    assert document["signatures"]["chars"].startswith("bs:1000|seed:12345|provenance:len(), py|file:len.jsonl|")
    for system in document["systems"]:
        assert system["scores"]["chars"] == pytest.approx(np.mean(values[system["name"]]), rel=1e-12)
        assert system["segments"]["chars"] == values[system["name"]]
    best = min(names, key=lambda n: np.mean(values[n]))
    assert document["groups"]["chars"][0][0] == best
    assert {p["metric"] for p in document["pairs"]} == {"bleu", "chars"}
    assert main([*argv, "--format", "csv"]) == 0
    assert "chars,chars,false," in capsys.readouterr().out
    path.write_bytes(path.read_bytes().replace(b'"segment": 5,', b'"segment": "five",', 1))
    assert main(argv) == 2
    assert f"{path}, line 5: segment 'five' is not a whole number" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------------- the app


def test_external_scores_follow_renames_removals_and_the_workspace():
    data = small_dataset()
    scores = parse_external(
        jsonl({n: [1.0, 2.0, 3.0, float(k)] for k, n in enumerate(data.systems)}),
        "ext.jsonl", "judge", list(data.systems), 4, provenance="an LLM judge",
    )  # fmt: skip
    data = data.with_external(scores)
    renamed = data.renamed("beta", "BETA")
    assert renamed.external["judge"].scores["BETA"] == (1.0, 2.0, 3.0, 1.0)
    assert "beta" not in renamed.external["judge"].scores
    assert "gamma" not in renamed.without("gamma").external["judge"].scores
    loaded, settings = workspace.loads(workspace.dumps(data, workspace.Settings(("bleu", "judge"))))
    assert loaded.external == data.external and settings.metrics == ("bleu", "judge")
    assert loaded.fingerprint() == data.fingerprint()
    assert data.without_external("judge").fingerprint() != data.fingerprint()


def test_data_page_adds_an_external_metric_that_every_page_shows():
    data = small_dataset()
    at = app("pages/data.py", data, ["bleu"]).run()
    bad = jsonl({n: [1.0, 2.0, 3.0, 4.0] for n in data.systems}).replace(b'"score": 3.0', b'"score": "x"', 1)
    at.file_uploader(key="up_external").set_value(("judge.jsonl", bad, "application/json")).run()
    assert any(shown(e.value).startswith("judge.jsonl, line 3: score 'x' is text") for e in at.error)
    assert not any(b.key == "load_external" for b in at.button)
    good = jsonl({n: [1.0, 2.0, 3.0, float(k)] for k, n in enumerate(data.systems)})
    at.file_uploader(key="up_external").set_value(("judge.jsonl", good, "application/json")).run()
    at.text_input(key="external_provenance").set_value("an LLM judge").run()
    at.radio(key="external_direction").set_value("lower").run()
    at.button(key="load_external").click().run()
    assert not at.exception, at.exception
    loaded = at.session_state["dataset"]
    assert loaded.external["judge"].provenance == "an LLM judge" and not loaded.external["judge"].higher_is_better
    assert at.session_state["metric_ids"] == ["bleu", "judge"]
    overview = app("app.py", loaded, ["bleu", "judge"]).run()
    assert not overview.exception, overview.exception
    table = next(d.value for d in overview.dataframe if any("judge" in str(c) for c in d.value.columns))
    assert table is not None
    segment = app("pages/segment.py", loaded, ["bleu", "judge"], seg_metric="judge").run()
    assert not segment.exception, segment.exception
    assert any("judge.jsonl, line 1" in body for body in (e.proto.body for e in segment.get("html")))


def test_explorer_columns_and_analysis_buckets_hold_the_files_scores():
    data = small_dataset()
    values = {n: [0.5 * k, 2.0, -1.0, 3.0 + k] for k, n in enumerate(data.systems)}
    data = data.with_external(parse_external(jsonl(values), "judge.jsonl", "judge", list(data.systems), 4))
    at = app("app.py", data, ["bleu", "judge"]).run()
    at.switch_page("pages/explorer.py").run()
    assert not at.exception, at.exception
    frame = at.dataframe[0].value
    for name in data.systems:
        assert list(frame[f"{name} · judge"]) == values[name]
    at = app("pages/analysis.py", data, ["bleu", "judge"], an_section="Buckets").run()
    assert not at.exception, at.exception
    buckets = at.dataframe[0].value
    rows = buckets[buckets["metric"] == "judge"].set_index("system")
    assert set(rows["segments"]) == {4}  # every reference is shorter than 10 words: one bucket
    for name in data.systems:
        assert rows.loc[name, "score"] == pytest.approx(np.mean(values[name]), rel=1e-12)
