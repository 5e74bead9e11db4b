/* fc-import.c - profiles from other tools, told apart by content: pprof, OTLP, speedscope, folded, perf script
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-folded.h"
#include "fc-import.h"
#include "fc-otlp.h"
#include "fc-perf-script.h"
#include "fc-pprof.h"
#include "fc-read-limits.h"
#include "fc-speedscope.h"

/* JSON whose first key is OTLP's */
static gboolean
is_otlp_json (const char *p,
              const char *end)
{
  static const char *const keys[] = { "\"resourceProfiles\"", "\"resource_profiles\"", "\"dictionary\"" };

  while (p < end && g_ascii_isspace (*p))
    p++;
  if (p == end || *p != '{')
    return FALSE;
  for (p++; p < end && g_ascii_isspace (*p); p++)
    ;
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if ((gsize) (end - p) >= strlen (keys[i]) && memcmp (p, keys[i], strlen (keys[i])) == 0)
      return TRUE;
  return FALSE;
}

/* text is what has no NUL and no control bytes other than whitespace */
static gboolean
looks_like_text (const guint8 *head,
                 gsize         len)
{
  for (gsize i = 0; i < MIN (len, 4096); i++)
    if (head[i] < 0x20 && head[i] != '\n' && head[i] != '\r' && head[i] != '\t')
      return FALSE;
  return TRUE;
}

FcImportKind
fc_import_sniff (const guint8 *head,
                 gsize         len)
{
  const char *text = (const char *) head;
  gsize i = 0;

  if (len >= 3 && memcmp (head, "\xef\xbb\xbf", 3) == 0)
    i = 3;
  while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
    i++;
  if (i == len)
    return FC_IMPORT_NONE;

  /* JSON: Sentry's own (payloads and envelopes, whose later items may be
   * binary) unless the first key says otherwise */
  if (head[i] == '{')
    {
      if (is_otlp_json (text + i, text + len))
        return FC_IMPORT_OTLP_JSON;
      if (fc_speedscope_sniff (text + i, len - i))
        return FC_IMPORT_SPEEDSCOPE;
      return FC_IMPORT_NONE;
    }
  if (!looks_like_text (head, len))
    return FC_IMPORT_PPROF;
  if (fc_perf_script_sniff (text + i, len - i))
    return FC_IMPORT_PERF_SCRIPT;
  if (fc_folded_sniff (text + i, len - i))
    return FC_IMPORT_FOLDED;
  return FC_IMPORT_NONE;
}

const char *
fc_import_kind_name (FcImportKind kind)
{
  switch (kind)
    {
    case FC_IMPORT_OTLP:
    case FC_IMPORT_PPROF:
      return "protobuf (pprof or OTLP)";
    case FC_IMPORT_OTLP_JSON:
      return "OTLP/JSON";
    case FC_IMPORT_SPEEDSCOPE:
      return "speedscope";
    case FC_IMPORT_FOLDED:
      return "folded stacks";
    case FC_IMPORT_PERF_SCRIPT:
      return "perf script";
    case FC_IMPORT_NONE:
    default:
      return "Sentry JSON";
    }
}

FcDocument *
fc_import_load (FcImportKind   kind,
                GBytes        *bytes,
                GError       **error)
{
  g_return_val_if_fail (bytes != NULL, NULL);

  if (g_bytes_get_size (bytes) > FC_READ_MAX_WHOLE_SIZE)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   _("%s: %zu bytes, more than the %" PRIu64 " MiB the reader holds whole"),
                   fc_import_kind_name (kind), g_bytes_get_size (bytes), FC_READ_MAX_WHOLE_SIZE >> 20);
      return NULL;
    }

  switch (kind)
    {
    case FC_IMPORT_OTLP:
    case FC_IMPORT_PPROF:
      /* both are protobuf: each decoder refuses the other's field types */
      if (fc_otlp_sniff (bytes))
        return fc_otlp_read (bytes, error);
      if (fc_pprof_sniff (bytes))
        return fc_pprof_read (bytes, error);
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("%zu bytes of binary data that are neither JSON, a pprof profile "
                   "nor OTLP ProfilesData"), g_bytes_get_size (bytes));
      return NULL;
    case FC_IMPORT_OTLP_JSON:
      return fc_otlp_read_json (bytes, error);
    case FC_IMPORT_SPEEDSCOPE:
      return fc_speedscope_read (bytes, error);
    case FC_IMPORT_FOLDED:
      return fc_folded_read (bytes, error);
    case FC_IMPORT_PERF_SCRIPT:
      return fc_perf_script_read (bytes, error);
    case FC_IMPORT_NONE:
    default:
      g_return_val_if_reached (NULL);
    }
}
