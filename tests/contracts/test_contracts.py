"""The contract every registered metric keeps: its explanation of a real segment is an instance of its declared
``explanation_type`` (an :class:`~metrics.core.explanation.Explanation` subclass) that adds up to the segment's
statistics row and score, a view is registered for that type and draws it, and a lesson or an explicit "no lesson"
declaration is registered for it. A metric added without them fails here. Every family's declaration
(:mod:`metrics.core.family`) gives every field, consistent with the code it names."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from dataclasses import MISSING, dataclass, fields
from pathlib import Path

import mt_thresholds
import pytest

from metrics.analysis.agreement import threshold_name
from metrics.analysis.units import token_unit
from metrics.core.base import Metric
from metrics.core.config import Option, build_config, config_options
from metrics.core.explanation import Explanation
from metrics.core.extras import NEURAL
from metrics.core.family import Extra, Family, Language, MetricDeclaration, Task, TaskUse, load
from metrics.core.registry import SPECS, create, families, family_of, metric_class
from metrics.core.tokens import TokenUnit
from rendering.evidence import explanation_parts, has_view, order_labels
from rendering.lessons import build_lesson
from rendering.teach import NoLesson, lesson_for
from tests.support.corpora import slice_corpus
from tests.support.paths import DATA, ROOT
from tests.support.text_only import skip_if_reads_source

SEGMENTS = 6  # the statistics cover the first segments of each slice (CIDEr-D's document frequencies need several)
CASES = [("wmt22-de-en", 3), ("cnndm", 2)]  # two references; several sentences per text


def _ids() -> list:
    """Every registered id; those needing the neural extra run under ``-m neural``."""
    return [pytest.param(m, marks=pytest.mark.neural) if NEURAL in SPECS[m].requires else m for m in SPECS]


@pytest.fixture(scope="module")
def slices() -> dict[str, tuple[list[str], list[list[str]]]]:
    found = {}
    for name, _ in CASES:
        corpus = slice_corpus(name)
        hyps = next(iter(corpus.systems.values()))[:SEGMENTS]
        found[name] = hyps, [stream[:SEGMENTS] for stream in corpus.refs]
    return found


@pytest.mark.parametrize("metric_id", _ids())
@pytest.mark.parametrize(("corpus", "index"), CASES)
def test_explanation_adds_up_to_the_segment_statistics(metric_id, corpus, index, slices):
    spec = SPECS[metric_id]
    if not spec.available():
        pytest.skip(f"{metric_id} needs {', '.join(r.module for r in spec.requires)}")
    explanation_type = spec.cls.explanation_type
    assert issubclass(explanation_type, Explanation) and explanation_type is not Explanation
    skip_if_reads_source(metric_id)
    hyps, refs = slices[corpus]
    metric = create(metric_id)
    stats = metric.stats(hyps, refs)
    segment_refs = [stream[index] for stream in refs]
    explanation = metric.explain(hyps[index], segment_refs)
    assert isinstance(explanation, explanation_type)
    assert explanation.row == tuple(stats.rows[index])
    assert explanation.score == metric.segment_scores(stats)[index]
    assert explanation.best_ref is None or 0 <= explanation.best_ref < len(segment_refs)
    assert all(isinstance(note, str) and note for note in explanation.notes)


@pytest.mark.parametrize("metric_id", _ids())
def test_a_view_and_a_lesson_or_its_absence_are_registered(metric_id, slices):
    spec = SPECS[metric_id]
    if not spec.available():
        pytest.skip(f"{metric_id} needs {', '.join(r.module for r in spec.requires)}")
    explanation_type = spec.cls.explanation_type
    assert has_view(explanation_type), f"{metric_id}: no evidence view for {explanation_type.__name__}"
    found = lesson_for(explanation_type)
    assert found is not None, f"{metric_id}: neither a lesson nor a no-lesson declaration for {explanation_type}"
    skip_if_reads_source(metric_id)

    hyps, refs = slices["wmt22-de-en"]
    metric = create(metric_id)
    metric.stats(hyps, refs)  # binds CIDEr-D's corpus
    segment_refs = [stream[0] for stream in refs]
    explanation = metric.explain(hyps[0], segment_refs)
    for order in range(1, len(order_labels(explanation)) + 1):
        for reference in (None, *range(len(segment_refs))):
            parts = explanation_parts(explanation, hyps[0], segment_refs, order=order, reference=reference)
            assert parts and all(part.payload is not None for part in parts)
    if isinstance(found, NoLesson):
        assert found.reason and "\n" not in found.reason
    else:
        lesson = build_lesson(metric, hyps[0], segment_refs)
        assert lesson.score == explanation.score and lesson.steps


def test_an_explanation_type_without_registrations_is_found_out():
    @dataclass(frozen=True, kw_only=True)
    class Unregistered(Explanation):
        pass

    assert not has_view(Unregistered) and lesson_for(Unregistered) is None
    with pytest.raises(LookupError, match="no evidence view"):
        explanation_parts(Unregistered(score=0.0, row=(0.0,)), "a", ["a"])


class _Stop(Exception):
    pass


@pytest.mark.parametrize("metric_id", list(SPECS))
def test_statistics_report_progress_by_segments_and_stop_when_told(metric_id, slices):
    """A front end hears how many segments are done (never fewer than before, all of them at the end), the rows are
    those computed without it, and an exception raised from it (the app's Stop) ends the work there."""
    spec = SPECS[metric_id]
    if not spec.available():
        pytest.skip(f"{metric_id} needs {', '.join(r.module for r in spec.requires)}")
    skip_if_reads_source(metric_id)
    hyps, refs = slices["wmt22-de-en"]
    heard: list[int] = []
    stats = create(metric_id).stats(hyps, refs, heard.append)
    assert heard and heard[-1] == len(hyps) and heard == sorted(heard) and all(0 <= n <= len(hyps) for n in heard)
    assert (stats.rows == create(metric_id).stats(hyps, refs).rows).all()

    def stop(done: int) -> None:
        raise _Stop(done)

    with pytest.raises(_Stop):
        create(metric_id).stats(hyps, refs, stop)


# --- Every family declares every field, consistently with the code it names (metrics/core/family.py) ---

FAMILY_DIR = ROOT / "metrics" / "families"
KERNEL_DIR = ROOT / "metrics" / "kernels"
_DECLARED = [(family, m) for family in families() for m in family.metrics]


def _option(metric_id: str, name: str) -> Option:
    found = [o for o in config_options(metric_class(metric_id).Config) if o.name == name]
    assert found, f"{metric_id} has no option {name!r}"
    return found[0]


def _calls(path: Path, name: str) -> list[ast.Call]:
    """Calls of a plain name ``name(...)`` in the module at ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name]


def test_every_family_folder_declares_one_family_and_nothing_else_does():
    folders = sorted(p.parent.name for p in FAMILY_DIR.glob("*/__init__.py"))
    assert sorted(f.name for f in families()) == folders
    for folder in folders:
        tree = ast.parse((FAMILY_DIR / folder / "__init__.py").read_text(encoding="utf-8"))
        targets = [t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)]
        assert targets.count("FAMILY") == 1, folder
    declaring = {
        p.relative_to(ROOT).as_posix() for root in ("metrics", "rendering") for p in (ROOT / root).rglob("*.py")
    }
    declaring = {p for p in declaring if _calls(ROOT / p, "Family") or _calls(ROOT / p, "register")}
    assert declaring == {f"metrics/families/{folder}/__init__.py" for folder in folders}


def test_every_field_of_a_declaration_must_be_given():
    """A family states what it does not use (``{}``, ``()``, ``None``): no field has a default to forget."""
    assert all(f.default is MISSING and f.default_factory is MISSING for f in fields(Family))
    unit = next(f for f in fields(MetricDeclaration) if f.name == "token_unit")
    assert unit.default is MISSING


def test_a_family_naming_a_metric_it_does_not_declare_is_refused():
    with pytest.raises(ValueError, match="names metrics it does not declare: rogue1"):
        dataclasses.replace(family_of("rouge1"), tasks=(TaskUse(Task.SUMMARIZATION, ("rogue1",), order=1),))


def test_the_registry_lists_the_declared_ids_in_rank_order():
    assert list(SPECS) == [m.id for _, m in _DECLARED]
    ranks = [f.rank for f in families()]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert all(f.title and "\n" not in f.title for f in families())


@pytest.mark.parametrize(("family", "declared"), _DECLARED, ids=lambda v: getattr(v, "id", ""))
def test_a_declared_metric_resolves_with_its_preset_and_namespace(family: Family, declared: MetricDeclaration):
    assert declared.target.startswith(f"metrics.families.{family.name}.")
    cls = metric_class(declared.id)
    assert issubclass(cls, Metric) and f"{cls.__module__}:{cls.__qualname__}" == declared.target
    assert set(declared.preset) <= {f.name for f in fields(cls.Config)}
    assert build_config(cls.Config, declared.preset) is not None
    assert declared.namespace and declared.label and family_of(declared.id) is family
    assert SPECS[declared.id].family == declared.namespace


@pytest.mark.parametrize(("family", "declared"), _DECLARED, ids=lambda v: getattr(v, "id", ""))
def test_a_metric_with_its_own_tokenizer_declares_the_unit_its_lengths_count(
    family: Family, declared: MetricDeclaration
):
    """A class that tokenizes (``tokenize`` or ``symbols``) declares a unit, else its lengths would be counted in
    whitespace words it does not score; a declared unit reads only columns the metric's rows have."""
    cls = metric_class(declared.id)
    if hasattr(cls, "tokenize") or hasattr(cls, "symbols"):
        assert declared.token_unit is not None, f"{declared.id} tokenizes but declares no token unit"
    same_class = {m.token_unit for _, m in _DECLARED if m.target == declared.target}
    assert same_class == {declared.token_unit}, f"{declared.target} is declared with several units"
    if declared.token_unit is None:
        return
    assert declared.token_unit.startswith(f"metrics.families.{family.name}.")
    metric = create(declared.id)
    unit = token_unit(metric)
    assert isinstance(unit, TokenUnit) and unit.label and unit.tokens("a b")
    assert {unit.ref_column, unit.hyp_column} - {None} <= set(metric.columns)


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_language_options_name_real_options_with_valid_values(family: Family):
    ids = {m.id for m in family.metrics}
    for language, options in family.language_options.items():
        assert isinstance(language, Language) and options
        for o in options:
            assert o.metric in ids and o.why and "\n" not in o.why
            option = _option(o.metric, o.name)
            for value in (o.value, o.instead):
                if value is not None and option.choices:
                    assert value in option.choices, f"{o.metric}.{o.name}={value!r}"
                elif value is not None:
                    build_config(metric_class(o.metric).Config, {o.name: value})
            needs = o.value in option.info.needs
            assert needs == (o.instead is not None), f"{o.metric}.{o.name}: a fallback exactly when the value needs one"
            assert o.instead is None or o.instead not in option.info.needs


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_what_a_family_reads_names_a_real_function_and_option(family: Family):
    """``text.drops`` returns the letters its default tokenizer throws away (ASCII keeps all); ``keeps_all`` is an
    option value under which the family's metrics keep every letter."""
    text = family.text
    if text.drops is not None:
        drops = load(text.drops)
        assert drops("plain ascii 123") == () and "".join(t.text for t in drops("Straße 中文")) == "ß中文"
    if text.keeps_all is not None:
        name, value = text.keeps_all
        assert text.drops is not None, "an option keeping every letter only means something where some are dropped"
        for declared in family.metrics:
            option = _option(declared.id, name)
            assert value in option.choices and build_config(metric_class(declared.id).Config, {name: value})
    assert "\n" not in text.english_only and not text.english_only.startswith("its ")


def test_every_task_has_defaults_in_one_declared_order():
    for task in Task:
        uses = [(f, u) for f in families() for u in f.tasks if u.task is task]
        assert uses, f"no family is a default for {task.value}"
        orders = [u.order for _, u in uses]
        assert len(set(orders)) == len(orders), f"{task.value}: two families share an order"
        assert all(set(u.metrics) <= {m.id for m in f.metrics} and u.metrics for f, u in uses)


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_agreement_fits_exist_for_the_declared_configuration(family: Family):
    for metric_id, fit in family.agreement_fits.items():
        assert metric_id in {m.id for m in family.metrics}
        assert fit.name in mt_thresholds.METRICS
        assert set(fit.free) <= {o.name for o in config_options(metric_class(metric_id).Config)}
        assert threshold_name(metric_id, create(metric_id)) == fit.name


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_kernels_exist_and_have_bit_identity_cases(family: Family):
    """Each kernel a family uses is a .pyx (setup.py builds them all); a family calling ``kernel("x")`` declares
    it; a family with kernels names the inputs tests/parity/test_kernels.py compares with the pure path."""
    assert all((KERNEL_DIR / f"_{name}.pyx").is_file() for name in family.kernels), family.kernels
    called = {
        call.args[0].value
        for path in (FAMILY_DIR / family.name).rglob("*.py")
        for call in _calls(path, "kernel")
        if call.args and isinstance(call.args[0], ast.Constant)
    }
    assert called <= set(family.kernels)
    assert bool(family.kernels) == bool(family.kernel_cases)
    for case in family.kernel_cases:
        assert case.metric in {m.id for m in family.metrics}
        assert set(case.options) <= {f.name for f in fields(metric_class(case.metric).Config)}
        assert case.corpora and all((DATA / name).is_dir() for name in case.corpora)


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_extras_are_those_the_family_needs(family: Family):
    """The extras declared are those its metrics' requirements and their options' choices name."""
    requirements = [r for m in family.metrics for r in m.requires]
    requirements += [
        r for m in family.metrics for o in config_options(metric_class(m.id).Config) for r in o.info.needs.values()
    ]
    named = {extra for r in requirements for extra in re.findall(r"scorelens\[(\w+)\]", r.install)}
    assert {e.value for e in family.extras} == named
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    optional = pyproject.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    assert all(re.search(rf"^{e.value} = \[", optional, re.MULTILINE) for e in Extra)


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_declared_absent_lessons_name_the_familys_explanation_types(family: Family):
    for path, reason in family.no_lesson.items():
        assert path.startswith(f"metrics.families.{family.name}.")
        explanation_type = load(path)
        assert issubclass(explanation_type, Explanation) and reason and "\n" not in reason
        assert isinstance(lesson_for(explanation_type), NoLesson)


def test_the_consumers_of_the_declarations_name_no_family():
    """Language, defaults, length units, agreement and the registry read the declarations: no family import, no
    metric id or family name as a literal."""
    names = {f.name for f in families()} | set(SPECS)
    consumers = (
        "core/language",
        "core/defaults",
        "core/caveats",
        "core/registry",
        "analysis/units",
        "analysis/agreement",
    )
    for module in consumers:
        tree = ast.parse((ROOT / "metrics" / f"{module}.py").read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in imported if m.startswith("metrics.families.")}, module
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not literals & names, f"{module} names {literals & names}"


def test_discovery_imports_no_metric_module_and_leaves_the_environment_alone():
    script = (
        "import os, sys\n"
        "before = dict(os.environ)\n"
        "from metrics.core.registry import SPECS, families\n"
        "assert list(SPECS) and families()\n"
        "assert dict(os.environ) == before, 'discovery changed the environment'\n"
        "print(sorted(m for m in sys.modules if m.startswith('metrics.families.') and m.count('.') > 2))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    assert run.stdout.strip() == "[]"
