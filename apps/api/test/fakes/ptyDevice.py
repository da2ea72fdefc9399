"""A fake serial/USB device on a pseudo-terminal (issue 36), for the print agent's tests.

Prints the slave's path on its first line, then answers what is written to the device:
each ESC/POS real-time status request (DLE EOT n, n = 1, 2 or 4) with the byte of the
current condition (argv[1]: "b1,b2,b4", or "" for a printer that never answers). A line
on stdin changes the condition ("b1,b2,b4" or ""); closing stdin stops it. The bytes that
are not status requests are appended to argv[2] (the printed data).
"""

import os
import pty
import select
import sys
import tty


def parse(text):
    text = text.strip()
    return [int(x, 0) for x in text.split(",")] if text else None


answers = parse(sys.argv[1])
printed = sys.argv[2]
master, slave = pty.openpty()
tty.setraw(slave)
print(os.ttyname(slave), flush=True)
pending = b""
while True:
    ready, _, _ = select.select([master, sys.stdin], [], [])
    if sys.stdin in ready:
        line = sys.stdin.readline()
        if not line:
            break
        answers = parse(line)
    if master in ready:
        pending += os.read(master, 4096)
        data = b""
        while pending:
            if pending[:2] == b"\x10\x04" and len(pending) >= 3:
                n = pending[2]
                if answers is not None and n in (1, 2, 4):
                    os.write(master, bytes([answers[{1: 0, 2: 1, 4: 2}[n]]]))
                pending = pending[3:]
            elif pending[:1] == b"\x10" and len(pending) < 3:
                break
            else:
                data += pending[:1]
                pending = pending[1:]
        if data:
            with open(printed, "ab") as f:
                f.write(data)
