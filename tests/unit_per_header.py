#!/usr/bin/env python3
"""Every header under lib/ is included by a unit test (tests/unit/), so every part of the
library is reached without root, not only through the rigs. Prints each header that no
unit test includes and exits 1 if there is one."""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
INCLUDE = re.compile(r'^\s*#\s*include\s+"(lib/[^"]+\.h)"', re.M)


def main():
    included = set()
    for test in (ROOT / "tests" / "unit").glob("*"):
        if test.suffix in (".cc", ".h"):
            included.update(INCLUDE.findall(test.read_text(errors="replace")))
    headers = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "lib").rglob("*.h"))
    missing = [h for h in headers if h not in included]
    for header in missing:
        print(f"{header}: no unit test in tests/unit/ includes it")
    if not headers:
        sys.exit("unit_per_header: no headers found under lib/")
    print(f"unit_per_header: {len(headers) - len(missing)} of {len(headers)} headers have a unit test")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
