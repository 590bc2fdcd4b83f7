"""The calls the stand-in aiter could not turn into Triton launches: (entry point, shape, what would run)."""
CALLS: list = []


def record(name: str, m: int, n: int, k: int, detail: str) -> None:
    CALLS.append((name, (m, n, k), detail))
