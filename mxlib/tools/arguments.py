"""argparse types for the command line's arguments: a value that breaks the rule is refused when the
arguments are read (exit 2, the argument named), before a command does any work."""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from .files import check_output_path


def output_file(value: str) -> Path:
    """An argparse `type` for a file a command writes: a value that names no file, a folder, a file under a
    path that is not a folder, or one in a folder that takes no new file is refused when the arguments are
    read, before any work."""
    if not value:
        raise argparse.ArgumentTypeError("'' names no file to write")
    try:
        path = check_output_path(value)
    except IsADirectoryError:
        raise argparse.ArgumentTypeError(f"{value} is a folder: name the file to write") from None
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    folder = next(p for p in path.absolute().parents if p.exists())  # the folders below it are made when writing
    try:  # a file the command could not write would lose its whole run at the end: tried now, left no trace
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{value}: {folder} takes no new file ({exc.strerror})") from None
    return path


def output_folder(value: str) -> Path:
    """An argparse `type` for a folder a command writes into (made if missing): a value that names nothing,
    an existing file, or a place where no folder can be made is refused when the arguments are read, before
    any work."""
    if not value:
        raise argparse.ArgumentTypeError("'' names no folder to write into")
    path = Path(value)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{value} is a file, not a folder")
    existing = next(p for p in (path.absolute(), *path.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise argparse.ArgumentTypeError(f"{value}: {existing} is a file, not a folder")
    try:  # a folder the command could not write into would lose its whole run at the end: tried now, no trace
        tempfile.TemporaryFile(dir=existing).close()
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"{value}: {existing} takes no new file ({exc.strerror})") from None
    return path


def options_given(args, defaults: dict) -> list[str]:
    """The options among `defaults` (dest -> its default) that `args` holds with another value, as "--name":
    how a command refuses options that the mode chosen would ignore."""
    return [f"--{name.replace('_', '-')}" for name, default in defaults.items() if getattr(args, name) != default]


def at_least(low: int):
    """An argparse `type`: an integer >= `low`."""
    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not an integer") from None
        if number < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {number}")
        return number
    parse.__name__ = f"integer >= {low}"
    return parse


def non_negative_float(value: str) -> float:
    """An argparse `type`: a finite float >= 0."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0 <= number < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {value}")
    return number
