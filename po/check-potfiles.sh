#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# po/POTFILES.in must list every file with translatable strings (C files using
# _(), N_(), C_() or ngettext(), .ui files with translatable="yes", the desktop
# file, the metainfo and the schema), every listed file must exist, and the
# list must be sorted.
set -eu

srcdir=${1:-$(dirname "$0")/..}
cd "$srcdir"

listed=$(mktemp)
found=$(mktemp)
trap 'rm -f "$listed" "$found"' EXIT

grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in > "$listed"

{
  grep -l -E '(^|[^A-Za-z0-9_])(N?_|C_|ngettext|g_dngettext)[[:space:]]*\(' \
    $(find app core cli -name '*.c' 2>/dev/null) 2>/dev/null || true
  grep -l 'translatable="yes"' $(find resources -name '*.ui' 2>/dev/null) 2>/dev/null || true
  find resources -name '*.desktop.in' -o -name '*.metainfo.xml.in' -o -name '*.gschema.xml'
} | sed 's|^\./||' | LC_ALL=C sort -u > "$found"

status=0
missing=$(LC_ALL=C comm -13 "$listed" "$found")
if [ -n "$missing" ]; then
  echo "Files with translatable strings missing from po/POTFILES.in:"
  echo "$missing" | sed 's/^/  /'
  status=1
fi

while read -r f; do
  if [ ! -f "$f" ]; then
    echo "po/POTFILES.in lists $f, which does not exist"
    status=1
  fi
done < "$listed"

if ! LC_ALL=C sort -c "$listed" 2>/dev/null; then
  echo "po/POTFILES.in is not sorted (LC_ALL=C sort)"
  status=1
fi

[ $status = 0 ] && echo "po/POTFILES.in lists all $(wc -l < "$found") files with translatable strings"
exit $status
