/* fc-perf-script.c - the text `perf script` prints, read into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-interop-private.h"
#include "fc-json-util.h"
#include "fc-perf-script.h"
#include "fc-time.h"

typedef struct {
  char   *comm;
  char   *tid;
  gint64  time_ns;
} Header;

static void
header_clear (Header *h)
{
  g_clear_pointer (&h->comm, g_free);
  g_clear_pointer (&h->tid, g_free);
}
/* The error returns of fc_perf_script_read() leaked a parsed header (found by fuzz/fuzz-reader). */
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Header, header_clear)

/* "1234.567890:" -> ns, or -1 for seconds past FC_TIME_MAX_S: no clock
 * gives those, and seconds * 10^9 would wrap around 64 bits (the fuzzer's
 * "18446744074.0" read as 0.29 s) */
static gboolean
parse_time (const char *token,
            gint64     *ns)
{
  char *end = NULL;
  guint64 sec = g_ascii_strtoull (token, &end, 10);
  guint64 frac = 0;
  guint digits = 0;

  if (end == token || *end != '.')
    return FALSE;
  for (end++; g_ascii_isdigit (*end); end++, digits++)
    if (digits < 9)
      frac = frac * 10 + (*end - '0');
  if (digits == 0 || *end != ':' || end[1] != '\0')
    return FALSE;
  for (; digits < 9; digits++)
    frac *= 10;
  *ns = sec <= FC_TIME_MAX_S ? (gint64) (sec * FC_TIME_NS_PER_S + frac) : -1;
  return TRUE;
}

/* "comm 12/34 [001] 5.000001: 1000 cycles:" or "comm 34 5.000001: cycles:" */
static gboolean
parse_header (const char *line,
              Header     *h)
{
  g_auto(GStrv) tokens = g_strsplit_set (line, " \t", -1);
  guint n = g_strv_length (tokens);
  gint time_at = -1, tid_at = -1;

  for (guint i = 0; i < n; i++)
    if (tokens[i][0] != '\0' && parse_time (tokens[i], &h->time_ns))
      {
        time_at = i;
        break;
      }
  if (time_at < 1)
    return FALSE;
  for (gint i = time_at - 1; i >= 0; i--)
    {
      const char *t = tokens[i];
      const char *slash = strchr (t, '/');

      if (t[0] == '\0' || t[0] == '[')
        continue;
      if (slash != NULL && fc_str_is_decimal (slash + 1) && slash > t)
        {
          h->tid = g_strdup (slash + 1);
          tid_at = i;
        }
      else if (fc_str_is_decimal (t))
        {
          h->tid = g_strdup (t);
          tid_at = i;
        }
      break;
    }
  if (tid_at < 0)
    return FALSE;
  {
    g_autoptr(GString) comm = g_string_new (NULL);

    for (gint i = 0; i < tid_at; i++)
      if (tokens[i][0] != '\0')
        g_string_append_printf (comm, "%s%s", comm->len ? " " : "", tokens[i]);
    h->comm = g_string_free (g_steal_pointer (&comm), FALSE);
  }
  return TRUE;
}

gboolean
fc_perf_script_sniff (const char *data,
                      gsize       len)
{
  const char *p = data, *end = data + len;
  Header h = { 0 };
  gboolean ok = FALSE;

  /* skip perf's "# ..." comment block */
  while (p < end && *p == '#')
    {
      const char *nl = memchr (p, '\n', end - p);
      if (nl == NULL)
        return FALSE;
      p = nl + 1;
    }
  {
    const char *nl = memchr (p, '\n', end - p);
    g_autofree char *first = NULL;

    if (nl == NULL || nl + 1 >= end || (nl[1] != '\t' && nl[1] != ' '))
      return FALSE;
    first = g_strndup (p, nl - p);
    ok = parse_header (first, &h);
  }
  g_free (h.comm);
  g_free (h.tid);
  return ok;
}

/* before a sample is added, with its thread already made */
static gboolean
check_sample (FcProfile  *profile,
              guint       line_no,
              GError    **error)
{
  if (fc_profile_get_n_samples (profile) >= fc_interop_max_expanded_samples ())
    g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                 _("perf script, line %u: more than %" PRIu64 " samples in all, the reader's limit"), line_no,
                 fc_interop_max_expanded_samples ());
  else if (fc_profile_get_n_threads (profile) > FC_READ_MAX_THREADS)
    g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                 _("perf script, line %u: more than %u threads, the reader's limit"), line_no, FC_READ_MAX_THREADS);
  else
    return TRUE;
  return FALSE;
}

