"""How close a number must be to its reference implementation's."""

from __future__ import annotations


def rel_close(a: float, b: float, tol: float = 1e-9) -> bool:
    """Relative closeness as the parity contract states it (absolute near zero)."""
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))
