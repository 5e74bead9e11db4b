# SPDX-License-Identifier: GPL-3.0-or-later
"""split.py - a Python program whose time splits 70/30 between two functions, by construction.

fc_hot and fc_cold run the same loop (only their first value differs), 7 iterations of fc_hot for 3 of fc_cold, so CPU time and
wall time split 70/30 between them, in turns of tens of milliseconds (longer than the moment
between a sample and the read of the interpreter's frames). A second thread, fc_sleeper, waits without the GIL.
Prints "ready" once both threads run. Argument: seconds to run (default 5; 0: until killed).
"""

import sys
import threading
import time


def fc_hot(n):
    x = 0
    for i in range(n):
        x = (x * 31 + i) & 0xFFFF
    return x


def fc_cold(n):
    x = 1
    for i in range(n):
        x = (x * 31 + i) & 0xFFFF
    return x


def fc_sleeper(stop):
    while not stop.is_set():
        time.sleep(0.02)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    stop = threading.Event()
    sleeper = threading.Thread(target=fc_sleeper, args=(stop,), name="fc-sleeper")
    sleeper.start()
    print("ready", flush=True)
    end = time.monotonic() + seconds
    while seconds == 0 or time.monotonic() < end:
        fc_hot(700000)
        fc_cold(300000)
    stop.set()
    sleeper.join()


main()
