/* fc-jit-table.c - code regions a JIT compiler named: address range -> name, file, line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fed by the perf map and jitdump readers. Code can be freed and its range reused for other
 * code, so regions may overlap: the one added last covers an address. Entries are kept sorted
 * by start (sorted again, lazily, after additions); names live in a string chunk as long as
 * the table, since symbols handed out point to them.
 */

#include <string.h>

#include "fc-jit-table.h"

/* regions overlapping an address are at most this many places before the search's landing */
#define OVERLAP_SCAN 32

struct _FcJitTable {
  GArray       *entries;   /* FcJitEntry */
  gboolean      sorted;
  guint32       seq;
  guint         version;
  GStringChunk *strings;
};

FcJitTable *
fc_jit_table_new (void)
{
  FcJitTable *self = g_new0 (FcJitTable, 1);

  self->entries = g_array_new (FALSE, FALSE, sizeof (FcJitEntry));
  self->strings = g_string_chunk_new (64 * 1024);
  self->sorted = TRUE;
  return self;
}

void
fc_jit_table_free (FcJitTable *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->entries);
  g_string_chunk_free (self->strings);
  g_free (self);
}

void
fc_jit_table_add (FcJitTable *self,
                  guint64     start,
                  guint64     size,
                  const char *name,
                  gsize       name_len,
                  const char *file,
                  int         line)
{
  FcJitEntry e = { start, MAX (size, 1), self->seq++, NULL, NULL, line };

  g_autofree char *valid_name = g_utf8_make_valid (name, name_len);
  g_autofree char *valid_file = file != NULL ? g_utf8_make_valid (file, -1) : NULL;

  /* what a runtime wrote is anyone's guess: names go into JSON, so they are made UTF-8 */
  e.name = g_string_chunk_insert (self->strings, valid_name);
  e.file = valid_file != NULL ? g_string_chunk_insert_const (self->strings, valid_file) : NULL;
  if (self->entries->len > 0 && start < g_array_index (self->entries, FcJitEntry, self->entries->len - 1).start)
    self->sorted = FALSE;
  g_array_append_val (self->entries, e);
  self->version++;
}

/* JIT_CODE_MOVE: the code at @old_start now lives at @new_start */
void
fc_jit_table_move (FcJitTable *self,
                   guint64     old_start,
                   guint64     new_start)
{
  for (guint i = self->entries->len; i-- > 0;)
    {
      FcJitEntry *e = &g_array_index (self->entries, FcJitEntry, i);
      if (e->start == old_start)
        {
          fc_jit_table_add (self, new_start, e->size, e->name, strlen (e->name), e->file, e->line);
          return;
        }
    }
}

static int
compare_entry (gconstpointer a,
               gconstpointer b)
{
  const FcJitEntry *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

const FcJitEntry *
fc_jit_table_lookup (FcJitTable *self,
                     guint64     addr)
{
  const FcJitEntry *e;
  const FcJitEntry *best = NULL;
  gint64 lo = 0, hi, found = -1;

  if (!self->sorted)
    {
      g_array_sort (self->entries, compare_entry);
      self->sorted = TRUE;
    }
  e = (const FcJitEntry *) (gpointer) self->entries->data;
  hi = (gint64) self->entries->len - 1;
  while (lo <= hi)
    {
      gint64 mid = (lo + hi) / 2;
      if (e[mid].start <= addr)
        {
          found = mid;
          lo = mid + 1;
        }
      else
        hi = mid - 1;
    }
  for (gint64 i = found; i >= 0 && i > found - OVERLAP_SCAN; i--)
    if (addr - e[i].start < e[i].size && (best == NULL || e[i].seq > best->seq))
      best = &e[i];
  return best;
}

guint
fc_jit_table_get_n_entries (FcJitTable *self)
{
  return self->entries->len;
}

guint
fc_jit_table_get_version (FcJitTable *self)
{
  return self->version;
}
