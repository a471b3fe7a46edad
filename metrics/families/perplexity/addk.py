"""An add-k (Lidstone) smoothed bigram model small enough to read: the Teach page's perplexity lesson.

It follows nltk 3.10's ``nltk.lm.Lidstone(k, 2)`` trained with ``padded_everygram_pipeline`` and scored with
``perplexity(ngrams(pad_both_ends(words, n=2), 2))``: sentences are whitespace tokens padded with one ``<s>`` and
one ``</s>``; the vocabulary V holds every training token (``<s>`` and ``</s>`` included) and ``<UNK>``, which
stands for every unseen word; a word w after h has probability (c(h w) + k) / (c(h ·) + k·|V|), where c(h ·)
counts the bigrams that start with h. The perplexity of a text is exp of the mean negative log-likelihood of its
predicted tokens (every word and the closing ``</s>``), the same number as nltk's 2 ** (mean −log₂ p).

Not a metric of the registry: the family's ``perplexity`` metric uses Witten–Bell or Kneser–Ney. This model exists
so that a student can check every count and probability by hand.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from metrics.families.perplexity.ngram import BOS, EOS

UNK = "<UNK>"


@dataclass(frozen=True)
class BigramEvent:
    """One predicted token: the word as typed, the word as the model saw it (``<UNK>`` when unseen), its context as
    the model saw it, the counts behind its probability and its surprisal −ln p in nats."""

    word: str
    seen: str
    context: str
    pair_count: int  # c(h w)
    context_count: int  # c(h ·)
    probability: float
    surprisal: float


@dataclass(frozen=True)
class AddKBigram:
    """An add-``k`` bigram model: ``vocabulary`` (sorted, with ``<s>``, ``</s>`` and ``<UNK>``), the bigram counts
    and the number of bigrams starting with each context."""

    k: float
    vocabulary: tuple[str, ...]
    pairs: Mapping[tuple[str, str], int]
    contexts: Mapping[str, int]

    def lookup(self, word: str) -> str:
        return word if word in self.vocabulary else UNK

    def probability(self, word: str, context: str) -> float:
        """P(word | context) = (c(h w) + k) / (c(h ·) + k·|V|), both looked up in the vocabulary first."""
        h, w = self.lookup(context), self.lookup(word)
        return (self.pairs.get((h, w), 0) + self.k) / (self.contexts.get(h, 0) + self.k * len(self.vocabulary))

    def events(self, tokens: Sequence[str]) -> tuple[BigramEvent, ...]:
        """Every token of the padded sentence after ``<s>``, scored in its context."""
        padded = [BOS, *tokens, EOS]
        found = []
        for before, word in zip(padded, padded[1:], strict=False):
            h, w = self.lookup(before), self.lookup(word)
            p = self.probability(word, before)
            found.append(BigramEvent(word, w, h, self.pairs.get((h, w), 0), self.contexts.get(h, 0), p, -math.log(p)))
        return tuple(found)


def train(sentences: Sequence[Sequence[str]], k: float) -> AddKBigram:
    """The model of ``sentences`` (lists of tokens), each padded with ``<s>`` and ``</s>``."""
    if k <= 0:
        raise ValueError("k must be positive: with k = 0 an unseen bigram has probability 0 and the perplexity is ∞")
    pairs: Counter[tuple[str, str]] = Counter()
    words: set[str] = set()
    for sentence in sentences:
        padded = [BOS, *sentence, EOS]
        words.update(padded)
        pairs.update(zip(padded, padded[1:], strict=False))
    if not pairs:
        raise ValueError("give at least one training sentence")
    contexts: Counter[str] = Counter()
    for (h, _), c in pairs.items():
        contexts[h] += c
    return AddKBigram(k, tuple(sorted(words | {UNK})), dict(pairs), dict(contexts))


def perplexity(events: Sequence[BigramEvent]) -> float:
    """exp of the mean surprisal (negative log-likelihood in nats) of ``events``."""
    if not events:
        raise ValueError("no tokens to score")
    return math.exp(sum(e.surprisal for e in events) / len(events))
