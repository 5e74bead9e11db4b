/* fc-folded.c - folded ("collapsed") stacks, as flamegraph.pl, inferno and speedscope read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-folded.h"
#include "fc-interop-private.h"

#define FOLDED_PERIOD_NS G_GINT64_CONSTANT (10000000)

/* ';' separates frames and control bytes would make the file binary to
 * readers (ours included): neither may stay in a name */
static void
append_name (GString    *out,
             const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    g_string_append_c (out, *p == ';' ? ':' : ((guchar) *p < 0x20 || *p == 0x7f) ? ' ' : *p);
}

static void
append_thread (GString        *out,
               FcProfile      *profile,
               const FcThread *thread)
{
  const char *name = fc_profile_string (profile, thread->name);
  const char *tid = fc_profile_string (profile, thread->tid);

  if (name != NULL && name[0] != '\0')
    {
      append_name (out, name);
      g_string_append_printf (out, " %s", tid ? tid : "");
    }
  else
    g_string_append_printf (out, "tid %s", tid ? tid : "?");
}

typedef struct {
  char  *line;     /* "a;b;c", owned by the lines' chunk */
  gsize  count;
} Line;

static int
compare_lines (const void *a,
               const void *b)
{
  return strcmp (((const Line *) a)->line, ((const Line *) b)->line);
}

/* Each frame's label, escaped, once per profile: a stack repeats the same
 * few thousand frames, and composing a label ("libx.so@0x1234") costs a
 * printf. */
static const char *
frame_text (GPtrArray    *cache,
            GStringChunk *chunk,
            GString      *tmp,
            FcProfile    *profile,
            guint32       frame_id)
{
  const char *text = g_ptr_array_index (cache, frame_id);

  if (text == NULL)
    {
      char buf[256];

      g_string_truncate (tmp, 0);
      append_name (tmp, fc_profile_frame_label (profile, frame_id, buf, sizeof buf));
      text = g_string_chunk_insert_len (chunk, tmp->str, tmp->len);
      g_ptr_array_index (cache, frame_id) = (gpointer) text;
    }
  return text;
}

GBytes *
fc_folded_write (FcDocument  *document,
                 gboolean     per_thread,
                 GError     **error)
{
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) tmp = g_string_new (NULL);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GStringChunk) chunk = g_string_chunk_new (1 << 20);
  GString *out;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    {
      FcProfile *profile = fc_document_get_profile (document, i);
      /* a stack's text is the same for every sample: count per (thread, stack) first */
      g_autoptr(GHashTable) by_stack = g_hash_table_new (g_direct_hash, g_direct_equal);
      g_autoptr(GPtrArray) labels = g_ptr_array_new ();
      GHashTableIter iter;
      gpointer key, value;
      const FcSample *all;
      guint n = 0;

      g_ptr_array_set_size (labels, fc_profile_get_n_frames (profile));
      all = fc_profile_get_samples (profile, &n);
      for (guint s = 0; s < n; s++)
        {
          guint64 k = ((guint64) (per_thread ? all[s].thread : 0) << 32 | all[s].stack) + 1;
          gpointer old = g_hash_table_lookup (by_stack, GSIZE_TO_POINTER (k));

          g_hash_table_insert (by_stack, GSIZE_TO_POINTER (k), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + 1));
        }

      g_hash_table_iter_init (&iter, by_stack);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          guint64 k = GPOINTER_TO_SIZE (key) - 1;
          guint32 stack = (guint32) k;
          const FcStackNode *node = fc_profile_get_stack (profile, stack);
          Line l;

          g_string_truncate (line, 0);
          if (per_thread)
            append_thread (line, profile, fc_profile_get_thread (profile, (guint32) (k >> 32)));
          g_array_set_size (frames, node->depth);
          fc_profile_stack_frames (profile, stack, (guint32 *) frames->data, node->depth);
          for (guint f = frames->len; f > 0; f--)
            {
              if (line->len > 0)
                g_string_append_c (line, ';');
              g_string_append (line, frame_text (labels, chunk, tmp, profile, g_array_index (frames, guint32, f - 1)));
            }
          /* a sample with no frames at all still counts */
          if (line->len == 0)
            g_string_append (line, "[no frames]");
          /* and no name may make the line something else: '#' starts a
           * comment, and the reader, telling formats apart, skips blanks and
           * a byte-order mark, then takes '{' for JSON */
          if (strchr (" \t#{", line->str[0]) != NULL || g_str_has_prefix (line->str, "\xef\xbb\xbf"))
            g_string_prepend_c (line, '_');
          l.line = g_string_chunk_insert_len (chunk, line->str, line->len);
          l.count = GPOINTER_TO_SIZE (value);
          g_array_append_val (lines, l);
        }
    }

  /* sorted, and the stacks that read the same (two frames with one label,
   * or one stack in two profiles) merged: cheaper than hashing each line */
  g_array_sort (lines, compare_lines);
  out = g_string_new (NULL);
  for (guint i = 0; i < lines->len;)
    {
      const Line *l = &g_array_index (lines, Line, i);
      gsize count = 0;
      guint j;

      for (j = i; j < lines->len && strcmp (g_array_index (lines, Line, j).line, l->line) == 0; j++)
        count += g_array_index (lines, Line, j).count;
      g_string_append (out, l->line);
      g_string_append_printf (out, " %zu\n", count);
      i = j;
    }
  return fc_interop_string_to_bytes (out);
}

