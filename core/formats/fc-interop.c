/* fc-interop.c - what the OTLP, pprof, speedscope and folded writers and readers share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-interop-private.h"
#include "fc-json-util.h"
#include "fc-time.h"
#include "fc-transaction.h"

void
fc_string_table_init (FcStringTable *table)
{
  table->index = g_hash_table_new (g_str_hash, g_str_equal);
  table->strings = g_ptr_array_new ();
  table->owned = g_string_chunk_new (4096);
  g_ptr_array_add (table->strings, (gpointer) "");
}

void
fc_string_table_clear (FcStringTable *table)
{
  g_clear_pointer (&table->index, g_hash_table_unref);
  g_clear_pointer (&table->strings, g_ptr_array_unref);
  g_clear_pointer (&table->owned, g_string_chunk_free);
}

guint
fc_string_table_add (FcStringTable *table,
                     const char    *str)
{
  gpointer value;

  if (str == NULL || str[0] == '\0')
    return 0;
  value = g_hash_table_lookup (table->index, str);
  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;
  g_ptr_array_add (table->strings, (gpointer) str);
  g_hash_table_insert (table->index, (gpointer) str, GUINT_TO_POINTER (table->strings->len));
  return table->strings->len - 1;
}

guint
fc_string_table_add_copy (FcStringTable *table,
                          const char    *str)
{
  gpointer value;

  if (str == NULL || str[0] == '\0')
    return 0;
  value = g_hash_table_lookup (table->index, str);
  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;
  return fc_string_table_add (table, g_string_chunk_insert (table->owned, str));
}

#define ARENA_BLOCK (256 * 1024)

void
fc_arena_init (FcArena *arena)
{
  arena->blocks = g_ptr_array_new_with_free_func (g_free);
  arena->cur = NULL;
  arena->left = 0;
}

void
fc_arena_clear (FcArena *arena)
{
  g_clear_pointer (&arena->blocks, g_ptr_array_unref);
  arena->cur = NULL;
  arena->left = 0;
}

gpointer
fc_arena_alloc0 (FcArena *arena,
                 gsize    size)
{
  gpointer p;

  size = (size + 7) & ~(gsize) 7;
  if (size > ARENA_BLOCK / 4)
    {
      /* big ones get their own block, leaving the current one in use */
      p = g_malloc0 (size);
      g_ptr_array_add (arena->blocks, p);
      return p;
    }
  if (size > arena->left)
    {
      arena->cur = g_malloc0 (ARENA_BLOCK);
      arena->left = ARENA_BLOCK;
      g_ptr_array_add (arena->blocks, arena->cur);
    }
  p = arena->cur;
  arena->cur += size;
  arena->left -= size;
  return p;
}

guint32
fc_interop_leaf_location (FcProfile *profile,
                          guint32    stack,
                          GArray    *frames)
{
  const FcStackNode *node = fc_profile_get_stack (profile, stack);
  const FcFrame *frame = fc_profile_get_frame (profile, node->frame);

  g_array_set_size (frames, 0);
  g_array_append_val (frames, node->frame);
  while (node->parent != FC_STACK_EMPTY)
    {
      const FcStackNode *up = fc_profile_get_stack (profile, node->parent);
      const FcFrame *up_frame = fc_profile_get_frame (profile, up->frame);

      /* the same frame twice in a row is recursion, not inlining */
      if (!frame->has_instruction_addr || !up_frame->has_instruction_addr ||
          frame->instruction_addr != up_frame->instruction_addr || up->frame == node->frame)
        break;
      g_array_append_val (frames, up->frame);
      node = up;
      frame = up_frame;
    }
  return node->parent;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

gint64
fc_interop_period_ns (FcProfile *profile)
{
  g_autoptr(GArray) gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
  const FcSample *samples;
  guint n = 0;

  for (guint t = 0; t < fc_profile_get_n_threads (profile) && gaps->len < 100000; t++)
    {
      guint n_idx = 0;
      const guint32 *idx = fc_profile_get_thread_samples (profile, t, &n_idx);

      samples = fc_profile_get_samples (profile, &n);
      for (guint i = 1; i < n_idx && gaps->len < 100000; i++)
        {
          gint64 gap = samples[idx[i]].timestamp_ns - samples[idx[i - 1]].timestamp_ns;

          if (gap > 0)
            g_array_append_val (gaps, gap);
        }
    }
  if (gaps->len == 0)
    return G_GINT64_CONSTANT (1000000000) / 101;
  g_array_sort (gaps, compare_gint64);
  /* samples a minute apart are no sampling rate; the cap also keeps
   * "last sample + one period" within 64 bits for any timestamp */
  return MIN (g_array_index (gaps, gint64, gaps->len / 2), 60 * G_GINT64_CONSTANT (1000000000));
}

gboolean
fc_interop_check_stacks (FcProfile   *profile,
                         const char  *where,
                         GError     **error)
{
  if (fc_profile_get_n_stacks (profile) <= FC_READ_MAX_STACK_NODES)
    return TRUE;
  g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
               _("%s: more than %" PRIu64 " distinct stacks, the reader's limit"), where,
               FC_READ_MAX_STACK_NODES);
  return FALSE;
}

