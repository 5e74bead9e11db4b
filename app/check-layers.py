#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The app's folders use each other in one direction only.

window/ may include dialogs/, views/ and session/; dialogs/ and views/ only
session/; session/ none of the three (app/README.md). Every #include "..." of
app/ whose header lives in app/ is checked; the app's top (main.c,
fc-application.c) may include any folder. Prints each include that breaks the
order and exits 1; run by `meson test` (suite data).
"""

import os
import re
import sys

ALLOWED = {
    'window': {'dialogs', 'views', 'session'},
    'dialogs': {'session'},
    'views': {'session'},
    'session': set(),
}

root = os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'), 'app')
folder_of = {}
for folder in ALLOWED:
    for name in os.listdir(os.path.join(root, folder)):
        folder_of[name] = folder

bad = []
n_checked = 0
for folder in ALLOWED:
    for name in sorted(os.listdir(os.path.join(root, folder))):
        if not name.endswith(('.c', '.h')):
            continue
        with open(os.path.join(root, folder, name), encoding='utf-8') as f:
            for lineno, line in enumerate(f, 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m or m.group(1) not in folder_of:
                    continue
                n_checked += 1
                target = folder_of[m.group(1)]
                if target != folder and target not in ALLOWED[folder]:
                    bad.append(f'app/{folder}/{name}:{lineno}: includes {target}/{m.group(1)}; '
                               f'{folder}/ may use only {", ".join(sorted(ALLOWED[folder])) or "none of the others"}')

for line in bad:
    print(line)
print(f'app/: {n_checked} includes between its files checked, {len(bad)} against the folders\' order')
sys.exit(1 if bad else 0)
