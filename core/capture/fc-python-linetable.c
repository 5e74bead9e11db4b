/* fc-python-linetable.c - CPython's location table (PEP 626/657): code unit -> line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format of co_linetable in 3.11 and later (CPython's Objects/locations.md): a sequence
 * of entries, each starting with a byte whose bit 7 is set, bits 3-6 a code and bits 0-2 the
 * number of code units covered, minus one. The line is carried as a delta from the previous
 * entry's (from co_firstlineno for the first):
 *   codes 0-9     short form: same line, one byte of columns follows
 *   codes 10-12   one-line form: line + (code - 10), two bytes of columns follow
 *   code 13       no columns: a signed varint line delta follows
 *   code 14       long form: signed varint line delta, then end line, start and end column
 *   code 15       no location: no line (the delta is 0)
 * A varint is 6-bit chunks, least significant first, bit 6 set when another follows; a
 * signed varint holds the magnitude shifted left by one and the sign in bit 0.
 * Bytes other than an entry's first have bit 7 clear, so a torn or foreign table ends the
 * decoding, never the process.
 */

#include "fc-python-linetable.h"

static guint32
read_varint (const guint8 **p,
             const guint8  *end)
{
  guint32 value = 0;
  guint shift = 0;

  while (*p < end)
    {
      guint8 b = *(*p)++;
      if (shift < 32)
        value |= (guint32) (b & 63) << shift;
      shift += 6;
      if ((b & 64) == 0)
        break;
    }
  return value;
}

static gint32
read_svarint (const guint8 **p,
              const guint8  *end)
{
  guint32 u = read_varint (p, end);

  return (u & 1) ? -(gint32) (u >> 1) : (gint32) (u >> 1);
}

/**
 * fc_python_linetable_decode:
 * @table: (array length=len): a code object's co_linetable bytes
 *
 * Returns: (transfer full) (element-type FcPythonLineRange): the ranges in order of units
 */
GArray *
fc_python_linetable_decode (const guint8 *table,
                            gsize         len,
                            int           firstlineno)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (FcPythonLineRange));
  const guint8 *p = table, *end = table + len;
  gint64 line = firstlineno;
  guint32 unit = 0;

  while (p < end)
    {
      guint8 first = *p++;
      guint code = (first >> 3) & 15;
      FcPythonLineRange r;

      if ((first & 128) == 0)
        break;
      switch (code)
        {
        case 15:
          break;
        case 14:
          line += read_svarint (&p, end);
          read_varint (&p, end);
          read_varint (&p, end);
          read_varint (&p, end);
          break;
        case 13:
          line += read_svarint (&p, end);
          break;
        case 10: case 11: case 12:
          line += code - 10;
          p += 2;
          break;
        default:
          p += 1;
          break;
        }
      r.start = unit;
      unit += (first & 7) + 1;
      r.end = unit;
      r.line = code == 15 || line < 0 || line > G_MAXINT32 ? -1 : (gint32) line;
      /* one range per run of a line: what a lookup needs */
      if (ranges->len > 0 && g_array_index (ranges, FcPythonLineRange, ranges->len - 1).line == r.line &&
          g_array_index (ranges, FcPythonLineRange, ranges->len - 1).end == r.start)
        g_array_index (ranges, FcPythonLineRange, ranges->len - 1).end = r.end;
      else
        g_array_append_val (ranges, r);
    }
  return ranges;
}

/**
 * fc_python_linetable_line:
 * @unit: the code unit executing (the frame's instruction offset / 2); negative before the
 *   first instruction
 *
 * Returns: the line, @firstlineno for a negative @unit, -1 when the table has none for @unit
 */
int
fc_python_linetable_line (GArray *ranges,
                          int     firstlineno,
                          int     unit)
{
  const FcPythonLineRange *r = (const FcPythonLineRange *) (gpointer) ranges->data;
  guint lo = 0, hi = ranges->len;

  if (unit < 0)
    return firstlineno;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if ((guint32) unit < r[mid].start)
        hi = mid;
      else if ((guint32) unit >= r[mid].end)
        lo = mid + 1;
      else
        return r[mid].line;
    }
  return -1;
}
