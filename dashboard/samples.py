"""The real datasets bundled in ``assets/samples`` (see each folder's PROVENANCE.md and SLICE.json)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from dashboard.dataset import Dataset
from metrics.annotations.collect import LoadedTexts
from metrics.annotations.model import Scheme
from metrics.annotations.read import read_annotations
from metrics.io.inputs import Segments, display_name, read_segments
from metrics.stats.human import HumanScores, read_human_scores

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "assets" / "samples"


@dataclass(frozen=True)
class Sample:
    """A bundled dataset: ``title`` names it wherever it is loaded (the pages give its counts beside it); ``size``
    says in the sample picker how large it is, in its own units."""

    key: str
    title: str
    size: str
    task: str
    folder: str
    refs: tuple[str, ...]  # none: a source and outputs, scored by metrics that read no references
    source: str | None
    metrics: tuple[str, ...]  # none: chosen from the data (metrics.core.defaults)
    human: str | None = None  # human judgments (metrics.stats.human format) …
    segment_ids: str | None = None  # … aligned by this file of one segment id per line
    mqm: str | None = None  # human error annotations, WMT's MQM TSV (seg_id = line number)

    @property
    def path(self) -> Path:
        return SAMPLES_DIR / self.folder


SAMPLES: dict[str, Sample] = {
    s.key: s
    for s in (
        Sample(
            "mt",
            "WMT22 German→English",
            "300 segments, 5 systems, 2 references",
            "machine translation",
            "wmt22-de-en",
            ("ref.A.txt", "ref.B.txt"),
            "src.txt",
            ("bleu", "chrf", "ter"),
        ),
        Sample(
            "mt-qe",
            "WMT22 German→English, source and outputs only",
            "300 segments, 5 systems, no references",
            "quality estimation",
            "wmt22-de-en",
            (),
            "src.txt",
            (),
        ),
        Sample(
            "summ",
            "CNN/DailyMail, See et al. 2017",
            "100 articles, 3 systems",
            "summarization",
            "cnndm",
            ("reference.sents.jsonl",),
            None,
            ("rouge1", "rouge2", "rougeL", "rougeLsum"),
        ),
        Sample(
            "caption",
            "MSCOCO THumB",
            "200 images, 5 captioners, 4 references",
            "captioning",
            "coco",
            ("ref.0.txt", "ref.1.txt", "ref.2.txt", "ref.3.txt"),
            None,
            ("bleu", "cider", "meteor", "rougeL"),
            human="human_scores.jsonl",
            segment_ids="image_ids.txt",
        ),
        Sample(
            "mqm",
            "WMT21 TED English→German with MQM error annotations",
            "100 segments, 5 systems, 1 reference, 357 rated errors",
            "machine translation, human error spans",
            "wmt21-ted-en-de",
            ("ref.A.txt",),
            "src.txt",
            ("mqm", "chrf", "bleu"),
            mqm="mqm.tsv",
        ),
    )
}


@cache  # read once per process; a Dataset is immutable
def load_sample(key: str) -> Dataset:
    sample = SAMPLES[key]
    refs: list[Segments] = [read_segments(sample.path / name) for name in sample.refs]
    systems = {display_name(p.name): read_segments(p).texts for p in sorted((sample.path / "sys").iterdir())}
    source = read_segments(sample.path / sample.source).texts if sample.source else None
    human = None
    if sample.human:
        ids = sample.path / sample.segment_ids if sample.segment_ids else None
        segments = len(next(iter(systems.values())))
        read = read_human_scores(sample.path / sample.human, segments, ids)
        human = HumanScores(read.scores, f"{sample.folder}/{sample.human}")
    data = Dataset(
        title=sample.title,
        systems=systems,
        refs=tuple(r.texts for r in refs),
        ref_names=tuple(display_name(name) for name in sample.refs),
        source=source,
        default_metrics=sample.metrics or None,
        human=human,
    )
    if sample.mqm is None:
        return data
    marked = read_annotations(sample.path / sample.mqm, LoadedTexts(data.systems, data.source), Scheme.MQM)
    return data.with_annotations(Scheme.MQM.value, replace(marked, source=f"{sample.folder}/{sample.mqm}"))
