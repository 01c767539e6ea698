"""The command line of the Python helpers in this folder, one rule for all of them, as
scripts/lib/common.sh has it for the shell scripts: -h or --help prints the helper's own
docstring (its usage) and exits 0; an option it does not know, or too few or too many
operands, prints an error and the usage line (the docstring's "python3 ..." line) on
stderr and exits 1. A helper calls operands() before it imports or reads anything else.
"""
import sys

from shown import shown


def operands(doc, least, most=None):
    """The helper's operands from sys.argv, least to most of them (None: no limit)."""
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(doc.strip())
        sys.exit(0)
    usage = next((line.strip() for line in doc.splitlines() if "python3 " in line), "")
    error = None
    unknown = [a for a in args if a.startswith("-") and a != "-"]
    if unknown:
        error = f"unknown option '{unknown[0]}'"
    elif len(args) < least or (most is not None and len(args) > most):
        wanted = f"{least}" if most == least else f"at least {least}"
        if most is not None and most != least:
            wanted = f"{least} to {most}"
        error = f"{wanted} operands expected, got {len(args)}"
    if error:
        name = sys.argv[0].rsplit("/", 1)[-1]
        print(f"{shown(name)}: error: {shown(error)}\nusage: {usage}", file=sys.stderr)
        sys.exit(1)
    return args
