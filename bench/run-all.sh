#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every benchmark binary in BUILDDIR/bench/ (build them first:
# `meson compile -C BUILDDIR benchmarks`). Benchmarks print figures; a
# failing one is reported and the others still run.
set -u

builddir=${1:-build}
status=0
found=0

for bench in "$builddir"/bench/bench-*; do
  [ -f "$bench" ] && [ -x "$bench" ] || continue
  found=1
  echo "== $(basename "$bench")"
  # GTK benchmarks need a display; without one they get a virtual one
  run=""
  case "$(basename "$bench")" in
    bench-render|bench-window|bench-memory|bench-live)
      if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        run="xvfb-run -a"
      fi
      export GTK_A11Y=none
      ;;
  esac
  if ! $run "$bench"; then
    echo "$(basename "$bench"): failed" >&2
    status=1
  fi
  echo
done

if [ "$found" = 0 ]; then
  echo "no benchmarks in $builddir/bench; run: meson compile -C $builddir benchmarks" >&2
  exit 1
fi

exit $status