static guint64 max_expanded_samples = FC_INTEROP_MAX_EXPANDED_SAMPLES;

guint64
fc_interop_max_expanded_samples (void)
{
  return max_expanded_samples;
}

void
fc_interop_set_max_expanded_samples (guint64 max)
{
  max_expanded_samples = MIN (max, FC_INTEROP_MAX_EXPANDED_SAMPLES);
}

FcProfile *
fc_interop_new_profile (const char *platform)
{
  FcProfile *profile = fc_profile_new (FC_FORMAT_V2);
  JsonObject *meta = fc_profile_get_meta (profile);
  g_autofree char *chunk_id = fc_uuid_hex_new ();
  g_autofree char *profiler_id = fc_uuid_hex_new ();

  json_object_set_string_member (meta, "version", "2");
  json_object_set_string_member (meta, "chunk_id", chunk_id);
  json_object_set_string_member (meta, "profiler_id", profiler_id);
  json_object_set_string_member (meta, "platform", platform);
  return profile;
}

gboolean
fc_interop_finish_profile (FcDocument  *document,
                           FcProfile   *profile,
                           const char  *where,
                           GError     **error)
{
  guint n = 0;
  const FcSample *samples = fc_profile_get_samples (profile, &n);

  for (guint i = 0; i < n; i++)
    if (samples[i].timestamp_ns < 0 || samples[i].timestamp_ns > FC_TIME_MAX_S * FC_TIME_NS_PER_S)
      {
        g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                     _("%s: sample %u is at %" PRId64 " ns since 1970, outside 1970..2200"),
                     where, i, samples[i].timestamp_ns);
        return FALSE;
      }
  fc_profile_sort_samples (profile);
  fc_document_add_profile (document, profile);
  return TRUE;
}

GBytes *
fc_interop_string_to_bytes (GString *str)
{
  gsize len = str->len;

  return g_bytes_new_take (g_string_free (str, FALSE), len);
}

GBytes *
fc_interop_gzip (const guint8  *data,
                 gsize          len,
                 GError       **error)
{
  /* libdeflate at its fastest level: about twice zlib's level 1 speed with
   * a smaller result (Go writes pprof at gzip.BestSpeed too) */
  struct libdeflate_compressor *compressor = libdeflate_alloc_compressor (1);
  gsize bound, size;
  guint8 *out;

  if (compressor == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("gzip: no memory for a compressor of %zu bytes"), len);
      return NULL;
    }
  bound = libdeflate_gzip_compress_bound (compressor, len);
  out = g_malloc (bound);
  size = libdeflate_gzip_compress (compressor, data, len, out, bound);
  libdeflate_free_compressor (compressor);
  /* the bound is what libdeflate promises to fit in */
  g_assert (size > 0);
  return g_bytes_new_take (g_realloc (out, size), size);
}

void
fc_interop_append_json_string (GString    *out,
                    const char *str)
{
  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) str; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}
