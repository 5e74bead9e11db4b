/* fc-diff.c - two profiles compared: shares of samples by function and by call path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "fc-diff.h"

struct _FcDiff {
  guint64    n_before;
  guint64    n_after;
  GPtrArray *functions;
  GPtrArray *paths;
  GPtrArray *roots;
};

typedef struct {
  guint64 self;
  guint64 total;
} Counts;

typedef struct _Pair Pair;
struct _Pair {
  Counts       before;
  Counts       after;
  /* paths only: the path one function shorter (NULL at the root), where
   * the last label starts in the key, and the entry made from it */
  Pair        *parent;
  gsize        label_offset;
  FcDiffEntry *entry;
};

static void
entry_free (gpointer data)
{
  FcDiffEntry *e = data;

  g_free (e->name);
  g_clear_pointer (&e->children, g_ptr_array_unref);
  g_free (e);
}

/* adds @profile's samples to @functions and @paths (name -> Pair), @after choosing the side */
static guint64
count_profile (FcProfile  *profile,
               gboolean    after,
               GHashTable *functions,
               GHashTable *paths)
{
  g_autoptr(GHashTable) per_stack = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) path = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;
  const FcSample *samples;
  guint n = 0;

  /* stacks repeat: count samples per stack, then walk each stack once */
  samples = fc_profile_get_samples (profile, &n);
  for (guint i = 0; i < n; i++)
    {
      gpointer k = GUINT_TO_POINTER (samples[i].stack + 1);

      g_hash_table_insert (per_stack, k, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (per_stack, k)) + 1));
    }

  g_hash_table_iter_init (&iter, per_stack);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint32 stack = GPOINTER_TO_UINT (key) - 1;
      guint64 count = GPOINTER_TO_SIZE (value);
      const FcStackNode *node = fc_profile_get_stack (profile, stack);
      Pair *up = NULL;

      g_array_set_size (frames, node->depth);
      fc_profile_stack_frames (profile, stack, (guint32 *) frames->data, node->depth);
      g_ptr_array_set_size (labels, 0);
      for (guint d = node->depth; d > 0; d--)
        {
          char buf[256];

          g_ptr_array_add (labels, g_strdup (fc_profile_frame_label (profile, g_array_index (frames, guint32, d - 1),
                                                                     buf, sizeof buf)));
        }

      /* functions: total once per stack (recursion counts once), self for the leaf */
      g_hash_table_remove_all (seen);
      for (guint d = 0; d < labels->len; d++)
        {
          const char *label = g_ptr_array_index (labels, d);
          Pair *pair = g_hash_table_lookup (functions, label);
          Counts *c;

          if (pair == NULL)
            {
              pair = g_new0 (Pair, 1);
              g_hash_table_insert (functions, g_strdup (label), pair);
            }
          c = after ? &pair->after : &pair->before;
          if (g_hash_table_add (seen, (gpointer) label))
            c->total += count;
          if (d + 1 == labels->len)
            c->self += count;
        }

      /* paths: every prefix gets the total, the whole stack the self */
      g_string_truncate (path, 0);
      for (guint d = 0; d < labels->len; d++)
        {
          Pair *pair;
          gsize offset;

          if (d > 0)
            g_string_append_c (path, ';');
          offset = path->len;
          g_string_append (path, g_ptr_array_index (labels, d));
          pair = g_hash_table_lookup (paths, path->str);
          if (pair == NULL)
            {
              pair = g_new0 (Pair, 1);
              pair->parent = up;
              pair->label_offset = offset;
              g_hash_table_insert (paths, g_strdup (path->str), pair);
            }
          up = pair;
          (after ? &pair->after : &pair->before)->total += count;
          if (d + 1 == labels->len)
            (after ? &pair->after : &pair->before)->self += count;
        }
    }
  return n;
}

