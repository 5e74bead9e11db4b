#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Compares two builds of flamecast-cli on `convert` end to end (load, convert,
# write), runs alternating so that a machine's load weighs on both alike.
#
# Usage: bench/compare-convert.sh OLD_CLI NEW_CLI [FILE] [RUNS]
#   OLD_CLI, NEW_CLI  two flamecast-cli binaries (e.g. one built from an older commit)
#   FILE              the input; default: bench-load's 50 MB chunk, generated
#                     with BUILDDIR/bench/bench-load --generate (BUILDDIR=build)
#   RUNS              runs per binary and format (default 5)
#
# Prints per format the median wall time and the median CPU time (user +
# system) of each binary; CPU is the figure to trust on a busy machine.
set -eu

old=$1
new=$2
file=${3:-}
runs=${4:-5}
builddir=${BUILDDIR:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "$file" ]; then
  file=$tmp/chunk.json
  "$builddir/bench/bench-load" --generate "$file"
fi

median () {
  sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

printf '%-11s %22s %22s\n' format "old wall / CPU (s)" "new wall / CPU (s)"
for format in otlp otlp-json pprof speedscope collapsed; do
  : > "$tmp/old"; : > "$tmp/new"
  i=0
  while [ "$i" -lt "$runs" ]; do
    for which in old new; do
      eval "cli=\$$which"
      /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$cli" convert "$file" -o "$tmp/out.$format" --to "$format" 2>/dev/null
      awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/time" >> "$tmp/$which"
    done
    i=$((i + 1))
  done
  printf '%-11s %10s / %-9s %10s / %-9s\n' "$format" \
    "$(cut -d' ' -f1 "$tmp/old" | median)" "$(cut -d' ' -f2 "$tmp/old" | median)" \
    "$(cut -d' ' -f1 "$tmp/new" | median)" "$(cut -d' ' -f2 "$tmp/new" | median)"
done
