"""Metric ids as the command line and the app name them, and how to build each one.

Options are namespaced by family: ``--set bleu.tokenize=intl`` or ``--set rouge.stemmer=true`` reach every metric
of that family. Modules are imported on first use, so asking for BLEU never loads WordNet.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from metrics.core.base import Metric


@dataclass(frozen=True)
class MetricSpec:
    id: str
    family: str
    target: str  # "module:Class"
    preset: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""


SPECS: dict[str, MetricSpec] = {
    spec.id: spec
    for spec in (
        MetricSpec("bleu", "bleu", "metrics.bleu.metric:BLEU", label="BLEU (sacrebleu)"),
        MetricSpec("bleu-nltk", "bleu-nltk", "metrics.bleu.variants:NltkBLEU", label="BLEU (nltk corpus_bleu)"),
        MetricSpec("bleu-google", "bleu-google", "metrics.bleu.variants:GoogleBLEU", label="BLEU (Google/TensorFlow)"),
        MetricSpec("chrf", "chrf", "metrics.chrf.metric:CHRF", label="chrF (sacrebleu)"),
        MetricSpec("chrf++", "chrf", "metrics.chrf.metric:CHRF", {"word_order": 2}, label="chrF++ (sacrebleu)"),
        MetricSpec("rouge1", "rouge", "metrics.rouge.metric:RougeN", {"n": 1}, label="ROUGE-1 (rouge-score)"),
        MetricSpec("rouge2", "rouge", "metrics.rouge.metric:RougeN", {"n": 2}, label="ROUGE-2 (rouge-score)"),
        MetricSpec("rougeL", "rouge", "metrics.rouge.metric:RougeL", label="ROUGE-L (rouge-score)"),
        MetricSpec("rougeLsum", "rouge", "metrics.rouge.metric:RougeLsum", label="ROUGE-Lsum (rouge-score)"),
        MetricSpec("rougeW", "rouge", "metrics.rouge155.metric:RougeW", label="ROUGE-W-1.2 (ROUGE-1.5.5)"),
        MetricSpec("rougeS", "rouge", "metrics.rouge155.metric:RougeS", label="ROUGE-S (ROUGE-1.5.5)"),
        MetricSpec("rougeSU", "rouge", "metrics.rouge155.metric:RougeSU", label="ROUGE-SU (ROUGE-1.5.5)"),
        MetricSpec("cider", "cider", "metrics.cider.metric:CiderD", label="CIDEr-D (pycocoevalcap)"),
        MetricSpec("meteor", "meteor", "metrics.meteor.metric:Meteor", label="METEOR (nltk)"),
        MetricSpec("ter", "ter", "metrics.ter.metric:TER", label="TER (sacrebleu)"),
        MetricSpec("characTER", "characTER", "metrics.character.metric:CharacTER", label="CharacTER"),
        MetricSpec("eed", "eed", "metrics.eed.metric:EED", label="EED"),
        MetricSpec("wer", "wer", "metrics.wer.metric:WER", label="WER (jiwer)"),
        MetricSpec("cer", "cer", "metrics.wer.metric:CER", label="CER (jiwer)"),
    )
}

DEFAULT_MT = ("bleu", "chrf", "ter")


def metric_class(metric_id: str) -> type[Metric[Any]]:
    spec = spec_for(metric_id)
    module_name, _, class_name = spec.target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)


def spec_for(metric_id: str) -> MetricSpec:
    try:
        return SPECS[metric_id]
    except KeyError:
        raise ValueError(f"unknown metric {metric_id!r}; valid metrics: {', '.join(SPECS)}") from None


def create(metric_id: str, options: Mapping[str, Any] | None = None) -> Metric[Any]:
    """Build metric ``metric_id`` with its preset plus ``options`` (plain names, not namespaced)."""
    spec = spec_for(metric_id)
    return metric_class(metric_id).from_options({**spec.preset, **(options or {})})


def parse_set_options(pairs: Iterable[str]) -> dict[str, dict[str, str]]:
    """``["bleu.tokenize=intl", …]`` → ``{"bleu": {"tokenize": "intl"}}``, refusing malformed or unknown keys."""
    families = {spec.family for spec in SPECS.values()}
    result: dict[str, dict[str, str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        family, dot, name = key.strip().partition(".")
        if not sep or not dot or not name:
            raise ValueError(f"--set {pair!r}: expected FAMILY.OPTION=VALUE, e.g. bleu.tokenize=intl")
        if family not in families:
            raise ValueError(f"--set {pair!r}: unknown metric family {family!r}; valid: {', '.join(sorted(families))}")
        result.setdefault(family, {})[name] = value.strip()
    return result


def create_many(metric_ids: Iterable[str], family_options: Mapping[str, Mapping[str, Any]]) -> dict[str, Metric[Any]]:
    """Build several metrics, each with the options of its family that its config knows.

    A family's options reach all its chosen metrics (``rouge.stemmer`` reaches ROUGE-1 and ROUGE-W alike); an option
    only some of them take (``rouge.weight``, ROUGE-W's) goes to those. An option none of them takes, or options for a
    family with no chosen metric, are refused.
    """
    ids = list(metric_ids)
    by_family: dict[str, list[str]] = {}
    for metric_id in ids:
        by_family.setdefault(spec_for(metric_id).family, []).append(metric_id)
    unused = sorted(set(family_options) - set(by_family))
    if unused:
        raise ValueError(f"options given for {', '.join(unused)} but no such metric was chosen")
    metrics: dict[str, Metric[Any]] = {}
    for family, members in by_family.items():
        options = dict(family_options.get(family, {}))
        accepted = {m: {f.name for f in dataclasses.fields(metric_class(m).Config)} for m in members}
        unknown = sorted(set(options) - set().union(*accepted.values()))
        if unknown:
            valid = sorted(set().union(*accepted.values()) - {k for m in members for k in spec_for(m).preset})
            raise ValueError(f"unknown option(s) {', '.join(unknown)} for {family}; valid options: {', '.join(valid)}")
        for metric_id in members:
            mine = {k: v for k, v in options.items() if k in accepted[metric_id]}
            metrics[metric_id] = create(metric_id, mine)
    return {metric_id: metrics[metric_id] for metric_id in ids}
