/* fc-export-plan.c - where a document goes when written out: other tools' formats, numbered files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's Save and Export and `flamecast-cli convert` both write through
 * here, so that a format and a file name mean the same in both.
 */

#include <string.h>

#include "fc-export-plan.h"
#include "fc-folded.h"
#include "fc-otlp.h"
#include "fc-pprof.h"
#include "fc-speedscope.h"

/**
 * fc_export_write_document:
 * @document: what to write
 * @format: an other tool's format
 * @per_thread: (collapsed stacks) one line prefix per thread
 * @error: where a writer's refusal goes
 *
 * Returns: (transfer full) (nullable): @document in @format
 */
GBytes *
fc_export_write_document (FcDocument      *document,
                          FcExportFormat   format,
                          gboolean         per_thread,
                          GError         **error)
{
  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  switch (format)
    {
    case FC_EXPORT_FORMAT_OTLP:       return fc_otlp_write (document, error);
    case FC_EXPORT_FORMAT_OTLP_JSON:  return fc_otlp_write_json (document, error);
    case FC_EXPORT_FORMAT_PPROF:      return fc_pprof_write (document, error);
    case FC_EXPORT_FORMAT_SPEEDSCOPE: return fc_speedscope_write (document, error);
    case FC_EXPORT_FORMAT_COLLAPSED:  return fc_folded_write (document, per_thread, error);
    default:                          g_return_val_if_reached (NULL);
    }
}

/**
 * fc_export_numbered_path:
 * @path: the file name the user gave ("out.json")
 * @n: which of the files, from 1
 * @total: how many files the document takes
 *
 * One file keeps its name; several are numbered before the extension:
 * "out.1.json", "out.2.json"... (a name without one: "out.1").
 *
 * Returns: (transfer full): the @n-th file's path
 */
char *
fc_export_numbered_path (const char *path,
                         guint       n,
                         guint       total)
{
  g_autofree char *base = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  const char *dot;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (n >= 1 && n <= total, NULL);

  if (total == 1)
    return g_strdup (path);
  base = g_path_get_basename (path);
  dir = g_path_get_dirname (path);
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    name = g_strdup_printf ("%.*s.%u%s", (int) (dot - base), base, n, dot);
  else
    name = g_strdup_printf ("%s.%u", base, n);
  return g_build_filename (dir, name, NULL);
}
