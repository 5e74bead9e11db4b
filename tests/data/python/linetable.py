# SPDX-License-Identifier: GPL-3.0-or-later
"""linetable.py - prints each code object's location table and CPython's own reading of it.

test-python-linetable runs it with every CPython it tests: one line per code object,
"FIRSTLINENO HEXTABLE START,END,LINE;..." (LINE -1 for none), from co_lines(). The source it
compiles has what makes the table interesting: lines far apart (multi-byte varints), loops
that jump back (negative deltas), expressions over several lines, nested functions,
comprehensions and instructions without a line.
"""

import sys
import types

SOURCE = '''
import os

def far_apart(x):
    a = x + 1
''' + "\n" * 200 + '''
    b = a * 2
''' + "\n" * 5000 + '''
    return (a +
            b +
            x)

class Thing:
    @staticmethod
    def loop(n):
        total = 0
        while n > 0:
            total += n
            n -= 1
        else:
            total -= 1
        return total

    def nested(self):
        def inner(y):
            return [z * y for z in range(y) if z % 2]
        return inner(3), (lambda q: q + 1)(4)

def handler():
    try:
        raise ValueError("x")
    except ValueError as e:
        return str(e)
    finally:
        pass

async def coroutine():
    for i in range(3):
        yield i
'''


def walk(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from walk(const)


def main():
    sources = [SOURCE]
    for path in sys.argv[1:]:
        with open(path) as f:
            sources.append(f.read())
    for source in sources:
        for code in walk(compile(source, "linetable", "exec")):
            lines = ";".join("%d,%d,%d" % (s, e, -1 if l is None else l) for s, e, l in code.co_lines())
            print(code.co_firstlineno, code.co_linetable.hex() or "-", lines or "-")


main()
