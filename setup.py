"""Builds the C kernels (Cython) that speed up row computation; everything else is in pyproject.toml."""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

# The kernels are the metrics/kernels/_<name>.pyx files present, so a new kernel joins no list here (this file may
# not import metrics); tests/parity/test_kernels.py checks every one is built, and the families name those they use.
KERNELS = sorted(path.stem.removeprefix("_") for path in (Path(__file__).parent / "metrics" / "kernels").glob("_*.pyx"))

setup(
    ext_modules=cythonize(
        [
            Extension(f"metrics.kernels._{name}", [f"metrics/kernels/_{name}.pyx"], extra_compile_args=["-O3"])
            for name in KERNELS
        ],
        compiler_directives={"language_level": 3},
        quiet=True,
    )
)
