"""A counter scale on a serial line (issue 36), on a pseudo-terminal, for the print agent's tests.

Speaks the protocol of argv[1] ("toledo" or "filizola") as ACBr's ACBrBAL reads it: every ENQ
(0x05) written to the device is answered with one frame STX + 5 characters + ETX for what is on the
plate now: the weight in grams ("00347"), or a state: Toledo repeats the letter ("IIIII" unstable,
"NNNNN" negative, "SSSSS" overload), Filizola puts it first ("I0000"). Any other byte is ignored, as
a Toledo Prix does. The answer is written in two pieces, as a UART delivers it.

Prints the slave's path on its first line. A line on stdin changes the plate: a number of grams,
"unstable", "negative", "overload" or "silent" (answers nothing); closing stdin stops it.
"""

import os
import pty
import select
import sys
import tty

ENQ, STX, ETX = 0x05, 0x02, 0x03
LETTERS = {"unstable": "I", "negative": "N", "overload": "S"}

protocol = sys.argv[1] if len(sys.argv) > 1 else "toledo"
plate = "0"


def frame(state):
    if state == "silent":
        return b""
    if state in LETTERS:
        letter = LETTERS[state]
        payload = letter * 5 if protocol == "toledo" else letter + "0000"
    else:
        payload = str(int(state)).rjust(5, "0")
    return bytes([STX]) + payload.encode("ascii") + bytes([ETX])


master, slave = pty.openpty()
tty.setraw(slave)
print(os.ttyname(slave), flush=True)
while True:
    ready, _, _ = select.select([master, sys.stdin], [], [])
    if sys.stdin in ready:
        line = sys.stdin.readline()
        if not line:
            break
        plate = line.strip() or "0"
    if master in ready:
        try:
            data = os.read(master, 4096)
        except OSError:
            # The agent closed the port: wait for it to open it again.
            data = b""
        for byte in data:
            if byte != ENQ:
                continue
            answer = frame(plate)
            if answer:
                os.write(master, answer[:3])
                os.write(master, answer[3:])
