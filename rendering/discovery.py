"""Discovery of the modules that register views and lessons: importing a module registers what it defines, so
importing every module of a package is how a new view or lesson joins without a list naming it."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def import_submodules(package: ModuleType) -> None:
    """Import every module of ``package`` (each registers what it defines)."""
    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
