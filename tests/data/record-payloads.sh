#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates tests/data/recorded/: what Flamecast itself records, as a user would, from the
# burner of tests/targets (two threads, 70/30 between hot_a and hot_b):
#   tests/data/record-payloads.sh [BUILDDIR]       (default: build)
# burner-chunk.json is a V2 chunk (`record`), burner.envelope a V1 profile with its transaction
# in an envelope (`record --format v1`). The files are committed; paths, build ids and times in
# them are those of the machine that recorded them.
set -eu

builddir=${1:-build}
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
out="$srcdir/tests/data/recorded"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

meson compile -C "$builddir" cli/flamecast-cli:executable tests/targets/fc-target-burner >/dev/null
cli="$builddir/cli/flamecast-cli"
burner="$builddir/tests/targets/fc-target-burner"

mkdir -p "$tmp/v2" "$tmp/v1"
"$cli" record --frequency 101 --release burner@1.0 --environment test -o "$tmp/v2" -- "$burner" -s 0.3 -t 2 >/dev/null
"$cli" record --frequency 101 --release burner@1.0 --environment test --format v1 -o "$tmp/v1" -- "$burner" -s 0.3 -t 2 >/dev/null
cp "$tmp/v2/chunk-001.json" "$out/burner-chunk.json"
cp "$tmp"/v1/*.envelope "$out/burner.envelope"
ls -l "$out"
