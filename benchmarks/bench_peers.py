"""Every metric that has an installable peer against its reference *and* its fastest peer, at identical numbers:
bleuscore (BLEU), fastchrf (chrF sentence scores), rouge-score-rs (ROUGE-N/L/Lsum, with and without stemmer),
fast-bleu (nltk BLEU), jiwer (WER/CER, both reference and peer); TER and METEOR against their references alone
(no faster installable peer). Each case also runs as three whole processes — ``scorelens score`` and a fresh
Python process for the reference and for the peer (``python -m benchmarks.sides``) — so that start-up and imports
count. The peers are the ``bench`` extra (``pip install -e ".[test,bench]"``).

Each side is one function of the loaded data in :data:`SIDES`, used both in-process and by
:mod:`benchmarks.sides`; imports happen inside them, so a process pays only for what its side uses.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import Case, Process, read_lines

Data = dict[str, Any]


def _sents(path: Path) -> list[str]:
    return ["\n".join(json.loads(line)) for line in read_lines(path)]


def _plain(folder: Path, ref_names: Sequence[str]) -> Data:
    """A folder of one-segment-per-line files: the named references, and every system under ``sys/``."""
    ref_files = [folder / name for name in ref_names]
    sys_files = sorted((folder / "sys").glob("*.txt"))
    return {
        "ref_files": ref_files,
        "sys_files": sys_files,
        "refs": [read_lines(p) for p in ref_files],
        "systems": [read_lines(p) for p in sys_files],
    }


def _wmt(shared: Path, nrefs: int = 2) -> Data:
    return _plain(shared / "wmt22" / "de-en", [f"ref.{k}.txt" for k in "AB"[:nrefs]])


def _ted(shared: Path) -> Data:
    """compare-mt's TED systems, whole (2,445 segments each)."""
    return _plain(shared / "compare-mt" / "ted", ["ref.txt"])


def _cnndm(shared: Path) -> Data:
    folder = shared / "cnndm_see2017"
    sys_files = [folder / "sys" / f"{name}.sents.jsonl" for name in ("baseline", "pointer-gen", "pointer-gen-cov")]
    return {
        "ref_files": [folder / "reference.sents.jsonl"],
        "sys_files": sys_files,
        "refs": [_sents(folder / "reference.sents.jsonl")],
        "systems": [_sents(p) for p in sys_files],
    }


def _segment_refs(data: Data) -> list[list[str]]:
    return [list(refs) for refs in zip(*data["refs"], strict=True)]


# ------------------------------------------------------------------------------------------------- ScoreLens


def _ours(metric_id: str, options: dict[str, Any], what: str) -> Callable[[Data], list[float]]:
    """ScoreLens in-process: per system its corpus score (``what="corpus"``) or all its segment scores."""

    def run(data: Data) -> list[float]:
        from metrics.core.registry import create

        metric = create(metric_id, options)
        out: list[float] = []
        for hyps in data["systems"]:
            stats = metric.stats(hyps, data["refs"])
            if what == "corpus":
                out.append(metric.corpus_score(stats))
            else:
                out.extend(metric.segment_scores(stats).tolist())
        return out

    return run


def _read_cli(metric_id: str, what: str) -> Callable[[str], list[float]]:
    def read(output: str) -> list[float]:
        results = json.loads(output)
        out: list[float] = []
        for system in results["systems"]:
            if what == "corpus":
                out.append(system["scores"][metric_id])
            else:
                out.extend(system["segments"][metric_id])
        return out

    return read


def _cli(metric_id: str, options: dict[str, Any], what: str, data: Data) -> list[str]:
    argv = ["scorelens", "score", "--refs", *map(str, data["ref_files"]), "--systems", *map(str, data["sys_files"])]
    argv += ["--metrics", metric_id, "--format", "json"]
    from metrics.core.registry import spec_for

    family = spec_for(metric_id).family
    argv += [f"--set={family}.{key}={str(value).lower()}" for key, value in options.items()]
    return argv + (["--segments"] if what != "corpus" else [])


