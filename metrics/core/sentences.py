"""ScoreLens' rule-based sentence splitter (``rules-v1``): offline, no model, no data download.

ROUGE-Lsum scores sentence by sentence, and rouge-score takes a text's sentences from its newlines (its optional
``split_summaries`` runs nltk's Punkt, whose English model is a data download). :func:`sentence_spans` is what
ScoreLens offers instead when the user asks for it (``rouge.split=rules``): the user's own newlines always end a
sentence, and each line is split further at

* full-width ``。！？`` (Chinese and Japanese write no space after them), with closing quotes or brackets;
* ``.``, ``!``, ``?`` or an ellipsis (``...``, ``…``) followed by a space or the end of the line, with closing quotes
  or brackets (``"Stop." Then`` ends after the quote), except where the word before the period is

  - an initial (``J. K. Rowling``) or a title or other abbreviation that precedes a name or a number (``Dr.``,
    ``Mr.``, ``St.``, ``Jan.``, ``vs.``, ``e.g.`` — :data:`NEVER_FINAL`; also when a tokenizer split the period
    off: ``gov . mike pence``),
  - an abbreviation that may end a sentence (``etc.``, ``Inc.``, ``Jr.``, ``No.`` — :data:`MAYBE_FINAL`) or an
    ellipsis: these end one only before a capitalised word; an initialism (``U.S.``, ``p.m.``) only before a word
    that commonly starts a sentence (:data:`STARTERS`);

* in a text that has a capitalised word, nothing is an end before a lowercase letter (``"Stop!" he said``); an
  all-lowercase text (CNN/DailyMail's) has no such evidence, so an ordinary word's period ends a sentence there.

Decimals (``3.5``), URLs and e-mail addresses have no space after their periods and are never split. Repeated marks
(``wow ! ! !``) and a closing quote that a tokenizer set apart (``he said `` no . ''``) stay with their sentence.

**Known failure cases** (the docs' ROUGE card lists them too): an abbreviation it does not list is split after
before a capital (``Brig. Gen. Smith``) and, in lowercase text, before anything (``calif. officials``); an initialism that
ends a sentence before a word that is not a usual starter is not split (``at 5 p.m. Bring food``, ``the U.S. Obama
said``); German ordinals and numbered lists split after the number (``am 3. Oktober``); a Japanese quotation is
split after its closing bracket (``「行こう。」と言った``); a sentence without final punctuation runs into the next; it
knows English abbreviations only.

:data:`SENTENCE_END` is the candidate pattern without the ellipsis character, and what
:func:`metrics.core.defaults.sentence_count` counts (:func:`sentence_end`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import regex

SPLITTER = "rules-v1"  # named in signatures: a change of the rules must change this

# sentence ends: full-width terminal punctuation (CJK writes no space after it), or ASCII terminal punctuation before
# a space or the end (so "3.5" and "U.S." do not end sentences); closing quotes or brackets may follow either
SENTENCE_END = r"[。！？]+[”’）」』]*|[.!?]+[\"'”’)\]]*(?=\s|$)"


class _Patterns(NamedTuple):
    end: regex.Pattern[str]  # SENTENCE_END
    candidate: regex.Pattern[str]  # what the splitter examines: SENTENCE_END, the ellipsis character too
    capitalised: regex.Pattern[str]  # a capitalised word ("The", not "UNK")
    repeated: regex.Pattern[str]  # terminal punctuation repeated apart ("wow ! ! !")
    spaced_quote: regex.Pattern[str]  # a closing quote token after a space (PTB: ``he said . ''``)
    next_word: regex.Pattern[str]  # the word after a candidate, past opening quotes or brackets


@functools.cache
def _patterns() -> _Patterns:
    # Compiled, and the regex module imported, on first use: a run that never splits (ROUGE-1 beside ROUGE-Lsum
    # without the option) does not pay for either.
    import regex

    return _Patterns(
        regex.compile(SENTENCE_END),
        regex.compile(r"[。！？]+[”’）」』]*|(?:[.!?]+|…)[\"'”’)\]»]*(?=\s|$)"),
        regex.compile(r"\p{Lu}\p{Ll}"),
        regex.compile(r"(?:\s+[.!?…]+(?=\s|$))+"),
        regex.compile(r"\s+(''|'|\")(?=\s|$)"),
        regex.compile(r"\s*[\"'“‘(\[«]*(\S*)"),
    )


def sentence_end() -> regex.Pattern[str]:
    """:data:`SENTENCE_END` compiled: what :func:`metrics.core.defaults.sentence_count` counts."""
    return _patterns().end


_OPENERS = "\"'“‘([«"


def _listed(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Abbreviations (lowercase, without their final period) that precede a name, a number or another word, so their period
# is never a sentence end.
NEVER_FINAL = _listed(
    "mr mrs ms mx dr prof st mt ft gen sen rep gov lt col capt cmdr sgt adm maj rev hon pres supt insp det messrs "
    "nos vol fig figs pp approx cf vs e.g i.e viz jan feb mar apr jun jul aug sep sept oct nov dec"
)
# Abbreviations that often end a sentence: an end only before a capitalised word.
MAYBE_FINAL = _listed("etc inc ltd co corp bros jr sr esq plc llc dept univ assn ave blvd rd no al")
# Words that commonly start an English sentence: after an initialism (``U.S.``) only these make its period an end.
STARTERS = _listed(
    "the a an he she it they we i you but and or so yet this that these those there here his her its their our my "
    "in on at for if when while after before as however meanwhile then now still also some many most all no one"
)


def _is_initialism(word: str) -> bool:
    """``U.S``, ``p.m``, ``Ph.D`` (the final period stripped): letters with a period inside."""
    return "." in word and all(part.isalpha() and len(part) <= 3 for part in word.split("."))


def _ends(line: str, start: int, end: int, cased: bool) -> bool:
    """Whether the candidate ``line[start:end]`` ends a sentence, from the word before it and the word after it."""
    mark = line[start:end]
    if mark[0] in "。！？":
        return True
    following = _patterns().next_word.match(line, end)
    next_word = following.group(1) if following else ""
    if not next_word:
        return True  # end of the line
    capital = next_word[0].isupper()
    if cased and next_word[0].islower():
        return False
    if mark.startswith(("...", "…")):
        return capital
    if mark[0] != ".":
        return True  # ! and ? end sentences wherever a capital or the lowercase rule allows
    space = max(line.rfind(" ", 0, start), line.rfind("\t", 0, start))
    before = line[space + 1 : start].lstrip(_OPENERS)
    lowered = before.lower()
    if not before:  # " ." after a space (tokenized text): a title's period split off ("gov . mike") is no end
        previous = line.rfind(" ", 0, max(space, 0))
        return line[previous + 1 : max(space, 0)].lower() not in NEVER_FINAL
    if lowered in NEVER_FINAL or (len(before) == 1 and before.isalpha()):
        return False  # a title, or an initial: a name follows
    if lowered in MAYBE_FINAL:
        return capital
    if _is_initialism(before):
        return capital and next_word.lower().strip("\"'“‘,") in STARTERS
    return True


def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The sentences of ``text`` as ``[start, end)`` character spans, without surrounding whitespace: every line
    (the user's newlines keep priority) split at the sentence ends the module doc describes. Blank lines give none."""
    patterns = _patterns()
    # without a capitalised word, as in lowercased corpora, case is no evidence of a sentence start
    cased = patterns.capitalised.search(text) is not None
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        start = 0
        for match in patterns.candidate.finditer(line):
            if match.start() >= start and _ends(line, match.start(), match.end(), cased):
                end = _closed(line, start, match.end())
                _add(spans, line, offset, start, end)
                start = end
        _add(spans, line, offset, start, len(line))
        offset += len(line) + 1
    return tuple(spans)


