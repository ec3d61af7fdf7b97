"""``python -m boardsolve FILE ...``: the ``solve`` command line, with its flags and exit
status."""

import signal
import sys

from . import _boardsolve


def main() -> int:
    # As a command-line filter: a closed pipe ends the run quietly, as it does for `solve`.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.stdout.flush()
    return _boardsolve.main(["solve"] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
