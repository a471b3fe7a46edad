"""One side (reference or peer) of a :mod:`benchmarks.bench_peers` case as a whole process: prints its scores.

python -m benchmarks.sides CASE SHARED reference|peer
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmarks.bench_peers import run_side

if __name__ == "__main__":
    name, shared, side = sys.argv[1:4]
    print(json.dumps([float(x) for x in run_side(name, Path(shared), side)]))
