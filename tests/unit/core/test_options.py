"""Option metadata lives once, on the config fields: every registered metric's options carry it, and the configs
validate against the same bounds and requirements that the front ends offer."""

from __future__ import annotations

import dataclasses
import math

import pytest

import metrics.core.config as config_module
from metrics.core.config import Option, Resource, build_config, config_options
from metrics.core.registry import SPECS, create, metric_class
from metrics.families.bleu.metric import BLEUConfig
from metrics.families.chrf.metric import CHRFConfig
from metrics.families.cider.metric import CiderDConfig
from metrics.families.rouge155.config import RougeSConfig, RougeWConfig

CONFIGS = sorted({metric_class(m).Config for m in SPECS}, key=lambda c: c.__name__)


@pytest.mark.parametrize("cls", CONFIGS, ids=lambda c: c.__name__)
def test_every_config_field_is_an_option_with_sound_metadata(cls: type) -> None:
    options = config_options(cls)
    assert [o.name for o in options] == [f.name for f in dataclasses.fields(cls)]
    for opt in options:
        assert opt.label and opt.help, opt.name
        # choice labels name choices; an option naming a server resource labels its default (what empty stands for)
        # and, for a model, what the metric ships (BERTScore's bundled MiniLM, offered to every browser)
        if opt.info.resource is None:
            assert set(opt.info.choice_labels) <= set(opt.choices), opt.name
        else:
            assert opt.default in opt.info.choice_labels or opt.info.resource is Resource.DEVICE, opt.name
        assert set(opt.info.needs) <= set(opt.choices), opt.name
        if opt.kind in ("int", "float") and opt.default is not None:
            low, high = opt.info.low, opt.info.high
            assert low is None or opt.default > low or (opt.default == low and not opt.info.low_open), opt.name
            assert high is None or opt.default <= high, opt.name
            assert opt.info.step is not None, opt.name
        if opt.kind == "choice":
            assert opt.default in opt.choices
    cls()  # the defaults pass their own checks


def _option(cls: type, name: str) -> Option:
    return next(o for o in config_options(cls) if o.name == name)


def test_kinds_choices_and_bounds_come_from_hints_and_metadata() -> None:
    tokenize = _option(BLEUConfig, "tokenize")
    assert tokenize.kind == "choice" and tokenize.choices[:3] == ("13a", "none", "intl")
    assert tokenize.choice_label("13a") == "13a (WMT default)" and tokenize.choice_label("zh").startswith("zh")
    smooth_value = _option(BLEUConfig, "smooth_value")
    assert smooth_value.kind == "float" and smooth_value.optional and smooth_value.default is None
    assert _option(BLEUConfig, "max_ngram_order").bounds() == "[1, 9]"
    assert _option(CiderDConfig, "sigma").bounds() == "> 0"
    assert _option(CHRFConfig, "beta").bounds() == "≥ 0"
    skip = _option(RougeSConfig, "skip_distance")
    assert (skip.kind, skip.optional, skip.info.low) == ("int", True, -1)
    assert _option(RougeWConfig, "weight").info.low_open


@pytest.mark.parametrize(
    ("cls", "options", "message"),
    [
        (BLEUConfig, {"max_ngram_order": 10}, r"'max_ngram_order': 10 is outside \[1, 9\]"),
        (BLEUConfig, {"smooth_value": -0.5}, "smooth_value"),
        (BLEUConfig, {"tokenize": "moses"}, "not one of 13a, none"),
        (CHRFConfig, {"beta": math.inf}, "'beta': inf is not a finite number"),
        (CHRFConfig, {"beta": math.nan}, "not a finite number"),
        (CHRFConfig, {"lowercase": 1}, "not a boolean"),
        (CHRFConfig, {"char_order": 2.5}, "expected an integer"),
        (CiderDConfig, {"sigma": 0.0}, r"outside \(0\.0, inf\]"),
        (RougeWConfig, {"weight": 0}, "weight"),
        (RougeSConfig, {"skip_distance": -2}, r"outside \[-1, inf\]"),
    ],
)
def test_configs_refuse_what_their_metadata_excludes(cls: type, options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cls(**options)


def test_bounds_admit_what_the_metrics_accepted_before() -> None:
    assert CHRFConfig(beta=25.0).beta == 25.0  # the Teach page's old β ≤ 10 was a widget limit only
    assert RougeWConfig(weight=0.5).weight == 0.5  # and so was its w ≥ 1
    assert CiderDConfig(sigma=0.05).sigma == 0.05
    assert RougeSConfig(skip_distance=-1).skip_distance is None  # perl's spelling of unlimited
    assert build_config(RougeSConfig, {"skip_distance": "120"}).skip_distance == 120


def test_a_choice_whose_requirement_is_missing_is_refused_with_the_install_hint(monkeypatch) -> None:
    monkeypatch.setattr(config_module, "_module_found", lambda module: module != "MeCab")
    tokenize = _option(BLEUConfig, "tokenize")
    assert "ja-mecab" not in tokenize.offered() and "13a" in tokenize.offered()
    assert tokenize.unavailable() == ("ja-mecab needs MeCab (pip install 'scorelens[ja]')",)
    with pytest.raises(ValueError, match=r"ja-mecab needs MeCab \(pip install 'scorelens\[ja\]'\)"):
        create("bleu", {"tokenize": "ja-mecab"})
    monkeypatch.setattr(config_module, "_module_found", lambda module: module != "ipadic")
    assert "ja-mecab" not in tokenize.offered()  # the dictionary is needed too
    monkeypatch.setattr(config_module, "_module_found", lambda module: True)
    assert tokenize.offered() == tokenize.choices and tokenize.unavailable() == ()
