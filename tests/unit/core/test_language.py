"""CJK references get what their language calls for (as sacrebleu's -l picks it), visibly, never over the user."""

from __future__ import annotations

import pytest
import regex
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import TER as SacreTER

import metrics.core.config as config_module
from metrics.core.language import (
    ISALPHA_BELOW,
    ISALPHA_EXCEPT,
    Language,
    apply_language,
    detect_language,
    language_settings,
    length_unit,
    text_length,
)
from metrics.core.registry import create
from metrics.core.selection import Selection
from tests.support.corpora import slice_corpus
from tests.support.parity import rel_close

KOREAN = [
    ["오늘은 날씨가 정말 좋습니다.", "저는 어제 도서관에서 책을 세 권 빌렸어요.", "회의는 3시에 시작합니다 (Room B)."]
]


@pytest.mark.parametrize(
    ("corpus", "language"),
    [("wmt22-en-zh", Language.CHINESE), ("wmt22-en-ja", Language.JAPANESE), ("wmt22-de-en", None), ("cnndm", None)],
)
def test_the_script_of_real_references_names_the_language(corpus, language):
    counts = detect_language(slice_corpus(corpus).refs)
    assert counts.language is language
    if language is Language.CHINESE:
        assert counts.kana == 0 and counts.han / counts.letters > 0.9
        assert counts.describe().startswith("Chinese (9") and "Han characters" in counts.describe()


def test_korean_mixed_with_latin_and_japanese_with_kanji():
    assert detect_language(KOREAN).language is Language.KOREAN
    assert detect_language([["東京は日本の首都です。"]]).language is Language.JAPANESE  # kana tell it from Chinese
    assert detect_language([["北京是中国的首都。"]]).language is Language.CHINESE
    assert detect_language([["", None, "12 345"]]).language is None  # no letters at all


def test_choices_are_sacrebleus_for_bleu_and_split_cjk_for_ter():
    zh = language_settings(Language.CHINESE)
    assert [c.setting for c in zh.choices] == ["bleu.tokenize=zh", "ter.normalized=true", "ter.asian_support=true"]
    assert zh.fallbacks == ()
    assert "sacrebleu's choice for -l xx-zh" in zh.summary()
    assert "ter.normalized=true, ter.asian_support=true (TER splits CJK characters" in zh.summary()
    ko = language_settings(Language.KOREAN)
    assert [c.setting for c in ko.choices] == ["bleu.tokenize=ko-mecab"]  # Hangul is space-separated
    assert language_settings(None).choices == ()
    # sacrebleu's map from target language to tokenizer, read from its source
    assert {lang.value: language_settings(lang).choices[0].value for lang in Language} == SacreBLEU._TOKENIZER_MAP


def test_a_missing_mecab_falls_back_visibly(monkeypatch):
    monkeypatch.setattr(config_module, "_module_found", lambda module: module not in {"MeCab", "mecab_ko"})
    ja = language_settings(Language.JAPANESE)
    assert ja.choices[0].setting == "bleu.tokenize=char"
    assert len(ja.fallbacks) == 1 and "ja-mecab needs MeCab (pip install 'scorelens[ja]')" in ja.fallbacks[0].text
    assert "BLEU uses char instead" in ja.summary()
    ko = language_settings(Language.KOREAN)
    assert ko.choices == () and "BLEU uses 13a instead" in ko.summary()


def test_the_users_options_win_and_only_chosen_families_are_touched():
    zh = language_settings(Language.CHINESE)
    options, applied = apply_language(zh, {"bleu": {"tokenize": "intl"}}, {"bleu", "ter", "chrf"})
    assert options == {"bleu": {"tokenize": "intl"}, "ter": {"normalized": True, "asian_support": True}}
    assert [c.setting for c in applied.choices] == ["ter.normalized=true", "ter.asian_support=true"]
    options, applied = apply_language(zh, {}, {"chrf"})
    assert options == {} and applied.choices == ()


def test_chinese_bleu_and_ter_equal_sacrebleu_with_the_same_choices():
    corpus = slice_corpus("wmt22-en-zh")
    options, _ = apply_language(language_settings(Language.CHINESE), {}, {"bleu", "ter"})
    metrics = Selection(("bleu", "ter"), options).build()
    hyps, refs = corpus.systems["Online-B"][:60], [r[:60] for r in corpus.refs]
    theirs = SacreBLEU(trg_lang="zh")  # what `sacrebleu -l en-zh` builds
    assert rel_close(metrics["bleu"].score(hyps, refs), theirs.corpus_score(hyps, refs).score)
    assert "nrefs:2|" + metrics["bleu"].signature() == theirs.get_signature().format()
    ter = SacreTER(normalized=True, asian_support=True)
    assert rel_close(metrics["ter"].score(hyps, refs), ter.corpus_score(hyps, refs).score)
    assert "norm:yes" in metrics["ter"].signature() and "asian:yes" in metrics["ter"].signature()
    # the default 13a BLEU treats a whole unspaced clause as one token: a different number from sacrebleu's for zh
    assert metrics["bleu"].score(hyps, refs) - create("bleu").score(hyps, refs) > 20


def test_lengths_count_characters_for_chinese_and_japanese():
    assert length_unit(Language.CHINESE) == length_unit(Language.JAPANESE) == "characters"
    assert length_unit(Language.KOREAN) == length_unit(None) == "words"
    assert text_length("我爱 北京。", "characters") == 5
    assert text_length("the cat  sat", "words") == 3


def test_ascii_text_counts_the_letters_the_pattern_counts() -> None:
    """An ASCII reference takes a shortcut past the regular expressions; it must count what ``\\p{L}`` counts."""
    ascii_text = "".join(chr(c) for c in range(1, 128)) + " Don't 42 x-ray_7"
    mixed = "日本語のテキスト and Latin"
    counts = detect_language([[ascii_text, mixed]])
    assert counts.letters == len(regex.findall(r"\p{L}", ascii_text)) + len(regex.findall(r"\p{L}", mixed)) == 76
    assert (counts.han, counts.kana) == (3, 5)


def test_below_the_cjk_radicals_isalpha_is_the_letter_pattern_and_no_character_is_cjk() -> None:
    """Text below ``ISALPHA_BELOW`` without a character of ``ISALPHA_EXCEPT`` is counted with ``str.isalpha`` and
    without the script patterns: on every such code point the two agree and none is Han, kana or Hangul."""
    letter = regex.compile(r"\p{L}")
    counted = [chr(c) for c in range(ord(ISALPHA_BELOW)) if not ISALPHA_EXCEPT.match(chr(c))]
    assert len(counted) == 0x2E80 - 256 - 12  # the jamo and the twelve newer letters
    assert [c for c in counted if c.isalpha() != bool(letter.match(c))] == []
    assert regex.findall(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]", "".join(counted)) == []
    european = "Ελληνικά, кириллица, Ærøskøbing, Ǆ and ǅ: 7 × ½ – “€” ’"
    counts = detect_language([[european, "ok", "\u1100\u1161 \u0558"]])
    assert (counts.letters, counts.han, counts.kana, counts.hangul) == (37, 0, 0, 2)