def _closed(line: str, start: int, end: int) -> int:
    """Where a sentence ending at ``end`` really ends: after repeated marks (``! ! !``), and after a closing quote
    that stands apart (tokenized text's ``. ''``) when the sentence ``line[start:end]`` left that quote open."""
    patterns = _patterns()
    repeated = patterns.repeated.match(line, end)
    end = repeated.end() if repeated else end
    quote = patterns.spaced_quote.match(line, end)
    if quote is None:
        return end
    mark = quote.group(1)
    sentence = line[start:end]
    if mark == "''":
        still_open = sentence.count("``") > sentence.count("''")
    else:
        still_open = sum(word == mark for word in sentence.split()) % 2 == 1
    return quote.end() if still_open else end


def _add(spans: list[tuple[int, int]], line: str, offset: int, start: int, end: int) -> None:
    """Append ``line[start:end]`` stripped, shifted by ``offset``, unless it is blank."""
    piece = line[start:end]
    stripped = piece.strip()
    if stripped:
        lead = len(piece) - len(piece.lstrip())
        spans.append((offset + start + lead, offset + start + lead + len(stripped)))


def split_text(text: str) -> list[str]:
    """The sentences of :func:`sentence_spans` as strings."""
    return [text[a:b] for a, b in sentence_spans(text)]
