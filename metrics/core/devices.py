"""Where a neural metric runs and in which floating-point format: the ``device`` and ``precision`` options.

``device`` is ``auto`` (a CUDA GPU if torch sees one, else Apple's MPS, else the CPU), ``cpu``, ``cuda`` (the first
CUDA GPU), ``cuda:N`` or ``mps``; ``precision`` is ``fp32``, ``bf16`` or ``fp16`` — the model's weights and
arithmetic; every result comes back to the CPU as float64. :func:`placement` resolves the two into a torch device
and dtype, refusing what cannot run here with the reason: a CUDA device torch does not see (a CPU build of torch, no
driver, ``cuda:N`` past the last GPU), MPS off a Mac, fp16 on the CPU (torch's CPU kernels for half precision are
slow or missing, and CPUs have no fp16 arithmetic to gain from — bf16 runs there), bf16 on a GPU without it.

Precision changes the numbers (bf16 keeps 8 bits of mantissa, fp16 11), so it enters a metric's signature. The
device does not in fp32: a GPU's fp32 kernels differ from the CPU's only in the order of additions (measured for
BERTScore by ``scripts/gpu_check.py``); the signature names a device that is not the CPU all the same
(``dev:cuda``), so that a reader knows which numbers may differ in the last digits.

Nothing here imports torch until :func:`placement` is called.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal, get_args

DEVICE_HELP = (
    "auto: a CUDA GPU if torch sees one, else Apple MPS, else the CPU; cpu; cuda (the first GPU); cuda:N; mps."
)
PRECISION_HELP = (
    "The model's floating-point format: fp32 (the reference implementations'), bf16 or fp16 (faster on a GPU, "
    "numbers differ in the third or fourth digit; fp16 is not offered on the CPU)."
)


class DeviceKind(Enum):
    """What a ``device`` option names."""

    AUTO = "auto"
    CPU = "cpu"
    CUDA = "cuda"
    MPS = "mps"


class Precision(Enum):
    """A ``precision`` option: the dtype of the model's weights and arithmetic."""

    FP32 = "fp32"
    BF16 = "bf16"
    FP16 = "fp16"

    @property
    def dtype_name(self) -> str:
        """The torch dtype's name (``torch.<name>``)."""
        return {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}[self.value]


# The precision option's type in a config (options take Literal choices); the same values as Precision, which a
# test checks.
PrecisionName = Literal["fp32", "bf16", "fp16"]
PRECISIONS: tuple[str, ...] = get_args(PrecisionName)
_DEVICE = re.compile(r"(auto|cpu|cuda|mps)(?::(\d+))?")


@dataclass(frozen=True)
class DeviceRequest:
    """A ``device`` option parsed: its kind and, for ``cuda:N``, the index."""

    kind: DeviceKind
    index: int | None = None


def parse_device(text: str) -> DeviceRequest:
    """The device ``text`` names; a ``ValueError`` says which values there are."""
    found = _DEVICE.fullmatch(text.strip().lower())
    if found is None or (found.group(2) is not None and found.group(1) != "cuda"):
        raise ValueError(f"option 'device': {text!r} is not one of auto, cpu, cuda, cuda:N, mps")
    index = found.group(2)
    return DeviceRequest(DeviceKind(found.group(1)), None if index is None else int(index))


@dataclass(frozen=True)
class Placement:
    """Where a model runs: a torch device and dtype, and the precision asked for."""

    device: Any  # torch.device
    dtype: Any  # torch.dtype
    precision: Precision

    @property
    def on_cpu(self) -> bool:
        return bool(self.device.type == "cpu")

    @property
    def signature(self) -> str:
        """What a metric's signature says of it: the precision always, the device where it is not the CPU
        (``prec:fp32``, ``prec:bf16|dev:cuda``)."""
        return f"prec:{self.precision.value}" + ("" if self.on_cpu else f"|dev:{self.device.type}")

    @property
    def label(self) -> str:
        return f"{self.device} {self.precision.value}"


def placement(device: str, precision: str) -> Placement:
    """The torch device and dtype of the options ``device`` and ``precision``, or a ``ValueError`` that says why
    they cannot run here."""
    import torch

    request = parse_device(device)
    chosen = Precision(precision)
    kind = request.kind
    if kind is DeviceKind.AUTO:
        kind = DeviceKind.CUDA if torch.cuda.is_available() else DeviceKind.MPS if _mps(torch) else DeviceKind.CPU
    if kind is DeviceKind.CUDA:
        if not torch.cuda.is_available():
            build = f"built for CUDA {torch.version.cuda}" if torch.version.cuda else "a CPU-only build"
            raise ValueError(
                f"device {device!r}: torch {torch.__version__} ({build}) sees no CUDA GPU here; install torch's "
                "CUDA build for your driver (https://pytorch.org/get-started/locally/) or choose cpu or auto"
            )
        count = torch.cuda.device_count()
        index = request.index or 0
        if index >= count:
            raise ValueError(
                f"device {device!r}: this machine has {count} CUDA GPU(s), cuda:0 to cuda:{count - 1}"
                if count
                else f"device {device!r}: this machine has no CUDA GPU"
            )
        target = torch.device("cuda", index)
        if chosen is Precision.BF16 and not torch.cuda.is_bf16_supported():
            raise ValueError(f"precision bf16: {torch.cuda.get_device_name(index)} has no bf16; choose fp16 or fp32")
    elif kind is DeviceKind.MPS:
        if not _mps(torch):
            raise ValueError(f"device {device!r}: torch sees no Apple MPS device here; choose cpu or auto")
        target = torch.device("mps")
    else:
        target = torch.device("cpu")
        if chosen is Precision.FP16:
            raise ValueError(
                "precision fp16: not on the CPU — torch's CPU kernels for half precision are slow or missing and "
                "the CPU gains nothing from it; choose fp32, or bf16 (fp16 is for a GPU)"
            )
    return Placement(target, getattr(torch, chosen.dtype_name), chosen)


def _mps(torch: Any) -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())