# -------------------------------------------------------------------------------------- references and peers


def _sacrebleu_bleu(data: Data) -> list[float]:
    from sacrebleu.metrics import BLEU

    metric = BLEU()
    return [metric.corpus_score(hyps, data["refs"]).score for hyps in data["systems"]]


def _bleuscore(data: Data) -> list[float]:
    import bleuscore

    refs = _segment_refs(data)
    return [100 * bleuscore.compute(refs, hyps, 4, False, "closest")["bleu"] for hyps in data["systems"]]


def _sacrebleu_chrf(data: Data) -> list[float]:
    from sacrebleu.metrics import CHRF

    metric = CHRF()
    refs = _segment_refs(data)
    return [metric.sentence_score(h, r).score for hyps in data["systems"] for h, r in zip(hyps, refs, strict=True)]


def _fastchrf(data: Data) -> list[float]:
    import fastchrf

    refs = _segment_refs(data)
    out: list[float] = []
    for hyps in data["systems"]:
        # pairwise_chrf scores every reference; sacrebleu keeps the best one
        out.extend(max(scores[0]) for scores in fastchrf.pairwise_chrf([[h] for h in hyps], refs))
    return out


def _rouge_score(rouge_type: str, stemmer: bool) -> Callable[[Data], list[float]]:
    def run(data: Data) -> list[float]:
        from rouge_score.rouge_scorer import RougeScorer

        scorer = RougeScorer([rouge_type], use_stemmer=stemmer)
        (refs,) = data["refs"]
        return [
            scorer.score(r, h)[rouge_type].fmeasure for hyps in data["systems"] for r, h in zip(refs, hyps, strict=True)
        ]

    return run


def _rouge_score_rs(rouge_type: str, stemmer: bool) -> Callable[[Data], list[float]]:
    def run(data: Data) -> list[float]:
        from rouge_score_rs import _rougers

        scorer = _rougers.Scorer([rouge_type], stemmer)
        (refs,) = data["refs"]
        return [s[rouge_type].fmeasure for hyps in data["systems"] for s in scorer.score_batch(refs, hyps)]

    return run


def _nltk_bleu(data: Data) -> list[float]:
    import warnings

    from nltk.translate.bleu_score import sentence_bleu

    warnings.filterwarnings("ignore", "\nThe hypothesis contains 0 counts")
    refs = _segment_refs(data)
    return [
        sentence_bleu([r.split() for r in rs], h.split())
        for hyps in data["systems"]
        for h, rs in zip(hyps, refs, strict=True)
    ]


def _fast_bleu(data: Data) -> list[float]:
    from fast_bleu import BLEU

    refs = _segment_refs(data)
    out: list[float] = []
    for hyps in data["systems"]:
        for h, rs in zip(hyps, refs, strict=True):  # one reference set per segment: one object each
            out.extend(BLEU([r.split() for r in rs], {4: (0.25,) * 4}, smoothing_func=0).get_score([h.split()])[4])
    return out


def _jiwer(name: str) -> Callable[[Data], list[float]]:
    def run(data: Data) -> list[float]:
        import jiwer

        fn = jiwer.wer if name == "wer" else jiwer.cer
        (refs,) = data["refs"]
        return [fn(refs, hyps) for hyps in data["systems"]]

    return run


def _sacrebleu_ter(data: Data) -> list[float]:
    from sacrebleu.metrics import TER

    metric = TER(references=data["refs"])
    out: list[float] = []
    for hyps in data["systems"]:
        stats = metric._extract_corpus_statistics(hyps, None)
        out.append(metric._aggregate_and_compute(stats).score)
    return out


def _nltk_meteor(data: Data) -> list[float]:
    import warnings

    from nltk.translate.meteor_score import meteor_score

    spec = Path(data["shared"]).parent / "spec"
    sys.path.insert(0, str(spec))
    import wordnet_offline

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "multilingual functions are not available" (no OMW reader)
        wordnet = wordnet_offline.load()
    refs = _segment_refs(data)
    return [
        meteor_score([r.split() for r in rs], h.split(), wordnet=wordnet)
        for hyps in data["systems"]
        for h, rs in zip(hyps, refs, strict=True)
    ]


