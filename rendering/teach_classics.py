"""Preloaded classics for the teaching page: the textbook examples whose numbers every course quotes.

Each classic names the metrics it illustrates and the numbers it should reproduce (``expect``), which the page shows
beside the derivation and the tests check against the derivation itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Classic:
    key: str
    title: str
    hyp: str
    refs: tuple[str, ...]
    metrics: tuple[str, ...]
    expect: str
    source: str


_CAT_REFS = ("the cat is on the mat", "there is a cat on the mat")
_MAT = ("the cat sat on the mat",)
_ROUGE_ALL = ("rouge1", "rouge2", "rougeL", "rougeLsum")

CLASSICS: tuple[Classic, ...] = (
    Classic(
        "bleu-cat",
        "BLEU: “the cat the cat on the mat”",
        "the cat the cat on the mat",
        _CAT_REFS,
        ("bleu", "chrf", "chrf++", *_ROUGE_ALL, "meteor", "ter", "cider"),
        "p1 = 5/7, p2 = 2/3 (then p3 = 2/5, p4 = 1/4, BP = 1: BLEU = 46.71)",
        "the standard textbook example after Papineni et al. (2002)",
    ),
    Classic(
        "bleu-the",
        "BLEU: “the the the the the the the” (clipping)",
        "the the the the the the the",
        _CAT_REFS,
        ("bleu", "rouge1", "chrf"),
        "modified unigram precision p1 = 2/7 (plain precision would be 7/7)",
        "Papineni et al. (2002), §2.1",
    ),
    Classic(
        "meteor-scrambled",
        "METEOR: “on the mat sat the cat”",
        "on the mat sat the cat",
        _MAT,
        ("meteor", "bleu", "chrf", "rougeL", "ter"),
        "METEOR 0.5000: 6 matches in 6 chunks, penalty 0.5 (its maximum)",
        "the classic METEOR example (Wikipedia, nltk)",
    ),
    Classic(
        "meteor-was",
        "METEOR: “the cat was sat on the mat”",
        "the cat was sat on the mat",
        _MAT,
        ("meteor", "bleu", "chrf", "rougeL", "ter"),
        "Score: 0.9654 = Fmean: 0.9836 × (1 − Penalty: 0.0185)",
        "the classic METEOR example (Wikipedia, nltk)",
    ),
    Classic(
        "meteor-same",
        "METEOR: “the cat sat on the mat” (identical)",
        "the cat sat on the mat",
        _MAT,
        ("meteor", "bleu", "chrf", "rougeL", "ter"),
        "METEOR 0.9977, not 1: even one chunk costs a penalty of 0.5·(1/6)³",
        "the classic METEOR example (Wikipedia, nltk)",
    ),
    Classic(
        "meteor-stages",
        "METEOR: all three stages “the cats were sitting on the rug”",
        "the cats were sitting on the rug",
        ("the cat sat on the carpet",),
        ("meteor",),
        "exact: the, on, the; stem: cats ~ cat; synonym: rug ~ carpet (WordNet); sitting ~ sat is missed (stems sit "
        "and sat differ): METEOR 0.7934",
        "nltk's three matching modules",
    ),
    Classic(
        "rouge-union",
        "ROUGE-Lsum: union LCS (Lin 2004, §3.2)",
        "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5",
        ("w1 w2 w3 w4 w5",),
        ("rougeLsum", "rougeL"),
        "r = w1 w2 w3 w4 w5; c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5: LCS∪ = w1 w2 w3 w5 → 4 (R = 4/5, P = 4/10)",
        "Lin (2004), ROUGE, §3.2",
    ),
    Classic(
        "rouge-police-kill",
        "ROUGE-L / ROUGE-S: “police kill the gunman”",
        "police kill the gunman",
        ("police killed the gunman",),
        ("rougeL", "rougeS", "rougeSU", "rouge1", "rouge2", "rougeLsum", "rougeW", "meteor", "ter"),
        "ROUGE-L = 3/4; ROUGE-S = 3/6 (skip-bigrams police the, police gunman, the gunman)",
        "Lin (2004), ROUGE, §3.1 and §5",
    ),
    Classic(
        "rouge-police-order",
        "ROUGE-L / ROUGE-S: “the gunman kill police”",
        "the gunman kill police",
        ("police killed the gunman",),
        ("rougeL", "rougeS", "rougeSU", "rouge1", "rouge2", "rougeLsum", "rougeW"),
        "ROUGE-L = 2/4; ROUGE-S = 1/6 (only the gunman)",
        "Lin (2004), ROUGE, §3.1 and §5",
    ),
    Classic(
        "rouge-w-consecutive",
        "ROUGE-W: consecutive matches “a b c d h i k”",
        "a b c d h i k",
        ("a b c d e f g",),
        ("rougeW", "rougeL"),
        "Lin's example: the same LCS (4) as “a h b k c i d” but a higher WLCS on the DP path (one run of 4: "
        "4^1.2 = 5.28, against four runs of 1: 4) — yet ROUGE-1.5.5 scores both 0.4616 (see step 2)",
        "Lin (2004), ROUGE, §3.3",
    ),
    Classic(
        "rouge-w-spread",
        "ROUGE-W: spread-out matches “a h b k c i d”",
        "a h b k c i d",
        ("a b c d e f g",),
        ("rougeW", "rougeL"),
        "Lin's example: path WLCS 4 (four runs of 1) against 5.28 for “a b c d h i k”; ROUGE-1.5.5 still scores "
        "both 0.4616, because it counts runs of consecutive reference words",
        "Lin (2004), ROUGE, §3.3",
    ),
    Classic(
        "ter-saudi",
        "TER: Snover et al.'s Saudi example (a shift)",
        "this week the saudis denied information published in the new york times",
        ("saudi arabia denied this week information published in the american new york times",),
        ("ter",),
        "4 edits over 13 reference words, TER = 30.77: one shift (“this week”), two substitutions and one insertion "
        "(Snover et al.: saudis → saudi arabia, + american)",
        "Snover et al. (2006), “A Study of Translation Edit Rate”, §3",
    ),
    Classic(
        "ter-block",
        "TER: one block shift “d e f g h a b c”",
        "d e f g h a b c",
        ("a b c d e f g h",),
        ("ter",),
        "1 shift over 8 reference words: TER = 12.50 (a Levenshtein distance would count 6 edits)",
        "sacrebleu's TER tests",
    ),
    Classic(
        "cider-horse",
        "CIDEr-D: a caption and two references",
        "a man riding a horse on the beach",
        ("a man rides a horse along the beach", "a person riding a horse on the sand"),
        ("cider", "meteor", "bleu", "rougeL"),
        "weights depend on the loaded dataset: common words like “a” weigh little, rare ones a lot",
        "",
    ),
    Classic(
        "bertscore-freezing",
        "BERTScore: “it is freezing today” against “the weather is cold today”",
        "it is freezing today",
        ("the weather is cold today",),
        ("bertscore", "bleu", "chrf", "meteor"),
        "no shared word but “is” and “today”, yet “freezing” finds “cold” among its closest tokens",
        "Zhang et al. (2020), BERTScore, Figure 1",
    ),
)

# The classic a metric opens with.
FIRST: dict[str, str] = {
    "bleu": "bleu-cat",
    "chrf": "bleu-cat",
    "chrf++": "bleu-cat",
    "rouge1": "rouge-police-kill",
    "rouge2": "rouge-police-kill",
    "rougeL": "rouge-police-kill",
    "rougeLsum": "rouge-union",
    "rougeW": "rouge-w-consecutive",
    "rougeS": "rouge-police-kill",
    "rougeSU": "rouge-police-kill",
    "meteor": "meteor-was",
    "ter": "ter-saudi",
    "cider": "cider-horse",
    "bertscore": "bertscore-freezing",
}


def classics_for(metric_id: str) -> tuple[Classic, ...]:
    """The classics that illustrate ``metric_id``, the one it opens with first."""
    chosen = [c for c in CLASSICS if metric_id in c.metrics]
    first = FIRST.get(metric_id)
    chosen.sort(key=lambda c: c.key != first)
    return tuple(chosen)


def by_key(key: str) -> Classic:
    for classic in CLASSICS:
        if classic.key == key:
            return classic
    raise KeyError(key)
