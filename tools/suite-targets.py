#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Print the ninja outputs the tests of some suites need, one per line.

The sanitizer trees run a part of the suite each (make check-sanitize leaves
the traced 'sampler' suite out, check-ubsan runs only it); building only what
those tests use keeps `make check` inside CI's budget. Data that tests read
without declaring it (custom targets outside tests/) is always built. Usage:

  suite-targets.py BUILDDIR [--suite NAME]... [--no-suite NAME]...

A test is kept when it belongs to one of the --suite names (all tests when
none is given) and to none of the --no-suite names; meson's project prefix
("flamecast:") is optional in NAME.
"""

import argparse
import json
import os
import subprocess
import sys


def introspect(builddir, what):
    out = subprocess.run(['meson', 'introspect', builddir, what], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def suite_names(test):
    names = set()
    for suite in test['suite']:
        names.add(suite)
        names.add(suite.split(':', 1)[-1])
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('builddir')
    parser.add_argument('--suite', action='append', default=[])
    parser.add_argument('--no-suite', action='append', default=[])
    args = parser.parse_args()

    builddir = os.path.abspath(args.builddir)
    outputs = {}
    wanted = set()
    tests_dir = os.path.join(builddir, 'tests') + os.sep
    for target in introspect(builddir, '--targets'):
        outputs[target['id']] = target['filename']
        # data the tests read without naming it (the compiled settings schema, message catalogs,
        # man pages): cheap, so always; the test programs' own custom targets are named by them
        if target['type'] == 'custom' and not target['filename'][0].startswith(tests_dir):
            wanted.update(target['filename'])

    for test in introspect(builddir, '--tests'):
        names = suite_names(test)
        if args.suite and not names & set(args.suite):
            continue
        if names & set(args.no_suite):
            continue
        for dep in test['depends']:
            if dep not in outputs:
                sys.exit(f'suite-targets.py: test {test["name"]} depends on {dep}, which no target builds')
            wanted.update(outputs[dep])
        # the test program itself, when the tree builds it
        if test['cmd'] and test['cmd'][0].startswith(builddir + os.sep):
            wanted.add(test['cmd'][0])

    for path in sorted(wanted):
        print(os.path.relpath(path, builddir))


if __name__ == '__main__':
    main()
