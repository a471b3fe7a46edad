"""The perplexity lesson: an add-k bigram model trained on a typed text (every count and probability on screen),
then the perplexity of another text as exp of the mean negative log-likelihood, and its reading as a branching
factor — read from :mod:`metrics.families.perplexity.addk`, which equals nltk's ``Lidstone(k, 2)``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from metrics.families.perplexity.addk import AddKBigram, perplexity, train
from rendering.lessons.corpus import lines
from rendering.teach import Lesson, Step, Table, aligned, latex_text, sum_lines, tex

MAX_TERMS = 12  # a sum written out term by term beyond this is unreadable: the formula shows its total


@dataclass(frozen=True)
class PerplexityExample:
    training: str
    test: str
    k: float


EXAMPLE = PerplexityExample(
    "the cat sat on the mat\nthe dog sat on the log\na cat saw a dog",
    "the cat sat on the log\na bird sat on the mat",
    1.0,
)


def _counts_table(model: AddKBigram) -> pd.DataFrame:
    rows = [
        {"h": h, "w": w, "c(h w)": c, "c(h ·)": model.contexts[h], "P(w | h)": model.probability(w, h)}
        for (h, w), c in sorted(model.pairs.items())
    ]
    return pd.DataFrame(rows)


def perplexity_lesson(training_text: str, test_text: str, k: float) -> Lesson:
    training = [line.split() for line in lines(training_text)]
    tests = [line.split() for line in lines(test_text)]
    if not tests:
        raise ValueError("type a text to score, one sentence per line")
    model = train(training, k)
    v = len(model.vocabulary)
    events = [e for sentence in tests for e in model.events(sentence)]
    nll = [e.surprisal for e in events]
    mean = sum(nll) / len(nll)
    pp = perplexity(events)
    numbers: dict[str, float] = {"|V|": v, "k": k}
    token_rows = []
    for i, e in enumerate(events):
        token_rows.append(
            {
                "#": i + 1,
                "context h": e.context,
                "word w": e.word if e.word == e.seen else f"{e.word} → {e.seen}",
                "c(h w)": e.pair_count,
                "c(h ·)": e.context_count,
                "P(w | h)": e.probability,
                "−ln P": e.surprisal,
                "1/P": 1 / e.probability,
            }
        )
        numbers[f"P(token {i + 1})"] = e.probability
    first = events[0]
    steps = [
        Step(
            "1. Count the bigrams of the training text",
            f"Each training sentence is padded with `<s>` and `</s>` and cut into bigrams (h, w). The vocabulary "
            f"holds {v} types: the training words, `<s>`, `</s>` and `<UNK>`, which stands for every word the "
            "training text never shows. c(h ·) counts the bigrams that start with h.",
            tables=(
                Table("bigram counts", _counts_table(model)),
                Table("vocabulary", pd.DataFrame({"type": model.vocabulary})),
            ),
        ),
        Step(
            "2. Add-k smoothing: a probability for every word after every context",
            f"Adding k = {tex(k)} to every count gives unseen bigrams a little probability; the denominator grows by "
            f"k·|V| = {tex(k * v)} so the probabilities after each context still sum to 1. An unseen word is scored as "
            "`<UNK>`.",
            formulas=(
                r"P(w \mid h) = \frac{c(h\,w) + k}{c(h\,\cdot) + k\,|V|}",
                rf"P({latex_text(first.seen)} \mid {latex_text(first.context)}) = "
                rf"\frac{{{first.pair_count} + {tex(k)}}}{{{first.context_count} + {tex(k)} \cdot {v}}} = "
                rf"{tex(first.probability)}",
            ),
        ),
        Step(
            "3. Score the text token by token",
            f"{len(tests)} sentence(s), {len(events)} predicted tokens (every word and each closing `</s>`). The "
            "surprisal −ln P is the negative log-likelihood of a token, in nats.",
            tables=(Table("tokens", pd.DataFrame(token_rows)),),
        ),
    ]
    terms = [tex(x) for x in nll] if len(nll) <= MAX_TERMS else [tex(sum(nll))]
    steps.append(
        Step(
            "4. Perplexity = exp(mean negative log-likelihood)",
            "The mean surprisal per token, exponentiated. nltk computes the same number in bits, 2 to the mean −log₂ P.",
            formulas=(
                r"PP = \exp\Big(-\frac{1}{N}\sum_{i=1}^{N} \ln P(w_i \mid w_{i-1})\Big)",
                aligned(
                    r"\frac{1}{N}\sum_i -\ln P",
                    rf"\frac{{1}}{{{len(nll)}}}\big({sum_lines(terms, 4)}\big)",
                    tex(mean),
                ),
                rf"PP = e^{{{tex(mean)}}} = {tex(pp)}",
            ),
        )
    )
    numbers["mean NLL (nats)"] = mean
    geometric = math.exp(sum(math.log(1 / e.probability) for e in events) / len(events))
    steps.append(
        Step(
            "5. Reading it as a branching factor",
            f"Perplexity is the geometric mean of 1/P over the tokens: the model is as uncertain as if it chose "
            f"each word uniformly among {pp:.2f} words. A model that knows nothing — the same probability 1/|V| for "
            f"every type — has perplexity |V| = {v}; a model that predicts every word with certainty has 1. Lower "
            "is better, and only models with the same vocabulary and tokens compare.",
            formulas=(
                r"PP = \Big(\prod_i \frac{1}{P(w_i \mid w_{i-1})}\Big)^{1/N}" + rf" = {tex(geometric)}",
                rf"P = \frac{{1}}{{|V|}} \text{{ for every token}} \;\Rightarrow\; PP = |V| = {v}",
                rf"\frac{{PP}}{{|V|}} = \frac{{{tex(pp)}}}{{{v}}} = {tex(pp / v)}",
            ),
        )
    )
    numbers["perplexity"] = pp
    return Lesson(
        "Perplexity (add-k bigram)",
        pp,
        f"{pp:.4f}",
        tuple(steps),
        numbers,
        f"PP = exp({mean:.4f}) = {pp:.4f} over {len(events)} tokens, |V| = {v}, k = {k:g}",
        notes=("The model equals nltk 3.10's nltk.lm.Lidstone(k, 2) trained with padded_everygram_pipeline.",),
    )
