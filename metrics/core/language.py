"""The script of a reference corpus, and the options a Chinese, Japanese or Korean target calls for.

:func:`detect_language` counts the letters of the references by script (Han characters, kana, Hangul) and names
the target language when one of these scripts dominates. :func:`language_settings` gives the options that language
calls for, :func:`apply_language` adds them to what the user set, never overriding an option the user set himself.

The choices, read from sacrebleu 2.6.0's command line (``sacrebleu -l SRC-TRG``): the target language changes
exactly one thing there, BLEU's tokenizer (``BLEU._TOKENIZER_MAP``: ``zh`` → ``zh``, ``ja`` → ``ja-mecab``,
``ko`` → ``ko-mecab``). chrF is left as it is (it scores characters already). sacrebleu's ``-l`` leaves TER at
``asian:no`` too, and its ``--ter-asian-support`` alone changes nothing: TER's tokenizer splits CJK characters only
when ``--ter-normalized`` is also given. Without both, an unsegmented Chinese or Japanese sentence is one or a few
"words" and TER counts whole clauses as single edits; so for Chinese and Japanese both are set
(``sacrebleu --ter-normalized --ter-asian-support`` reproduces it), which the signature states
(``norm:yes|asian:yes``). Korean separates words with spaces and TER's Asian ranges do not cover Hangul, so TER is
left as it is there.

A choice that needs an install this machine lacks (MeCab for ``ja-mecab``, MeCab-ko for ``ko-mecab``) falls back
visibly: Japanese BLEU then tokenizes characters (``char``), Korean BLEU keeps ``13a`` (space-separated words, as
sacrebleu scored Korean before ``ko-mecab``), and the fallback is among the settings' notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import islice
from typing import TYPE_CHECKING, Any, Literal

from metrics.core.config import config_options
from metrics.core.registry import metric_class

if TYPE_CHECKING:
    import regex


class Language(Enum):
    """A target language whose script calls for its own options."""

    CHINESE = "zh"
    JAPANESE = "ja"
    KOREAN = "ko"

    @property
    def label(self) -> str:
        return self.name.capitalize()


LengthUnit = Literal["words", "characters"]

# sacrebleu's BLEU tokenizer for each target language (its -l xx-zh/ja/ko choice)
SACREBLEU_TOKENIZER: Mapping[Language, str] = {
    Language.CHINESE: "zh",
    Language.JAPANESE: "ja-mecab",
    Language.KOREAN: "ko-mecab",
}

_ASCII_NON_LETTERS = bytes(c for c in range(128) if not chr(c).isalpha())
# Below U+2E80, where the CJK radicals begin, str.isalpha is the regex module's \p{L} and no character is Han, kana
# or Hangul, except for the Hangul jamo and a few letters of the regex module's newer Unicode that Python 3.11's
# (14.0) lacks (a test compares them on every code point): most text in other scripts is counted without importing
# the regex module, which costs a command-line run more than counting the sample does.
ISALPHA_BELOW = "\u2e80"
ISALPHA_EXCEPT = re.compile("[\u0558\u058b\u058c\u088f\u0c5c\u0cdc\u1100-\u11ff\u1c89\u1c8a\u208f\u209d-\u209f]")
DOMINANT = 0.3  # share of the letters a script needs to name the language
JAPANESE_KANA = 0.1  # share of kana among Han and kana that tells Japanese from Chinese
SAMPLE_SEGMENTS = 1000  # segments read per reference stream: the script of a corpus shows early


@dataclass(frozen=True)
class ScriptCounts:
    """Letters of a sample of references by script, and the language they point to (``None``: none of CJK)."""

    letters: int
    han: int
    kana: int
    hangul: int
    language: Language | None

    def describe(self) -> str:
        """``Chinese (97% of the letters are Han characters)``, for notes and the screen."""
        if self.language is None:
            return "not Chinese, Japanese or Korean"
        share = {
            Language.CHINESE: (self.han, "Han characters"),
            Language.JAPANESE: (self.han + self.kana, "Han characters or kana"),
            Language.KOREAN: (self.hangul, "Hangul"),
        }[self.language]
        return f"{self.language.label} ({share[0] / self.letters:.0%} of the letters are {share[1]})"


def detect_language(refs: Sequence[Sequence[str | None]], sample: int = SAMPLE_SEGMENTS) -> ScriptCounts:
    """The script of reference streams ``refs`` (``refs[k][i]``), from the first ``sample`` segments of each."""
    letters = han = kana = hangul = 0
    for stream in refs:
        for text in islice(stream, sample):
            if not text:
                continue
            if text.isascii():  # no Han, kana or Hangul; its letters are A–Z and a–z, counted in C
                letters += len(text.encode("ascii").translate(None, _ASCII_NON_LETTERS))
                continue
            if max(text) < ISALPHA_BELOW and not ISALPHA_EXCEPT.search(text):
                letters += sum(map(str.isalpha, text))
                continue
            letters += len(_pattern(r"\p{L}").findall(text))
            han += len(_pattern(r"\p{Han}").findall(text))
            kana += len(_pattern(r"[\p{Hiragana}\p{Katakana}]").findall(text))
            hangul += len(_pattern(r"\p{Hangul}").findall(text))
    language = None
    if letters and hangul / letters >= DOMINANT:
        language = Language.KOREAN
    elif letters and (han + kana) / letters >= DOMINANT:
        language = Language.JAPANESE if kana / (han + kana) >= JAPANESE_KANA else Language.CHINESE
    return ScriptCounts(letters, han, kana, hangul, language)


def length_unit(language: Language | None) -> LengthUnit:
    """How text length is counted: characters for Chinese and Japanese (no spaces between words), else words."""
    return "characters" if language in (Language.CHINESE, Language.JAPANESE) else "words"


def text_length(text: str, unit: LengthUnit) -> int:
    """Words (whitespace-separated) or characters (spaces left out) of ``text``."""
    return len(_pattern(r"\s+").sub("", text)) if unit == "characters" else len(text.split())


@cache
def _pattern(expression: str) -> regex.Pattern[str]:
    """``expression`` compiled by the regex module, imported when first needed."""
    import regex

    return regex.compile(expression)


@dataclass(frozen=True)
class OptionChoice:
    """One option set for the target language, and why."""

    family: str
    name: str
    value: Any
    why: str

    @property
    def setting(self) -> str:
        return f"{self.family}.{self.name}={str(self.value).lower() if isinstance(self.value, bool) else self.value}"


@dataclass(frozen=True)
class Fallback:
    """A choice the language calls for that cannot run here, and what is used instead."""

    family: str
    name: str
    text: str


@dataclass(frozen=True)
class LanguageSettings:
    """What a target language calls for: the options to set, and the choices that fell back."""

    language: Language | None
    choices: tuple[OptionChoice, ...] = ()
    fallbacks: tuple[Fallback, ...] = ()

    def summary(self) -> str:
        """One line: what is set and why, then any fallback."""
        by_reason: dict[str, list[str]] = {}
        for c in self.choices:
            by_reason.setdefault(c.why, []).append(c.setting)
        parts = [f"{', '.join(settings)} ({why})" for why, settings in by_reason.items()] or ["no option changed"]
        return "; ".join([*parts, *(f.text for f in self.fallbacks)])


def _offered(family: str, name: str, value: Any) -> str | None:
    """Why ``family.name=value`` cannot run here (``None`` if it can)."""
    option = next(o for o in config_options(metric_class(family).Config) if o.name == name)
    return option.info.unavailable(value)


_CJK_TER = "TER splits CJK characters: sacrebleu --ter-normalized --ter-asian-support"


def language_settings(language: Language | None) -> LanguageSettings:
    """The options ``language`` calls for (module docstring), with fallbacks for what is not installed here."""
    if language is None:
        return LanguageSettings(None)
    choices: list[OptionChoice] = []
    fallbacks: list[Fallback] = []
    sacrebleu = f"sacrebleu's choice for -l xx-{language.value}"
    tokenizer = SACREBLEU_TOKENIZER[language]
    missing = _offered("bleu", "tokenize", tokenizer)
    if missing is None:
        choices.append(OptionChoice("bleu", "tokenize", tokenizer, sacrebleu))
    else:
        instead = "char" if language is Language.JAPANESE else "13a"
        if instead == "char":
            choices.append(OptionChoice("bleu", "tokenize", instead, f"in place of {tokenizer}"))
        text = f"bleu.tokenize={tokenizer} ({sacrebleu}) cannot run here: {missing}; BLEU uses {instead} instead"
        fallbacks.append(Fallback("bleu", "tokenize", text))
    if language in (Language.CHINESE, Language.JAPANESE):
        choices.append(OptionChoice("ter", "normalized", True, _CJK_TER))
        choices.append(OptionChoice("ter", "asian_support", True, _CJK_TER))
    return LanguageSettings(language, tuple(choices), tuple(fallbacks))


def apply_language(
    settings: LanguageSettings,
    explicit: Mapping[str, Mapping[str, Any]],
    families: Iterable[str],
) -> tuple[dict[str, dict[str, Any]], LanguageSettings]:
    """``explicit`` options (by family) plus the language's choices for ``families``, except where the user set
    that option himself; returns the options and the settings that were applied."""
    options = {family: dict(values) for family, values in explicit.items()}
    chosen = set(families)

    def free(family: str, name: str) -> bool:
        return family in chosen and name not in explicit.get(family, {})

    applied = tuple(c for c in settings.choices if free(c.family, c.name))
    for choice in applied:
        options.setdefault(choice.family, {})[choice.name] = choice.value
    fallbacks = tuple(f for f in settings.fallbacks if free(f.family, f.name))
    return options, LanguageSettings(settings.language, applied, fallbacks)
