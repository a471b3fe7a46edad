"""Language caveats are proportionate, once per metric family, and worded by each surface in its own terms."""

from __future__ import annotations

from metrics.cli.main import main
from metrics.core.caveats import CaveatKind, Severity, Surface, language_caveats
from metrics.core.language import english_share
from tests.support.corpora import slice_corpus
from tests.support.paths import DATA

DEEN = DATA / "wmt22-de-en"


def _few_circumflexes() -> list[list[str]]:
    """1,000 English references, 4 of which hold one 'û' (as the WMT24 en-de English side did)."""
    refs = [f"The committee met on day {k} and agreed on the plan." for k in range(1000)]
    for k in (10, 200, 500, 900):
        refs[k] = f"The flûte of day {k} was played."
    return [refs]


def test_four_of_a_thousand_references_give_one_proportionate_note():
    refs = _few_circumflexes()
    outputs = [list(refs[0]) for _ in range(12)]  # 12 systems: still one caveat
    (caveat,) = language_caveats(["rouge1", "rouge2", "rougeL", "rougeLsum"], refs, outputs)
    assert caveat.severity is Severity.NOTE and caveat.kind is CaveatKind.DROPPED_LETTERS
    assert (caveat.affected, caveat.total, caveat.examples) == (4, 1000, ("û",))
    assert (caveat.outputs_affected, caveat.outputs_total) == (48, 12000)
    cli = caveat.text(Surface.CLI)
    assert cli.startswith(
        "4 of 1,000 references and 48 of 12,000 system outputs have letters ROUGE-1/2/L/Lsum's tokenizer drops (û)"
    )
    assert cli.endswith("To keep them, add --set rouge.tokenizer=unicode.") and "%" not in cli
    app = caveat.text(Surface.APP)
    assert app.endswith('choose Tokenizer "unicode (letters of any script)" under "rouge options" in the sidebar.')
    assert "--set" not in app


def test_many_references_losing_letters_escalate_to_a_warning_with_the_share():
    german = [list(slice_corpus("wmt22-de-en").src or [])]
    (caveat,) = language_caveats(["rouge1"], german)
    assert caveat.severity is Severity.WARNING and caveat.affected / caveat.total > 0.5
    assert f"{caveat.affected} of {caveat.total} references ({caveat.affected / caveat.total:.0%})" in caveat.text(
        Surface.CLI
    )
    assert caveat.examples[:2] == ("ü", "ä")


def test_meteor_on_german_references_is_warned_that_its_stemmer_and_synonyms_are_english():
    corpus = slice_corpus("wmt22-de-en")
    german = [list(corpus.src or [])]
    assert english_share(german[0]) < 0.05 < 0.25 < english_share(corpus.refs[0])
    (caveat,) = language_caveats(["meteor"], german)
    assert caveat.kind is CaveatKind.ENGLISH_ONLY and caveat.severity is Severity.WARNING
    text = caveat.text(Surface.APP)
    assert "METEOR's stemmer (Porter) and synonyms (WordNet 3.0) are English-only" in text
    assert text == caveat.text(Surface.CLI)  # nothing to set: the same words on both surfaces
    assert language_caveats(["meteor"], corpus.refs) == ()  # English references: nothing to say
    assert language_caveats(["bleu", "chrf"], german) == ()  # metrics that read any language


def test_the_command_line_says_each_caveat_once_in_its_own_terms(tmp_path, capsys):
    refs = tmp_path / "ref.txt"
    refs.write_text("\n".join(_few_circumflexes()[0]) + "\n", encoding="utf-8")
    systems = []
    for k in range(3):
        path = tmp_path / f"sys{k}.txt"
        path.write_text("\n".join(f"The committee met on day {i}." for i in range(1000)) + "\n", encoding="utf-8")
        systems.append(str(path))
    assert main(["score", "-r", str(refs), "-i", *systems, "-m", "rouge1", "rougeL"]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "tokenizer drops" in line]
    assert lines == [
        "scorelens: note: 4 of 1,000 references have letters ROUGE-1/2/L/Lsum's tokenizer drops (û): they never "
        "match. To keep them, add --set rouge.tokenizer=unicode."
    ]
    assert "on all" not in err and "sys0" not in err
    german = str(DEEN / "src.txt")
    assert main(["score", "-r", german, "-i", str(DEEN / "sys" / "LT22.txt"), "-m", "meteor"]) == 0
    err = capsys.readouterr().err
    assert "scorelens: warning: The references do not read as English" in err
    assert "METEOR's stemmer (Porter) and synonyms (WordNet 3.0) are English-only" in err
