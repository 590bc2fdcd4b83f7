"""`python -m mxlib <command>`: each command lives in its own module with `add_arguments` and `run`."""
from __future__ import annotations

import argparse
import importlib
import sys

# command -> (module, one-line help). Modules are imported only when their command runs.
COMMANDS = {
    "check": ("mxlib.check", "run the reference on the contest shapes and check custom_kernel against it"),
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mxlib", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (module, help_) in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(p)
    args = parser.parse_args(argv)
    return importlib.import_module(args._module).run(args)


if __name__ == "__main__":
    sys.exit(main())