FcDocument *
fc_perf_script_read (GBytes  *bytes,
                     GError **error)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) profile = fc_interop_new_profile ("native");
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  const char *end = data + len;
  g_auto(Header) h = { 0 };
  gboolean in_sample = FALSE;
  guint line_no = 0;

  for (const char *line = data; line <= end; )
    {
      const char *nl = memchr (line, '\n', end - line);
      const char *line_end = nl ? nl : end;
      g_autofree char *text = g_strndup (line, line_end - line);
      gsize n = strlen (text);

      line_no++;
      if (n > 0 && text[n - 1] == '\r')
        text[--n] = '\0';

      if (in_sample && (n == 0 || (text[0] != ' ' && text[0] != '\t')))
        {
          /* the sample ends: a blank line (or a header without one) */
          guint32 thread = fc_profile_ensure_thread (profile, h.tid);

          if (!check_sample (profile, line_no, error))
            return NULL;
          fc_profile_get_thread_mut (profile, thread)->has_metadata = TRUE;
          if (h.comm[0] != '\0' && fc_profile_get_thread (profile, thread)->name == FC_STRING_NONE)
            fc_profile_set_thread_name (profile, thread, h.comm);
          fc_profile_append_sample (profile, h.time_ns, thread,
                                    fc_profile_intern_stack_frames (profile, (guint32 *) frames->data, frames->len), 0);
          if (!fc_interop_check_stacks (profile, "perf script", error))
            return NULL;
          g_clear_pointer (&h.comm, g_free);
          g_clear_pointer (&h.tid, g_free);
          in_sample = FALSE;
        }

      if (n == 0 || text[0] == '#')
        ;
      else if (text[0] != ' ' && text[0] != '\t')
        {
          if (!parse_header (text, &h))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                           _("perf script, line %u: expected a sample header \"comm pid/tid seconds: event:\""), line_no);
              return NULL;
            }
          if (h.time_ns < 0)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("perf script, line %u: the sample's time is past %" PRId64 " s (the year 2200)"),
                           line_no, FC_TIME_MAX_S);
              return NULL;
            }
          if (!g_utf8_validate (h.comm, -1, NULL))
            {
              g_free (h.comm);
              h.comm = g_strdup ("");
            }
          g_array_set_size (frames, 0);
          in_sample = TRUE;
        }
      else if (!in_sample)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                       _("perf script, line %u: a frame line before any sample header"), line_no);
          return NULL;
        }
      else
        {
          /* "\t    55d4c0a01234 main+0x14 (/usr/bin/prog)" */
          char *p = g_strstrip (text);
          char *space = strpbrk (p, " \t");
          char *sym, *dso = NULL, *plus;
          char *addr_end = NULL;
          guint64 addr = g_ascii_strtoull (p, &addr_end, 16);
          FcFrame frame;
          guint32 id;

          if (addr_end == p || (space != NULL && addr_end != space) || (space == NULL && *addr_end != '\0'))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                           _("perf script, line %u: expected \"ADDRESS SYMBOL (DSO)\""), line_no);
              return NULL;
            }
          sym = space != NULL ? g_strchug (space + 1) : addr_end;
          if (sym[0] != '\0' && sym[strlen (sym) - 1] == ')')
            {
              char *open = strrchr (sym, '(');

              /* the dso is the last parenthesised group, after a space */
              if (open != NULL && (open == sym || open[-1] == ' '))
                {
                  sym[strlen (sym) - 1] = '\0';
                  dso = open + 1;
                  open[0] = '\0';
                  g_strchomp (sym);
                }
            }
          plus = strrchr (sym, '+');
          if (plus != NULL && g_str_has_prefix (plus, "+0x"))
            *plus = '\0';

          fc_frame_init (&frame);
          if (sym[0] != '\0' && strcmp (sym, "[unknown]") != 0 && g_utf8_validate (sym, -1, NULL))
            frame.function = fc_profile_intern (profile, sym);
          if (dso != NULL && dso[0] != '\0' && strcmp (dso, "[unknown]") != 0 && g_utf8_validate (dso, -1, NULL))
            frame.package = frame.module = fc_profile_intern (profile, dso);
          frame.has_instruction_addr = TRUE;
          frame.instruction_addr = addr;
          if (frames->len >= FC_READ_MAX_STACK_DEPTH)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           _("perf script, line %u: more than %u frames in a sample, the reader's limit"), line_no,
                           FC_READ_MAX_STACK_DEPTH);
              return NULL;
            }
          id = fc_profile_intern_frame (profile, &frame);
          g_array_append_val (frames, id);
        }

      if (nl == NULL)
        break;
      line = nl + 1;
    }
  if (in_sample)
    {
      guint32 thread = fc_profile_ensure_thread (profile, h.tid);

      if (!check_sample (profile, line_no, error))
        return NULL;
      if (h.comm[0] != '\0' && fc_profile_get_thread (profile, thread)->name == FC_STRING_NONE)
        fc_profile_set_thread_name (profile, thread, h.comm);
      fc_profile_append_sample (profile, h.time_ns, thread,
                                fc_profile_intern_stack_frames (profile, (guint32 *) frames->data, frames->len), 0);
    }

  if (fc_profile_get_n_samples (profile) == 0)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING, _("perf script: no sample in the text"));
      return NULL;
    }
  if (!fc_interop_finish_profile (doc, profile, "perf script", error))
    return NULL;
  return g_steal_pointer (&doc);
}
