#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Takes the README screenshots of the real app under Xvfb:
#   tools/screenshots.sh [BUILDDIR]        (default: build)
#
# Profiles are real recordings made with flamecast-cli record:
#  - bench-write (the writer benchmark, deep stacks with debug info) for the
#    flamechart, flamegraph and call tree;
#  - the test-window widget test (a GTK program with a dozen threads) for the
#    thread selector.
# tools/flamecast-screenshots is the real app plus a hook the shipped one does
# not carry: with FLAMECAST_SCREENSHOT_DIR set, once the file is shown it
# renders its own window with its GskRenderer into PNGs, then the send
# preview, the preferences and an outbox (a private one, seeded, under $tmp;
# the DSN is made up and nothing is sent), and quits.
set -eu

builddir=${1:-build}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
out="$srcdir/docs/screenshots"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

meson compile -C "$builddir" tools/flamecast-screenshots tools/flamecast-screenshots-record \
  cli/flamecast-cli:executable bench/bench-write tests/app/test-window tests/targets/fc-target-threads >/dev/null

cli="$builddir/cli/flamecast-cli"
app="$builddir/tools/flamecast-screenshots"

echo "recording bench-write"
mkdir -p "$tmp/writer" "$tmp/threads" "$tmp/shots-writer" "$tmp/shots-threads"
"$cli" record -d 4 -o "$tmp/writer" -- "$builddir/bench/bench-write" >/dev/null

echo "recording test-window"
GSETTINGS_SCHEMA_DIR="$builddir/resources" \
GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 GTK_A11Y=none \
  xvfb-run -a "$cli" record -o "$tmp/threads" -- "$builddir/tests/app/test-window" >/dev/null

shoot () {
  GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 FLAMECAST_SCREENSHOT_DIR="$2" XDG_STATE_HOME="$tmp/state" \
    xvfb-run -a -s "-screen 0 1600x1000x24" "$app" "$1" >/dev/null 2>"$tmp/app.log" || {
      cat "$tmp/app.log" >&2
      exit 1
    }
}

shoot "$tmp/writer/chunk-001.json" "$tmp/shots-writer"
shoot "$tmp/threads/chunk-001.json" "$tmp/shots-threads"

# The span track: the same recording in an envelope with a linked transaction.
mkdir -p "$tmp/shots-spans"
python3 "$srcdir/tools/span-envelope.py" "$tmp/writer/chunk-001.json" "$tmp/spans.envelope"
shoot "$tmp/spans.envelope" "$tmp/shots-spans"

# Recording: bench-write recorded live through the window (taken while it
# records), then the process picker on a process another recorder traces.
mkdir -p "$tmp/shots-record"
GSETTINGS_BACKEND=memory NO_AT_BRIDGE=1 GTK_A11Y=none GSETTINGS_SCHEMA_DIR="$builddir/resources" \
  xvfb-run -a -s "-screen 0 1600x1000x24" "$builddir/tools/flamecast-screenshots-record" "$tmp/shots-record" \
  "$builddir/bench/bench-write" "$builddir/tests/targets/fc-target-threads" >/dev/null 2>"$tmp/record.log" || {
    cat "$tmp/record.log" >&2
    exit 1
  }

mkdir -p "$out"
cp "$tmp/shots-record/recording.png" "$tmp/shots-record/record-picker.png" "$out/"
cp "$tmp/shots-writer/flamechart.png" "$tmp/shots-writer/flamegraph.png" \
   "$tmp/shots-writer/call-tree.png" "$out/"
cp "$tmp/shots-threads/threads.png" "$out/threads.png"
cp "$tmp/shots-spans/flamechart.png" "$out/span-track.png"
cp "$tmp/shots-writer/send-preview.png" "$tmp/shots-writer/preferences.png" \
   "$tmp/shots-writer/preferences-sending.png" "$tmp/shots-writer/outbox.png" "$out/"
ls -l "$out"
