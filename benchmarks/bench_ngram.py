"""BLEU and chrF/chrF++ against sacrebleu 2.6.0 on the full WMT22 de-en and en-zh sets (all systems, 2 refs)."""

from __future__ import annotations

from pathlib import Path

from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF

from benchmarks.common import Case, corpus_and_segments, load_set
from metrics.families.bleu.metric import BLEU
from metrics.families.chrf.metric import CHRF


def _load(shared: Path, pair: str) -> tuple[list[list[str]], list[list[str]]]:
    refs, systems = load_set(shared / "wmt22" / pair, ["ref.A.txt", "ref.B.txt"])
    return list(systems.values()), refs


def _case(name: str, systems, refs, ours_factory, theirs_factory) -> Case:
    def ours() -> list[float]:
        # fresh objects: no cache carried over between runs
        return corpus_and_segments(ours_factory(), systems, refs, ours_factory(sentence=True))

    def theirs() -> list[float]:
        metric = theirs_factory()
        sentence = theirs_factory(sentence=True)
        out = []
        for hyps in systems:
            out.append(metric.corpus_score(hyps, refs).score)
            out.extend(sentence.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps))
        return out

    return Case(name, ours, theirs)


def cases(shared: Path) -> list[Case]:
    de, de_refs = _load(shared, "de-en")
    zh, zh_refs = _load(shared, "en-zh")
    return [
        _case(
            "bleu wmt22 de-en 9 sys corpus+segments",
            de,
            de_refs,
            lambda sentence=False: BLEU(),  # its segment scores are sentence_bleu's (segment_effective_order)
            lambda sentence=False: SacreBLEU(effective_order=sentence),
        ),
        _case(
            "bleu zh wmt22 en-zh 13 sys corpus+segments",
            zh,
            zh_refs,
            lambda sentence=False: BLEU(tokenize="zh"),
            lambda sentence=False: SacreBLEU(tokenize="zh", effective_order=sentence),
        ),
        _case(
            "chrf wmt22 de-en 9 sys corpus+segments",
            de,
            de_refs,
            lambda sentence=False: CHRF(),
            lambda sentence=False: SacreCHRF(),
        ),
        _case(
            "chrf++ wmt22 de-en 9 sys corpus+segments",
            de,
            de_refs,
            lambda sentence=False: CHRF(word_order=2),
            lambda sentence=False: SacreCHRF(word_order=2),
        ),
    ]
