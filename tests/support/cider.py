"""pycocoevalcap 1.2's ``Cider``: the reference of the CIDEr-D parity and fuzz tests."""

from __future__ import annotations

import numpy as np
from pycocoevalcap.cider.cider import Cider


def reference(hyps: list[str], refs: list[list[str | None]], sigma: float = 6.0) -> tuple[float, np.ndarray]:
    gts = {i: [r[i] for r in refs if r[i] is not None] for i in range(len(hyps))}
    res = {i: [h] for i, h in enumerate(hyps)}
    score, scores = Cider(sigma=sigma).compute_score(gts, res)
    return float(score), np.asarray(scores)
