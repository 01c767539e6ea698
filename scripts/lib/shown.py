"""shown(): a path or a name as it may go to a terminal, for the Python scripts; the shell
scripts have the same function in scripts/lib/common.sh, and alignbench its EscapeControl
(lib/base/error.cc). C0 controls and DEL become \\n, \\r, \\t or \\xNN; C1 controls, the
bidirectional controls and the line and paragraph separators become \\uXXXX; a byte that
is not part of valid UTF-8 becomes \\xNN; everything else, backslashes included, stays, so
escaping twice changes nothing. A name another user made can hold a terminal's escape
sequence or forge a line: every path, file, host or user-given name a script prints goes
through it."""

# The code points a terminal or a viewer acts on instead of showing them.
HIDDEN = (set(range(0x80, 0xa0)) | {0x200e, 0x200f, 0x061c, 0x2028, 0x2029}
          | set(range(0x202a, 0x202f)) | set(range(0x2066, 0x206a)))
C0 = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def shown(text):
    """text (str, bytes, or anything str() takes) escaped. Python gives a byte that was
    not UTF-8 in a path or an argument as a lone surrogate U+DC80..U+DCFF
    (surrogateescape): it is that byte again, as \\xNN."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8", "surrogateescape")
    out = []
    for ch in str(text):
        cp = ord(ch)
        if 0xdc80 <= cp <= 0xdcff:
            out.append("\\x%02x" % (cp - 0xdc00))
        elif cp < 0x20 or cp == 0x7f:
            out.append(C0.get(ch) or "\\x%02x" % cp)
        elif cp in HIDDEN or 0xd800 <= cp <= 0xdfff:
            out.append("\\u%04x" % cp)
        else:
            out.append(ch)
    return "".join(out)