static int
compare_functions (gconstpointer a,
                   gconstpointer b)
{
  const FcDiffEntry *x = *(FcDiffEntry * const *) a;
  const FcDiffEntry *y = *(FcDiffEntry * const *) b;
  double dx = fabs (fc_diff_entry_delta_self (x)), dy = fabs (fc_diff_entry_delta_self (y));

  if (dx != dy)
    return dx > dy ? -1 : 1;
  dx = fabs (fc_diff_entry_delta_total (x));
  dy = fabs (fc_diff_entry_delta_total (y));
  if (dx != dy)
    return dx > dy ? -1 : 1;
  return strcmp (x->name, y->name);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  const FcDiffEntry *x = *(FcDiffEntry * const *) a;
  const FcDiffEntry *y = *(FcDiffEntry * const *) b;
  double dx = fabs (fc_diff_entry_delta_total (x)), dy = fabs (fc_diff_entry_delta_total (y));

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return strcmp (x->name, y->name);
}

static GPtrArray *
to_entries (GHashTable *table,
            double      before_scale,
            double      after_scale,
            gboolean    paths)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (entry_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Pair *pair = value;
      FcDiffEntry *e = g_new0 (FcDiffEntry, 1);

      e->name = g_strdup (key);
      if (paths)
        {
          e->label = e->name + pair->label_offset;
          pair->entry = e;
        }
      e->before_self = pair->before.self * before_scale;
      e->after_self = pair->after.self * after_scale;
      e->before_total = pair->before.total * before_scale;
      e->after_total = pair->after.total * after_scale;
      e->before_count = paths ? pair->before.self : pair->before.total;
      e->after_count = paths ? pair->after.self : pair->after.total;
      g_ptr_array_add (out, e);
    }
  g_ptr_array_sort (out, paths ? compare_paths : compare_functions);
  return out;
}

/* each path's entry into its parent's children (or the roots), then every
 * list sorted like the paths: the call tree of both profiles */
static GPtrArray *
link_paths (GHashTable *paths)
{
  GPtrArray *roots = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, paths);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Pair *pair = value;
      FcDiffEntry *up = pair->parent != NULL ? pair->parent->entry : NULL;

      if (up == NULL)
        g_ptr_array_add (roots, pair->entry);
      else
        {
          if (up->children == NULL)
            up->children = g_ptr_array_new ();
          g_ptr_array_add (up->children, pair->entry);
        }
    }
  g_ptr_array_sort (roots, compare_paths);
  g_hash_table_iter_init (&iter, paths);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (((Pair *) value)->entry->children != NULL)
      g_ptr_array_sort (((Pair *) value)->entry->children, compare_paths);
  return roots;
}

/**
 * fc_diff_new:
 *
 * Compares @before with @after. Neither is changed.
 */
FcDiff *
fc_diff_new (FcProfile   *before,
             FcProfile   *after,
             FcDiffFlags  flags)
{
  g_autoptr(GHashTable) functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  FcDiff *self;
  double bs = 1, as = 1;

  g_return_val_if_fail (FC_IS_PROFILE (before), NULL);
  g_return_val_if_fail (FC_IS_PROFILE (after), NULL);

  self = g_atomic_rc_box_new0 (FcDiff);
  self->n_before = count_profile (before, FALSE, functions, paths);
  self->n_after = count_profile (after, TRUE, functions, paths);
  if (!(flags & FC_DIFF_ABSOLUTE))
    {
      bs = self->n_before > 0 ? 1.0 / self->n_before : 0;
      as = self->n_after > 0 ? 1.0 / self->n_after : 0;
    }
  self->functions = to_entries (functions, bs, as, FALSE);
  self->paths = to_entries (paths, bs, as, TRUE);
  self->roots = link_paths (paths);
  return self;
}

static void
diff_clear (gpointer data)
{
  FcDiff *self = data;

  g_ptr_array_unref (self->roots);
  g_ptr_array_unref (self->functions);
  g_ptr_array_unref (self->paths);
}

FcDiff *
fc_diff_ref (FcDiff *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
fc_diff_unref (FcDiff *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, diff_clear);
}

guint64
fc_diff_get_n_before (FcDiff *self)
{
  return self->n_before;
}

guint64
fc_diff_get_n_after (FcDiff *self)
{
  return self->n_after;
}

GPtrArray *
fc_diff_get_functions (FcDiff *self)
{
  return self->functions;
}

GPtrArray *
fc_diff_get_paths (FcDiff *self)
{
  return self->paths;
}

GPtrArray *
fc_diff_get_roots (FcDiff *self)
{
  return self->roots;
}
