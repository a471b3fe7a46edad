"""Options that name something on the machine (:class:`Resource`): declared on the config fields, a file option
takes an :class:`Upload` as well as a path, and the library reads either the same way."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from metrics.cli.listing import list_metrics
from metrics.core.config import Resource, build_config, check_options, config_options, option
from metrics.core.registry import create
from metrics.core.upload import Upload
from metrics.families.perplexity.metric import PerplexityConfig

CORPUS = b"the cat sat on the mat .\nthe dog sat on the log .\n"


def test_a_file_option_is_text_that_also_takes_an_upload_and_a_model_option_only_text():
    declared = {o.name: o for o in config_options(PerplexityConfig)}
    corpus, model = declared["corpus"], declared["causal_model"]
    assert (corpus.kind, corpus.optional, corpus.info.resource) == ("text", False, Resource.FILE)
    assert (model.kind, model.info.resource) == ("text", Resource.MODEL)
    upload = Upload("lm.txt", CORPUS)
    assert build_config(PerplexityConfig, {"corpus": upload}).corpus == upload
    assert build_config(PerplexityConfig, {"corpus": ""}).corpus == ""  # empty stays text, not None
    with pytest.raises(ValueError, match="'causal_model': expected text"):
        build_config(PerplexityConfig, {"causal_model": upload})


def test_a_field_takes_an_upload_exactly_when_it_names_a_file():
    @dataclass(frozen=True)
    class Wrong:
        path: str = option("", label="Path", help="a file", resource=Resource.FILE)

        def __post_init__(self) -> None:
            check_options(self)

    with pytest.raises(TypeError, match="takes an Upload exactly when it names a file"):
        Wrong()


def test_uploads_compare_by_name_and_content_and_print_without_their_bytes():
    a, b = Upload("lm.txt", CORPUS), Upload("lm.txt", bytes(CORPUS))
    assert a == b and hash(a) == hash(b) and a != Upload("other.txt", CORPUS)
    assert "sha256:" in repr(a) and "cat" not in repr(a)


def test_an_upload_and_the_same_file_by_path_give_the_same_signature_and_scores(tmp_path):
    path = tmp_path / "lm.txt"
    path.write_bytes(CORPUS)
    by_path, by_upload = (
        create("perplexity", {"corpus": str(path)}),
        create("perplexity", {"corpus": Upload("lm.txt", CORPUS)}),
    )
    assert by_path.signature() == by_upload.signature()
    hyps, refs = ["the cat sat on the log ."], [["a reference"]]
    assert by_path.stats(hyps, refs).rows.tolist() == by_upload.stats(hyps, refs).rows.tolist()


def test_the_listing_says_what_a_resource_option_names():
    listing = list_metrics()
    assert "perplexity.corpus=  Training corpus file — a file path" in listing
    assert "perplexity.causal_model=  Causal LM — a model folder or hub id" in listing
    assert "perplexity.device=auto  Device — auto, cpu, cuda, cuda:N or mps" in listing