@dataclass(frozen=True)
class Spec:
    name: str
    load: Callable[[Path], Data]
    metric_id: str
    options: dict[str, Any]
    what: str  # "corpus" or "segments"
    reference: Callable[[Data], list[float]]
    peer: Callable[[Data], list[float]] | None
    peer_name: str


def _specs() -> dict[str, Spec]:
    specs = [
        Spec(
            "bleu corpus, wmt22 de-en 9 sys x 2 refs",
            _wmt,
            "bleu",
            {},
            "corpus",
            _sacrebleu_bleu,
            _bleuscore,
            "bleuscore",
        ),
        Spec(
            "chrf sentences, wmt22 de-en 9 sys x 2 refs",
            _wmt,
            "chrf",
            {},
            "segments",
            _sacrebleu_chrf,
            _fastchrf,
            "fastchrf",
        ),
        Spec(
            "bleu-nltk sentences, ted 2 sys x 2445",
            _ted,
            "bleu-nltk",
            {},
            "segments",
            _nltk_bleu,
            _fast_bleu,
            "fast-bleu",
        ),
        Spec(
            "wer corpus, wmt22 de-en 9 sys",
            lambda s: _wmt(s, 1),
            "wer",
            {},
            "corpus",
            _jiwer("wer"),
            _jiwer("wer"),
            "jiwer",
        ),
        Spec(
            "cer corpus, wmt22 de-en 9 sys",
            lambda s: _wmt(s, 1),
            "cer",
            {},
            "corpus",
            _jiwer("cer"),
            _jiwer("cer"),
            "jiwer",
        ),
        Spec("ter corpus, wmt22 de-en 9 sys x 2 refs", _wmt, "ter", {}, "corpus", _sacrebleu_ter, None, ""),
        Spec("meteor sentences, wmt22 de-en 9 sys x 2 refs", _wmt, "meteor", {}, "segments", _nltk_meteor, None, ""),
    ]
    for stemmer in (False, True):
        for rouge_type in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
            specs.append(
                Spec(
                    f"{rouge_type}{' stem' if stemmer else ''}, cnndm 3 sys x 11490",
                    _cnndm,
                    rouge_type,
                    {"stemmer": True} if stemmer else {},
                    "segments",
                    _rouge_score(rouge_type, stemmer),
                    _rouge_score_rs(rouge_type, stemmer),
                    "rouge-score-rs",
                )
            )
    return {spec.name: spec for spec in specs}


SIDES = _specs()


def _loaded(spec: Spec, shared: Path) -> Data:
    data = spec.load(shared)
    data["shared"] = str(shared)
    return data


def cases(shared: Path) -> list[Case]:
    out = []
    for spec in SIDES.values():
        data = _loaded(spec, shared)
        side = [sys.executable, "-m", "benchmarks.sides", spec.name, str(shared)]
        out.append(
            Case(
                spec.name,
                lambda spec=spec, data=data: _ours(spec.metric_id, spec.options, spec.what)(data),
                lambda spec=spec, data=data: spec.reference(data),
                (lambda spec=spec, data=data: spec.peer(data)) if spec.peer else None,  # type: ignore[misc]
                spec.peer_name,
                Process(
                    _cli(spec.metric_id, spec.options, spec.what, data),
                    [*side, "reference"],
                    [*side, "peer"] if spec.peer else None,
                    _read_cli(spec.metric_id, spec.what),
                ),
            )
        )
    return out


def run_side(name: str, shared: Path, side: str) -> Sequence[float]:
    spec = SIDES[name]
    fn = spec.reference if side == "reference" else spec.peer
    if fn is None:
        raise ValueError(f"{name} has no {side}")
    return fn(_loaded(spec, shared))
