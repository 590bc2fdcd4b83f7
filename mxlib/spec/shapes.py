"""The contest's shapes, read from `mxlib/data/shapes.csv` (package data: the one list everything uses)."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from . import validate

SHAPES_CSV = resources.files("mxlib") / "data" / "shapes.csv"
KINDS = ("test", "benchmark", "extra")


@dataclass(frozen=True)
class Shape:
    kind: str
    m: int
    n: int
    k: int
    seed: int

    @property
    def mnk(self) -> tuple[int, int, int]:
        return self.m, self.n, self.k

    def __str__(self) -> str:
        return f"{self.m}x{self.n}x{self.k}"


def parse_mnk(text: str, name: str = "shape") -> tuple[int, int, int]:
    """The inverse of `str(Shape)`: 'MxNxK' (x in either case, spaces around it ignored) as three decimal
    integers, or a ValueError naming `name` and the text. The GEMM's own rules on them (positive sizes,
    multiples) are `mxlib.spec.ints.gemm_shape`'s, applied by the caller, so its refusal says which rule."""
    parts = [p.strip() for p in text.lower().split("x")]
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(f"{name}: {text!r} is not MxNxK (three decimal integers joined by 'x')")
    return int(parts[0]), int(parts[1]), int(parts[2])


def load(kind: str | None = None, path: Path | None = None) -> list[Shape]:
    """Shapes of one kind ("test", "benchmark", "extra"), or all of them when kind is None."""
    if kind is not None:
        validate.choice(kind, "kind", KINDS)
    source = Path(path) if path is not None else SHAPES_CSV
    with source.open(newline="") as f:
        rows = [Shape(r["kind"], int(r["m"]), int(r["n"]), int(r["k"]), int(r["seed"])) for r in csv.DictReader(f)]
    return [r for r in rows if kind is None or r.kind == kind]