/* the count at the end of a line, or -1 */
static gint64
split_count (const char  *line,
             gsize        len,
             gsize       *stack_len)
{
  gsize i = len;
  guint64 count = 0;

  while (i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t' || line[i - 1] == '\r'))
    i--;
  len = i;
  while (i > 0 && g_ascii_isdigit (line[i - 1]))
    i--;
  if (i == len || i == 0 || (line[i - 1] != ' ' && line[i - 1] != '\t') || len - i > 15)
    return -1;
  for (gsize j = i; j < len; j++)
    count = count * 10 + (line[j] - '0');
  *stack_len = i - 1;
  return (gint64) count;
}

gboolean
fc_folded_sniff (const char *data,
                 gsize       len)
{
  const char *nl = memchr (data, '\n', len);
  gsize line_len = nl ? (gsize) (nl - data) : len;
  gsize stack_len = 0;

  /* a whole first line, text, ending in a count */
  if (nl == NULL && len >= 65536)
    return FALSE;
  for (gsize i = 0; i < line_len; i++)
    if ((guchar) data[i] < 0x20 && data[i] != '\t' && data[i] != '\r')
      return FALSE;
  return line_len > 0 && data[0] != '{' && split_count (data, line_len, &stack_len) >= 0 &&
         stack_len > 0;
}

FcDocument *
fc_folded_read (GBytes  *bytes,
                GError **error)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) profile = fc_interop_new_profile ("native");
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  const char *end = data + len;
  guint32 thread = fc_profile_ensure_thread (profile, "0");
  gint64 t = g_get_real_time () / 1000 * 1000000;
  guint64 total = 0;
  guint line_no = 0;

  for (const char *line = data; line < end; )
    {
      const char *nl = memchr (line, '\n', end - line);
      gsize line_len = nl ? (gsize) (nl - line) : (gsize) (end - line);
      gsize stack_len = 0;
      gint64 count;
      guint32 stack;

      line_no++;
      if (line_len == 0 || (line_len == 1 && line[0] == '\r') || line[0] == '#')
        goto next;
      count = split_count (line, line_len, &stack_len);
      if (count < 0 || stack_len == 0)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                       _("folded stacks, line %u: expected \"frame;frame;... COUNT\""), line_no);
          return NULL;
        }
      if (!g_utf8_validate (line, stack_len, NULL))
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                       _("folded stacks, line %u: not UTF-8"), line_no);
          return NULL;
        }
      total += count;
      if (total > fc_interop_max_expanded_samples ())
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                       _("folded stacks, line %u: more than %" PRIu64 " samples in all"), line_no,
                       fc_interop_max_expanded_samples ());
          return NULL;
        }

      /* root first in the text, leaf first in the model: reversed at the
       * end (a prepend per frame was quadratic in the depth) */
      g_array_set_size (frames, 0);
      for (const char *f = line; f < line + stack_len; )
        {
          const char *semi = memchr (f, ';', line + stack_len - f);
          const char *f_end = semi ? semi : line + stack_len;
          FcFrame frame;
          guint32 id;

          if (frames->len >= FC_READ_MAX_STACK_DEPTH)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           _("folded stacks, line %u: more than %u frames, the reader's limit"), line_no,
                           FC_READ_MAX_STACK_DEPTH);
              return NULL;
            }
          fc_frame_init (&frame);
          frame.function = fc_profile_intern_len (profile, f, f_end - f);
          id = fc_profile_intern_frame (profile, &frame);
          g_array_append_val (frames, id);
          f = f_end + 1;
        }
      for (guint a = 0, b = frames->len; a + 1 < b; a++, b--)
        {
          guint32 tmp = g_array_index (frames, guint32, a);

          g_array_index (frames, guint32, a) = g_array_index (frames, guint32, b - 1);
          g_array_index (frames, guint32, b - 1) = tmp;
        }
      stack = fc_profile_intern_stack_frames (profile, (guint32 *) frames->data, frames->len);
      if (!fc_interop_check_stacks (profile, "folded stacks", error))
        return NULL;
      for (gint64 c = 0; c < count; c++, t += FOLDED_PERIOD_NS)
        fc_profile_append_sample (profile, t, thread, stack, 0);

    next:
      if (nl == NULL)
        break;
      line = nl + 1;
    }

  if (fc_profile_get_n_samples (profile) == 0)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING, _("folded stacks: no sample in the file"));
      return NULL;
    }
  if (!fc_interop_finish_profile (doc, profile, "folded stacks", error))
    return NULL;
  return g_steal_pointer (&doc);
}
