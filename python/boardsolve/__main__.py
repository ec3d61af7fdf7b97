"""``python -m boardsolve FILE ...``: the ``solve`` command line, with its flags and exit
status."""

import os
import signal
import sys

from . import _boardsolve


def main() -> int:
    # As a command-line filter: a closed pipe ends the run quietly, as it does for `solve`.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if sys.stdout is not None:
        sys.stdout.flush()
    # The arguments as the system gave them (bytes that are not UTF-8 included): `solve`
    # names such an argument itself.
    # The commands that `plan` and `merge` print run this module again, by this interpreter.
    program = [os.fsencode(sys.executable or "python3"), b"-m", b"boardsolve"]
    return _boardsolve.main([b"solve"] + [os.fsencode(a) for a in sys.argv[1:]], program)


if __name__ == "__main__":
    sys.exit(main())
