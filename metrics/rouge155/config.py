"""Options of the ROUGE-1.5.5 metrics: ROUGE-W's (:class:`RougeWConfig`) and ROUGE-S/SU's (:class:`RougeSConfig`).

Their meaning and perl flags are listed in :mod:`metrics.rouge155`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from metrics.rouge155.tokenize import TOKENIZERS, TokenizerName

MultiRef = Literal["A", "B"]
_MULTI_REF = ("A", "B")


def _check_common(stemmer: object, tokenizer: object, multi_ref: object, alpha: object) -> None:
    if not isinstance(stemmer, bool):
        raise ValueError(f"option 'stemmer' must be true or false, not {stemmer!r}")
    if tokenizer not in TOKENIZERS:
        raise ValueError(f"option 'tokenizer': {tokenizer!r} is not one of {', '.join(TOKENIZERS)}")
    if multi_ref not in _MULTI_REF:
        raise ValueError(
            f"option 'multi_ref': {multi_ref!r} is not one of A (pool all references, perl's -f A), "
            "B (best reference by recall, -f B)"
        )
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0.0 <= alpha <= 1.0:
        raise ValueError(f"option 'alpha' must be a number in [0, 1] (perl's -p), not {alpha!r}")


@dataclass(frozen=True)
class RougeWConfig:
    stemmer: bool = False
    tokenizer: TokenizerName = "default"
    weight: float = 1.2
    multi_ref: MultiRef = "A"
    alpha: float = 0.5

    def __post_init__(self) -> None:
        _check_common(self.stemmer, self.tokenizer, self.multi_ref, self.alpha)
        w = self.weight
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w <= 0:
            raise ValueError(f"option 'weight' must be a finite number > 0 (perl's -w, usually 1.2), not {w!r}")


@dataclass(frozen=True)
class RougeSConfig:
    stemmer: bool = False
    tokenizer: TokenizerName = "default"
    skip_distance: int | None = 4
    multi_ref: MultiRef = "A"
    alpha: float = 0.5

    def __post_init__(self) -> None:
        _check_common(self.stemmer, self.tokenizer, self.multi_ref, self.alpha)
        d = self.skip_distance
        if d is None:
            return
        if isinstance(d, bool) or not isinstance(d, int) or d < -1:
            raise ValueError(
                f"option 'skip_distance' must be an integer >= 0, or None / -1 for no limit (perl's -2), not {d!r}"
            )
        if d == -1:
            object.__setattr__(self, "skip_distance", None)  # perl's spelling of "unlimited"
