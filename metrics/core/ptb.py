"""PTB tokenization as the COCO caption evaluation runs it (pycocoevalcap ``PTBTokenizer``), in Python.

pycocoevalcap writes every caption on a line of its own (newlines inside a caption become spaces), runs Stanford
CoreNLP 3.4.1's ``edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase`` in Java over the file, and
drops the tokens of its ``PUNCTUATIONS`` list. This module gives the same tokens without Java, each with the span
of the caption it was cut from; ``scripts/build_ptb_golden.py`` measures the Java tokenizer on real captions and
hard cases and ``tests/parity/cider/test_ptb.py`` holds us to it.

How the Java tokenizer behaves (learnt by running it, recorded here because it is not obvious):

* It is a longest-match lexer: at each position the rule matching the longest text wins, earlier rules win ties.
  Some rules look ahead (a quote is an opening quote when a letter and a non-space follow it), and the look-ahead
  counts towards the length that decides between rules, though the token stops before it.
* Tokens are rewritten PTB-style: ``"`` → ``\\`\\``` or ``''``, ``(`` → ``-LRB-`` (``-lrb-`` once lowercased,
  so pycocoevalcap's filter, which lists ``-LRB-``, keeps it), ``—`` → ``--``, ``....`` → ``...``, ``£`` → ``#``,
  ``½`` → ``1/2``, contractions split (``can't`` → ``ca n't``, ``cannot`` → ``can not``), a space inside a
  fraction or a phone number becomes U+00A0 (pycocoevalcap keeps it inside the token; CIDEr's ``split()`` then
  splits there).
* Characters no rule knows (emoji, for one) are dropped.
* Whether an abbreviation keeps its period depends on the text after it, and with ``-preserveLines`` that text is
  the *next caption* in pycocoevalcap's file: ``letter A.`` followed by a line opening with one of some 40
  sentence-opening words (``A man ...``, ``The ...``) gives ``a .``, not ``a.``. :func:`ptb_tokenize_lines` tokenizes captions as one stream like the Java run does, so the
  order of the captions matters exactly as it does there.
* Java also ends a line at ``\\r``, U+2028/2029 and U+000B/000C, which shifts every later caption in
  pycocoevalcap (a bug); here they are spaces, as pycocoevalcap does for ``\\n``. (U+0085 is an ellipsis.)

Tested equal to Java, raw tokens included, on 94,748 lines: COCO captions, news and talk sentences in English,
German, Hebrew, Chinese and Japanese. Rules never met there (phone numbers, SGML, rarer scripts' marks) are modelled
on what probing the Java tokenizer showed, and may still differ.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from metrics.core.tokens import Token

# pycocoevalcap.tokenizer.ptbtokenizer.PUNCTUATIONS, compared with the lowercased tokens as pycocoevalcap does (so
# "-LRB-" and the other upper-case entries never match and bracket tokens stay).
PUNCTUATIONS = frozenset(
    ("''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-", "--", "...", ";")
)

_SPACE = " \t\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u3000"
_LINE_BREAKS = "\n\r\u2028\u2029\u000b\u000c"
_SPACES = re.compile(f"[{_SPACE}{_LINE_BREAKS}]+")

# Python's \w also holds numeric characters that are neither letters nor digits to Java (½, ², Ⅻ); they are
# tokens of their own there.
_NUMERIC = "\u00b2\u00b3\u00b9\u00bc-\u00be\u2070-\u209f\u2150-\u218f\u2460-\u24ff\u2776-\u2793"
# Java's letters also take combining marks (decomposed ä, Hebrew points) and the soft hyphen, which it deletes.
_MARKS = (
    "\u00ad\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a"
    "\u064b-\u065f\u0670\u06d6-\u06ed\u0900-\u0903\u093a-\u094f\u0951-\u0957\u0962\u0963\u0981-\u0983"
    "\u09bc-\u09d7\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
)
L = rf"(?:(?![{_NUMERIC}])[^\W\d_]|[{_MARKS}])"  # a letter ([:letter:])
LD = rf"(?:(?![{_NUMERIC}])[^\W_]|[{_MARKS}])"  # a letter or a digit
APOS = r"(?:['\u0092\u2019]|&apos;)"
APOSETC = r"(?:['\u0092\u2019`\u0091\u2018\u201b]|&apos;)"
HYPHEN = r"[-_\u058a\u2010\u2011]"
NUM = r"(?:\d*(?:[.:,\u00ad\u066b\u066c]\d+)+|\d+)"
ACRO = r"(?:[A-Za-z](?:\.[A-Za-z])+|(?:Canada|Sino|Korean|EU|Japan|non)-U\.S|U\.S\.-(?:U\.K|U\.S\.S\.R))"
ABMONTH = r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
ABDAYS = r"Mon|Tue|Tues|Wed|Thu|Thurs|Fri"
ABSTATE = (
    r"Ala|Ariz|(?-i:A)rk|Calif|Colo|Conn|Ct|Dak|(?-i:D)el|Fla|Ga|(?-i:I)ll|Ind|Kans?|Ky|La|(?-i:M)ass|Md|Mich|Minn|"
    r"(?-i:M)iss|Mo|Mont|Neb|Nev|Okla|(?-i:O)re|(?-i:P)a|Penn|Tenn|(?-i:T)ex|Va|Vt|(?-i:W)ash|Wisc?|Wyo"
)
ABCOMP = r"Inc|Cos?|Corp|Pp?t[ye]s?|Ltd|Plc|Rt|Bancorp|Dept|Bhd|Assn|Univ|Intl|Sys"
ABPTIT = r"Jr|Sr|Bros|(?:Ed|Ph)\.D|Blvd|Rd|Esq"
ABBREV1 = rf"(?:{ABMONTH}|{ABDAYS}|{ABSTATE}|{ABCOMP}|tel|est|ext|sq|{ABPTIT}|etc|al|seq|Bldg)\."
ABTITLE = (
    r"Adv|Mr|Mrs|Ms|(?-i:M)iss|Drs?|Profs?|Sens?|Reps?|Attys?|Lt|Col|Gen|Messrs|Govs?|Adm|Rev|Maj|Sgt|Cpl|Pvt|Capt|Ste?|Ave|"
    r"Pres|Lieut|Hon|Brig|Co?mdr|Pfc|Spc|Supts?|Det|M|Mme|Mlle|Mlles"
)
ABBREV2 = rf"(?:[A-Za-z]|{ABTITLE}|ft|Mt|vs|[Aa]lex|Wm|Jos|Cie|a\.k\.a|cf|TREAS|Ph|{ACRO}|Invt|Elec|Natl|M[ft]g)\."
SENTEND = rf"[{_SPACE}\n](?:[{_SPACE}\n]|(?-i:[A-Z]))"  # after an abbreviation, the end of a sentence
# Words that make a single letter's period a full stop when they follow it (``letter A. The dog`` → ``a .``),
# measured over the 33,784 distinct words of the COCO and CNN/DailyMail references, capitalized and in capitals.
_STARTERS = [
    "A",
    "About",
    "According",
    "After",
    "An",
    "As",
    "At",
    "But",
    "Earlier",
    "He",
    "Her",
    "Here",
    "However",
    "If",
    "In",
    "It",
    "Last",
    "Many",
    "More",
    "Now",
    "Once",
    "One",
    "Other",
    "Our",
    "She",
    "Since",
    "So",
    "Some",
    "Such",
    "That",
    "The",
    "Their",
    "Then",
    "There",
    "These",
    "They",
    "This",
    "We",
    "What",
    "When",
    "While",
    "Yet",
    "You",
]
STARTER = "|".join(sorted({*_STARTERS, *(w.upper() for w in _STARTERS)}, key=len, reverse=True))

# Characters that stand alone as a token of their own, unchanged.
MISC = (
    r"[+%&~^|\\\u00a6\u00a7\u00a8\u00a9\u00ac\u00ae\u00af\u00b0-\u00ba\u00d7\u00f7\u2016\u2017\u2020-\u2023"
    r"\u2030-\u2038\u203b\u203e-\u2042\u2044\u207a-\u207f\u208a-\u208e\u2100-\u214f\u2190-\u21ff\u2200-\u2bff"
    r"\u3012\u30fb\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65=/<>\u201e\u201a\u2032\u2033"
    r"\u0387\u05be\u05c0\u05c3\u05c6\u05f3\u05f4\u0600-\u0603\u0606-\u060a\u060c\u0614\u061b\u061e\u066a\u066d"
    r"\u0703-\u070d\u07f6-\u07f8\u0964\u0965\u0e4f\u1fbd\u02da\u3002]"
)

_BRACKETS = {"(": "-LRB-", ")": "-RRB-", "{": "-LCB-", "}": "-RCB-", "[": "-LSB-", "]": "-RSB-"}
_FRACTIONS = {
    "\u00bc": "1/4",
    "\u00bd": "1/2",
    "\u00be": "3/4",
    "\u2153": "1/3",
    "\u2154": "2/3",
    "\u2155": "1/5",
    "\u2156": "2/5",
    "\u2157": "3/5",
    "\u2158": "4/5",
    "\u2159": "1/6",
    "\u215a": "5/6",
    "\u215b": "1/8",
    "\u215c": "3/8",
    "\u215d": "5/8",
    "\u215e": "7/8",
}
_CURRENCY = {"\u00a2": "cents", "\u00a3": "#", "\u20ac": "$", "\u0080": "$"}
_QUOTES = {
    "\u2018": "`",
    "\u201b": "`",
    "\u0091": "`",
    "\u2039": "`",
    "\u2019": "'",
    "\u0092": "'",
    "\u203a": "'",
    "\u201c": "``",
    "\u201f": "``",
    "\u0093": "``",
    "\u00ab": "``",
    "\u201d": "''",
    "\u0094": "''",
    "\u00bb": "''",
}


def _same(text: str) -> str:
    return text


def _nbsp(text: str) -> str:
    return text.replace(" ", "\u00a0")


def _apostrophe(text: str) -> str:
    return re.sub(APOS, "'", text)


def _quotes(text: str) -> str:
    return "".join(_QUOTES.get(c, c) for c in text.replace("&apos;", "'"))


def _brackets(text: str) -> str:
    return "".join(_BRACKETS.get(c, c) for c in text)


@dataclass(frozen=True)
class _Rule:
    """One lexer rule: ``pattern`` must match at the position; the text of its group ``tok`` (or all of it) is
    the token, the rest is look-ahead that counts for the longest match only."""

    pattern: re.Pattern[str]
    output: Callable[[str], str]
    full_stop: bool


def _rule(pattern: str, output: Callable[[str], str] = _same, flags: int = 0, full_stop: bool = False) -> _Rule:
    return _Rule(re.compile(pattern, flags), output, full_stop)


# In the order of precedence for matches of equal length.
_RULES: tuple[_Rule, ...] = (
    _rule(r"<\/?[A-Za-z!?][^>\r\n]*>", _nbsp),  # SGML tag
    _rule(r"&(?:MD|mdash|ndash);|[\u0096\u0097\u2013\u2014\u2015]", lambda _: "--"),
    _rule(r"&amp;", lambda _: "&"),
    _rule(r"&(?:HT|TL|UR|LR|QC|QL|QR|odq|cdq|#[0-9]+);"),
    # contractions: the word before n't, then n't
    _rule(rf"(?P<tok>[A-Za-z\u00ad]*[A-MO-Za-mo-z]\u00ad*)n{APOSETC}t", flags=re.IGNORECASE),
    _rule(rf"n{APOSETC}t", _apostrophe, flags=re.IGNORECASE),
    _rule(r"(?P<tok>can)not|(?P<tok2>gon|wan)na|(?P<tok3>got)ta|(?P<tok4>lem|gim)me", flags=re.IGNORECASE),
    _rule(rf"(?P<tok>{APOS}t)(?:is|was)\b", flags=re.IGNORECASE),
    # a word before 's 'm 'd 're 've 'll
    _rule(rf"(?P<tok>{L}(?:{L}|\d)*){APOS}(?:[msd]|re|ve|ll)(?![A-Za-z])", flags=re.IGNORECASE),
    # words
    _rule(rf"{L}(?:{L}|\d)*(?:[.!?]{L}(?:{L}|\d)*)*"),
    _rule(rf"(?P<tok>{L}(?:{L}|\d)*(?:[.!?]{L}(?:{L}|\d)*)*\.)[,;:\u3001]"),
    _rule(
        rf"(?:[dDoOlL]{APOSETC}{LD})?{LD}+(?:{HYPHEN}(?:[dDoOlL]{APOSETC}{LD})?{LD}+)*"
    ),  # hyphenated words, numbers with letters
    _rule(r"[A-Za-z0-9]+(?:-[A-Za-z]+)*(?:/[A-Za-z0-9]+(?:-[A-Za-z]+)*)+"),  # and/or, walk-in/drive-in (ASCII only)
    _rule(r"[A-Z]+(?:(?:[+&]|&amp;)[A-Z]+)+"),  # AT&T
    _rule(rf"{LD}[A-Za-z0-9.,\u00ad]*(?:-(?:{ACRO}\.|[A-Za-z0-9\u00ad]+))+"),  # 3.69-carat
    # words with an apostrophe inside (each its own rule: the longest match must win, not the first alternative)
    *(
        _rule(pattern, flags=re.IGNORECASE)
        for pattern in (
            rf"{APOS}n{APOS}?",
            rf"Dunkin{APOS}|somethin{APOS}|ol{APOS}|{APOS}em|{APOS}till?|{APOS}cause",
            r"cont'd\.?|'twas|nor'easter|c'mon|e'er|s'mores|ev'ry|li'l|nat'l",
        )
    ),
    _rule(rf"[lLdDjJ]{APOS}"),
    _rule(rf"[A-HJ-XZn]{APOSETC}{L}{{2}}{L}*"),
    _rule(rf"{APOS}[2-9]0s"),
    _rule(rf"{L}+[aeiouyAEIOUY]{APOSETC}[aeiouA-Z]{L}*"),
    _rule(rf"O{APOSETC}o"),
    _rule(rf"[yY]{APOS}"),
    _rule(rf"(?P<tok>{APOS}[0-9][0-9])[{_SPACE}\n]"),
    _rule(r"c\+\+|[cf]#", flags=re.IGNORECASE),
    _rule(
        rf"-(?:RRB|LRB|RCB|LCB|RSB|LSB)-|C\.D\.s|pro-|anti-|S(?:&|&amp;)P-500|S(?:&|&amp;)Ls|Cap{APOS}n|c{APOS}est",
        flags=re.IGNORECASE,
    ),
    # numbers
    _rule(rf"[-+]?{NUM}"),
    _rule(r"(?:\d{1,4}[- \u00a0])?\d{1,4}(?:\\?/|\u2044)\d{1,4}", _nbsp),
    _rule(r"\d{1,2}[-/]\d{1,2}[-/]\d{2,4}"),
    _rule(
        r"(?:\([0-9]{2,3}\)[ \u00a0]?|(?:\+\+?)?(?:[0-9]{2,4}[- \u00a0])?[0-9]{2,4}[- \u00a0/])[0-9]{3,4}[- \u00a0]?"
        r"[0-9]{3,5}|(?:(?:\+\+?)?[0-9]{2,4}\.)?[0-9]{2,4}\.[0-9]{3,4}\.[0-9]{3,5}",
        lambda t: _nbsp(_brackets(t)),
    ),
    _rule("[\u00bc\u00bd\u00be\u2153-\u215e]", lambda t: _FRACTIONS[t]),
    # currency
    _rule(r"[A-Z]*\$|#", flags=re.IGNORECASE),
    _rule(
        "[\u00a2\u00a3\u00a4\u00a5\u0080\u20a0\u20ac\u060b\u0e3f\u20a4\uffe0\uffe1\uffe5\uffe6]",
        lambda t: _CURRENCY.get(t, t),
    ),
    # web
    _rule(r"https?://[^ \t\n\f\r\"<>|()]+[^ \t\n\f\r\"<>|.!?(){},-]"),
    _rule(
        r"(?:(?:www\.(?:[^ \t\n\f\r\"<>|.!?(){},]+\.)+[a-zA-Z]{2,4})|(?:(?:[^ \t\n\f\r\"`'<>|.!?(){},-_$]+\.)+"
        r"(?:com|net|org|edu)))(?:/[^ \t\n\f\r\"<>|()]+[^ \t\n\f\r\"<>|.!?(){},-])?"
    ),
    _rule(r"[a-zA-Z0-9][^ \t\n\f\r\"<>|()\u00a0]*@(?:[^ \t\n\f\r\"<>|().\u00a0]+\.)*(?:[^ \t\n\f\r\"<>|().\u00a0]+)"),
    _rule(r"@[a-zA-Z_][a-zA-Z_0-9]*"),
    _rule(rf"#{L}(?:{L}|\d)*(?:[.!?]{L}(?:{L}|\d)*)*"),
    # abbreviations
    # Java repeats the period of an abbreviation that ends a sentence as a "." token of its own
    _rule(rf"(?P<tok>{ABBREV1}){SENTEND}", flags=re.IGNORECASE, full_stop=True),
    _rule(ABBREV1, flags=re.IGNORECASE),
    _rule(rf"(?P<tok>{ACRO}\.)[{_SPACE}\n]+(?:{STARTER})[{_SPACE}\n]", full_stop=True),
    _rule(rf"(?P<tok>[A-Za-z])\.[{_SPACE}\n]+(?:{STARTER})[{_SPACE}\n]"),
    _rule(ABBREV2, flags=re.IGNORECASE),
    _rule(rf"{ACRO}\."),
    _rule(rf"(?P<tok>(?:ca|figs?|prop|nos?|art|bldg|pp|op)\.)[{_SPACE}]*\d", flags=re.IGNORECASE),
    # punctuation
    _rule(r"\.{3,5}|[\u0085\u2026]", lambda _: "..."),  # a sixth dot is a token of its own
    _rule(r"\.[ \u00a0](?:\.[ \u00a0])+\.", lambda _: "..."),  # ". . ."
    _rule(r"[,;:\u3001]"),
    _rule(r"\.|[?!]+"),
    _rule(r"--+", lambda _: "--"),
    _rule(r"-"),
    _rule(rf"(?P<tok>{APOS}(?:[msd]|re|ve|ll))[^A-Za-z]", _apostrophe, flags=re.IGNORECASE),
    _rule(r"(?P<tok>\"|&quot;)[A-Za-z0-9$]", lambda _: "``"),
    _rule(r"\"|&quot;", lambda _: "''"),
    _rule(r"(?P<tok>')[A-Za-z][^\s]", lambda _: "`"),
    _rule(rf"{APOS}(?:[msd]|re|ve|ll)", _apostrophe, flags=re.IGNORECASE),
    _rule("''|[`\u2018-\u201f\u0082\u0084\u0091-\u0094\u2039\u203a\u00ab\u00bb]{1,2}|'|&apos;", _quotes),
    _rule(r"(?P<tok>[<>]?[:;=][-o*']?[()DPdpO\\{@|\[\]])[^A-Za-z0-9]", _brackets),  # smileys
    _rule(
        r"[\^x=~<>]\.\[\^x=~<>]|[-\^x=~<>']_[-\^x=~<>']|\([-\^x=~<>'][_.]?[-\^x=~<>']\)|\([\^x=~<>'][-\^x=~<>']"
        r"[\^x=~<>']\)"
    ),
    _rule(r"[(){}\[\]]", _brackets),
    _rule(r"<<|>>|&lt;|&gt;", lambda t: {"&lt;": "<", "&gt;": ">"}.get(t, t)),
    _rule(r"@+|#+|_+"),
    _rule(r"\*+|(?:\\\*){1,3}"),
    _rule(MISC),
)

_GROUPS = ("tok", "tok2", "tok3", "tok4")
# Most tokens are plain words before a space, which no rule but WORD matches in full (every other rule needs a
# character that is not a letter), except the words that are split as "can not": these skip the rules.
_PLAIN = re.compile(rf"[A-Za-z]+(?=[{_SPACE}\n]|\Z)")
_SPLIT_WORDS = frozenset(("cannot", "gonna", "wanna", "gotta", "lemme", "gimme"))


def _token_end(match: re.Match[str]) -> int:
    """Where the token of a match ends: the end of its ``tok*`` group, or of the match when it has none."""
    for name in _GROUPS:
        if name in match.re.groupindex and match.group(name) is not None:
            return match.end(name)
    return match.end()


def _lex(text: str) -> list[tuple[str, int, int]]:
    """(token text, start, end) of every token of ``text``, longest match first, in order."""
    tokens = []
    pos = 0
    size = len(text)
    while pos < size:
        space = _SPACES.match(text, pos)
        if space is not None:
            pos = space.end()
            continue
        plain = _PLAIN.match(text, pos)
        if plain is not None and plain.group().lower() not in _SPLIT_WORDS:
            tokens.append((plain.group(), pos, plain.end()))
            pos = plain.end()
            continue
        best: re.Match[str] | None = None
        best_rule: _Rule | None = None
        for rule in _RULES:
            match = rule.pattern.match(text, pos)
            if match is not None and match.end() > pos and (best is None or match.end() > best.end()):
                best, best_rule = match, rule
        if best is None or best_rule is None:
            pos += 1  # a character no rule knows is dropped, as the Java tokenizer does
            continue
        end = _token_end(best)
        tokens.append((best_rule.output(text[pos:end]).replace("\u00ad", ""), pos, end))
        if best_rule.full_stop:
            tokens.append((".", end - 1, end))
        pos = end
    return tokens


@dataclass(frozen=True)
class PtbLine:
    """One caption tokenized: every Java token (``raw``) and the tokens pycocoevalcap keeps (``tokens``)."""

    raw: tuple[Token, ...]
    tokens: tuple[Token, ...]

    @property
    def text(self) -> str:
        """The caption as pycocoevalcap passes it to a scorer: kept tokens joined by spaces."""
        return " ".join(t.text for t in self.tokens)


def ptb_tokenize_lines(lines: Sequence[str]) -> list[PtbLine]:
    """Tokenize captions as pycocoevalcap does, one stream in this order (see the module docstring).

    Offsets index each caption as given; a token's text is lowercased and PTB-rewritten, so it can differ from
    the text its span covers (``"`` → ``\\`\\```).
    """
    # A newline inside a caption is a space for pycocoevalcap; the other line breaks Java knows are spaces here.
    flat = [re.sub(f"[{_LINE_BREAKS}]", " ", line) for line in lines]
    starts = []
    offset = 0
    for line in flat:
        starts.append(offset)
        offset += len(line) + 1
    out: list[list[Token]] = [[] for _ in flat]
    index = 0
    for text, start, end in _lex("\n".join(flat)):
        while index + 1 < len(starts) and start >= starts[index + 1]:
            index += 1
        base = starts[index]
        out[index].append(Token(text.lower(), start - base, end - base))
    return [PtbLine(tuple(raw), tuple(t for t in raw if t.text not in PUNCTUATIONS)) for raw in out]


def ptb_tokenize(text: str) -> PtbLine:
    """Tokenize one caption on its own (as the last line of pycocoevalcap's file)."""
    return ptb_tokenize_lines([text])[0]
