"""The script of a reference corpus, and the options a Chinese, Japanese or Korean target calls for.

:func:`detect_language` counts the letters of the references by script (Han characters, kana, Hangul) and names
the target language when one of these scripts dominates. :func:`language_settings` gives the options that language
calls for, as the families declare them (``Family.language_options``, each with its reason), and
:func:`apply_language` adds them to what the user set, never overriding an option the user set himself.

A choice that needs an install this machine lacks (MeCab for a Japanese tokenizer) falls back visibly: the family
declares what runs instead, and the fallback is among the settings' notes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import islice
from typing import TYPE_CHECKING, Any, Literal

from metrics.core import registry
from metrics.core.config import build_config, config_options
from metrics.core.family import Language, LanguageOption

if TYPE_CHECKING:
    import regex


LengthUnit = Literal["words", "characters"]

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


def _choose(option: LanguageOption, title: str) -> tuple[tuple[OptionChoice, ...], tuple[Fallback, ...]]:
    """What ``option`` of family ``title`` sets: itself where it can run here, else its fallback, visibly."""
    namespace = registry.spec_for(option.metric).family
    config = registry.metric_class(option.metric).Config
    found = next(o for o in config_options(config) if o.name == option.name)
    missing = found.info.unavailable(option.value)
    if missing is None:
        return (OptionChoice(namespace, option.name, option.value, option.why),), ()
    instead = option.instead
    setting = f"{namespace}.{option.name}={option.value} ({option.why})"
    fallback = Fallback(namespace, option.name, f"{setting} cannot run here: {missing}; {title} uses {instead} instead")
    if instead == getattr(build_config(config), option.name):
        return (), (fallback,)
    return (OptionChoice(namespace, option.name, instead, f"in place of {option.value}"),), (fallback,)


def language_settings(language: Language | None) -> LanguageSettings:
    """The options ``language`` calls for, as the families declare them, with fallbacks for what is not installed
    here."""
    if language is None:
        return LanguageSettings(None)
    choices: list[OptionChoice] = []
    fallbacks: list[Fallback] = []
    for family in registry.families():
        for option in family.language_options.get(language, ()):
            chosen, fell_back = _choose(option, family.title)
            choices.extend(chosen)
            fallbacks.extend(fell_back)
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


# ------------------------------------------------------------------------------ scripts and English, for defaults

# Words that make up about two fifths of running English text and are rare as words of other languages written in
# Latin letters ("in", "a" and "I" are left out: German, Italian and Spanish use them too).
_ENGLISH = frozenset({
    "the", "of", "and", "to", "is", "that", "for", "it", "was", "on", "with", "as", "be", "by", "this", "are",
    "at", "from", "have", "or", "not", "an", "but", "his", "they", "which", "you", "we", "has", "were", "their",
    "been", "its", "had", "would", "will", "there", "can", "all", "what", "more", "when", "who", "if", "so",
    "than",
})  # fmt: skip
ENGLISH = 0.08  # share of words among _ENGLISH from which text reads as English (WMT English ~0.34, COCO
# captions ~0.22, German ~0.01)


def _script_of(char: str) -> str:
    """The script a letter belongs to, as the first word of its Unicode name (``LATIN``, ``HEBREW``, ``CJK``);
    kana and Han count as one script (Japanese mixes them)."""
    import unicodedata

    first = unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]
    return "CJK" if first in ("HIRAGANA", "KATAKANA", "CJK") else first


_SCRIPTS: dict[str, str] = {}


def dominant_script(texts: Iterable[str | None], sample: int = SAMPLE_SEGMENTS) -> str | None:
    """The script most letters of the first ``sample`` ``texts`` are written in (``LATIN``, ``HEBREW``, ``CJK``
    …), ``None`` for texts without letters."""
    counts: dict[str, int] = {}
    for text in islice(texts, sample):
        if not text:
            continue
        if text.isascii():
            counts["LATIN"] = counts.get("LATIN", 0) + len(text.encode("ascii").translate(None, _ASCII_NON_LETTERS))
            continue
        for char in text:
            if char.isalpha():
                script = _SCRIPTS.get(char)
                if script is None:
                    script = _SCRIPTS[char] = _script_of(char)
                counts[script] = counts.get(script, 0) + 1
    return max(counts, key=lambda s: counts[s]) if counts else None


def english_share(texts: Iterable[str | None], sample: int = SAMPLE_SEGMENTS) -> float:
    """The share of the words of the first ``sample`` ``texts`` that are among English's commonest (a text reads
    as English from :data:`ENGLISH`); 0 for texts without words."""
    words = common = 0
    for text in islice(texts, sample):
        if not text:
            continue
        tokens = text.lower().split()
        words += len(tokens)
        common += sum(token.strip(".,;:!?\"'()") in _ENGLISH for token in tokens)
    return common / words if words else 0.0
