/* fc-span.c - transactions and their spans, on the profile's clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-span.h"

G_DEFINE_BOXED_TYPE (FcSpan, fc_span, fc_span_copy, fc_span_free)

FcSpan *
fc_span_new (const char *span_id,
             const char *parent_span_id,
             const char *trace_id,
             const char *op,
             const char *description,
             gint64      start_ns,
             gint64      end_ns)
{
  FcSpan *span = g_new0 (FcSpan, 1);

  span->span_id = g_strdup (span_id);
  span->parent_span_id = g_strdup (parent_span_id);
  span->trace_id = g_strdup (trace_id);
  span->op = g_strdup (op);
  span->description = g_strdup (description);
  span->start_ns = start_ns;
  span->end_ns = MAX (end_ns, start_ns);
  return span;
}

FcSpan *
fc_span_copy (const FcSpan *span)
{
  FcSpan *copy;

  g_return_val_if_fail (span != NULL, NULL);

  copy = g_memdup2 (span, sizeof *span);
  copy->span_id = g_strdup (span->span_id);
  copy->parent_span_id = g_strdup (span->parent_span_id);
  copy->trace_id = g_strdup (span->trace_id);
  copy->op = g_strdup (span->op);
  copy->description = g_strdup (span->description);
  return copy;
}

void
fc_span_free (FcSpan *span)
{
  if (span == NULL)
    return;
  g_free (span->span_id);
  g_free (span->parent_span_id);
  g_free (span->trace_id);
  g_free (span->op);
  g_free (span->description);
  g_free (span);
}

GPtrArray *
fc_spans_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) fc_span_free);
}

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const FcSpan *sa = *(const FcSpan **) a;
  const FcSpan *sb = *(const FcSpan **) b;

  if (sa->start_ns != sb->start_ns)
    return sa->start_ns < sb->start_ns ? -1 : 1;
  if (sa->end_ns != sb->end_ns)
    return sa->end_ns > sb->end_ns ? -1 : 1;
  /* a parent before its child when both cover the same time */
  return (sa->parent_span_id != NULL) - (sb->parent_span_id != NULL);
}

guint
fc_spans_arrange (GPtrArray *spans)
{
  g_autoptr(GHashTable) by_id = NULL;
  guint max_depth = 0;

  g_return_val_if_fail (spans != NULL, 0);

  if (spans->len == 0)
    return 0;

  g_ptr_array_sort (spans, compare_spans);

  /* trace id + span id: span ids are only unique within a trace */
  by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < spans->len; i++)
    {
      FcSpan *span = g_ptr_array_index (spans, i);

      if (span->span_id != NULL)
        g_hash_table_insert (by_id, g_strconcat (span->trace_id ? span->trace_id : "", "/", span->span_id, NULL),
                             span);
    }

  for (guint i = 0; i < spans->len; i++)
    {
      FcSpan *span = g_ptr_array_index (spans, i);
      const FcSpan *up = span;
      guint depth = 0;

      /* walk up; a parent loop in a bad payload stops at the number of spans */
      while (up->parent_span_id != NULL && depth <= spans->len)
        {
          g_autofree char *key = g_strconcat (up->trace_id ? up->trace_id : "", "/", up->parent_span_id, NULL);

          up = g_hash_table_lookup (by_id, key);
          if (up == NULL)
            break;
          depth++;
        }
      span->depth = depth;
      max_depth = MAX (max_depth, depth + 1);
    }
  return max_depth;
}
