"""Builds the C kernels (Cython) that speed up row computation; everything else is in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = ("jsonl", "ngrams", "porter", "rouge", "ter", "tokenize")

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
