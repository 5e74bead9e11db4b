/* fc-cli-convert.c - flamecast-cli convert
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "fc-cli.h"
#include "fc-convert.h"
#include "fc-export-plan.h"
#include "fc-reader.h"
#include "fc-writer.h"

typedef enum {
  TO_V2, TO_V1, TO_ENVELOPE,
  /* other tools' formats: the whole document in one file */
  TO_OTLP, TO_OTLP_JSON, TO_PPROF, TO_SPEEDSCOPE, TO_COLLAPSED,
} Target;

static const struct { const char *name; Target target; } targets[] = {
  { "v2", TO_V2 }, { "v1", TO_V1 }, { "envelope", TO_ENVELOPE },
  { "otlp", TO_OTLP }, { "otlp-json", TO_OTLP_JSON }, { "pprof", TO_PPROF },
  { "speedscope", TO_SPEEDSCOPE }, { "collapsed", TO_COLLAPSED },
};

/* other tools' formats, as the app's Export names them */
static FcExportFormat
export_format (Target target)
{
  switch (target)
    {
    case TO_OTLP:       return FC_EXPORT_FORMAT_OTLP;
    case TO_OTLP_JSON:  return FC_EXPORT_FORMAT_OTLP_JSON;
    case TO_PPROF:      return FC_EXPORT_FORMAT_PPROF;
    case TO_SPEEDSCOPE: return FC_EXPORT_FORMAT_SPEEDSCOPE;
    case TO_COLLAPSED:  return FC_EXPORT_FORMAT_COLLAPSED;
    case TO_V2: case TO_V1: case TO_ENVELOPE:
    default:            g_assert_not_reached ();
    }
}

static gboolean
write_output (const char  *path,
              GBytes      *bytes,
              GError     **error)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);

  if (strcmp (path, "-") == 0)
    {
      if (fwrite (data, 1, len, stdout) != len)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write to standard output"));
          return FALSE;
        }
      return TRUE;
    }
  /* No fsync(): g_file_set_contents() syncs a file it replaces, which costs
   * more than writing a 60 MB export to the page cache, and a conversion can
   * always be run again. */
  return g_file_set_contents_full (path, data, len, G_FILE_SET_CONTENTS_NONE, 0666, error);
}

/* the profiles to write, already in the target's format */
static GPtrArray *
convert_profiles (FcDocument  *document,
                  Target       target,
                  const char  *transaction_name,
                  gboolean     split,
                  GError     **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    {
      FcProfile *profile = fc_document_get_profile (document, i);
      FcFormat format = fc_profile_get_format (profile);

      if (target == TO_V2 && format == FC_FORMAT_V1)
        {
          FcProfile *v2 = fc_convert_v1_to_v2 (profile, error);

          if (v2 == NULL)
            return NULL;
          g_ptr_array_add (out, v2);
        }
      else if (target == TO_V1 && format == FC_FORMAT_V2)
        {
          g_autoptr(GPtrArray) v1s = fc_convert_v2_to_v1 (profile, transaction_name, split, error);

          if (v1s == NULL)
            return NULL;
          for (guint j = 0; j < v1s->len; j++)
            g_ptr_array_add (out, g_object_ref (g_ptr_array_index (v1s, j)));
        }
      else
        {
          /* a bare V1 profile read from a file may have its event in the envelope */
          if (format == FC_FORMAT_V1 && fc_profile_get_linked_event (profile) == NULL &&
              fc_document_get_n_transactions (document) == 1)
            fc_profile_set_linked_event (profile, fc_document_get_transaction (document, 0));
          g_ptr_array_add (out, g_object_ref (profile));
        }
    }

  return g_steal_pointer (&out);
}

static GBytes *
serialize (FcProfile  *profile,
           Target      target,
           GError    **error)
{
  if (target != TO_ENVELOPE)
    return fc_writer_write_profile (profile, error);
  if (fc_profile_get_format (profile) == FC_FORMAT_V2)
    return fc_writer_write_chunk_envelope (profile, error);
  return fc_writer_write_v1_envelope (profile, fc_profile_get_linked_event (profile), error);
}

int
fc_cli_convert (int    argc,
                char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *to = NULL;
  g_autofree char *transaction_name = NULL;
  gboolean split = FALSE;
  gboolean per_thread = FALSE;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write to OUT (- for standard output)"), N_("OUT") },
    { "to", 't', 0, G_OPTION_ARG_STRING, &to,
      N_("Target: v2, v1, envelope, otlp, otlp-json, pprof, speedscope or collapsed"), N_("FORMAT") },
    { "per-thread", 0, 0, G_OPTION_ARG_NONE, &per_thread,
      N_("collapsed: the thread is the root frame of every stack"), NULL },
    { "transaction-name", 'n', 0, G_OPTION_ARG_STRING, &transaction_name,
      N_("Name of the transaction of V1 profiles made from a chunk (default: flamecast)"), N_("NAME") },
    { "split", 's', 0, G_OPTION_ARG_NONE, &split,
      N_("Cut chunks longer than 30 s into several V1 profiles (OUT.1.json, OUT.2.json...)"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("IN") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("-o OUT --to FORMAT - convert a profile"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(FcDocument) document = NULL;
  g_autoptr(GPtrArray) profiles = NULL;
  GPtrArray *problems;
  Target target;

  g_option_context_set_summary (context,
                                _("v2: a V1 profile becomes a V2 chunk (timestamps made absolute, new\n"
                                  "    chunk_id and profiler_id).\n"
                                  "v1: a V2 chunk becomes a V1 profile with a transaction named by\n"
                                  "    --transaction-name whose active thread is the busiest one; more\n"
                                  "    than 30 s is refused unless --split.\n"
                                  "envelope: the payload as it is, in the envelope Relay expects (a chunk\n"
                                  "    alone; a V1 profile with its transaction event).\n"
                                  "otlp, otlp-json: OpenTelemetry ProfilesData (v1development), protobuf or\n"
                                  "    OTLP/JSON, one Profile per profile of the input.\n"
                                  "pprof: a gzipped perftools.profiles.Profile (go tool pprof).\n"
                                  "speedscope: one evented profile per thread (speedscope.app); sampled\n"
                                  "    for a thread whose events would be too large.\n"
                                  "collapsed: folded stacks (flamegraph.pl, inferno); --per-thread puts\n"
                                  "    the thread at the root.\n"
                                  "The input may be anything the reader opens: Sentry V2, V1, envelopes,\n"
                                  "pprof, OTLP, speedscope, folded stacks, perf script text.\n"
                                  "\n"
                                  "Several outputs (--split, multi-profile files) go to OUT.1, OUT.2...\n"
                                  "Exit status: 0 on success, 1 when the conversion is refused, 2 when\n"
                                  "the input cannot be read or the options are wrong."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli convert: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      fprintf (stderr, "flamecast-cli convert: %s\n", _("expected exactly one input file (see --help)"));
      return 2;
    }
  if (output == NULL)
    {
      fprintf (stderr, "flamecast-cli convert: %s\n", _("missing -o OUT"));
      return 2;
    }
  target = G_N_ELEMENTS (targets);
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (g_strcmp0 (to, targets[i].name) == 0)
      target = targets[i].target;
  if (target == G_N_ELEMENTS (targets))
    {
      fprintf (stderr, "flamecast-cli convert: %s\n",
               _("--to must be v2, v1, envelope, otlp, otlp-json, pprof, speedscope or collapsed"));
      return 2;
    }
  if (per_thread && target != TO_COLLAPSED)
    fprintf (stderr, "flamecast-cli convert: %s\n", _("warning: --per-thread only applies to --to collapsed"));

  if (target != TO_V1 && (transaction_name != NULL || split))
    fprintf (stderr, "flamecast-cli convert: %s\n",
             _("warning: --transaction-name and --split only apply to --to v1"));

  file = g_file_new_for_commandline_arg (files[0]);
  document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  if (document == NULL)
    {
      fprintf (stderr, "%s: %s\n", files[0], error->message);
      return 2;
    }
  problems = fc_document_get_problems (document);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      g_autofree char *line = fc_problem_to_string (g_ptr_array_index (problems, i));

      fprintf (stderr, "%s: %s\n", files[0], line);
    }

  if (target >= TO_OTLP)
    {
      g_autoptr(GBytes) bytes = NULL;

      if (fc_document_get_n_profiles (document) == 0)
        {
          fprintf (stderr, "%s: %s\n", files[0], _("no profile or chunk to convert"));
          return 1;
        }
      bytes = fc_export_write_document (document, export_format (target), per_thread, &error);
      if (bytes == NULL)
        {
          fprintf (stderr, "%s: %s\n", files[0], error->message);
          return 1;
        }
      if (!write_output (output, bytes, &error))
        {
          fprintf (stderr, "%s: %s\n", output, error->message);
          return 2;
        }
      if (strcmp (output, "-") != 0)
        fprintf (stderr, "%s %s\n", _("wrote"), output);
      return 0;
    }

  profiles = convert_profiles (document, target, transaction_name, split, &error);
  if (profiles == NULL)
    {
      fprintf (stderr, "%s: %s\n", files[0], error->message);
      return 1;
    }
  if (profiles->len == 0)
    {
      fprintf (stderr, "%s: %s\n", files[0], _("no profile or chunk to convert"));
      return 1;
    }
  if (profiles->len > 1 && strcmp (output, "-") == 0)
    {
      fprintf (stderr, "flamecast-cli convert: %s\n",
               _("several outputs cannot go to standard output; give a file name"));
      return 2;
    }

  for (guint i = 0; i < profiles->len; i++)
    {
      g_autoptr(GBytes) bytes = serialize (g_ptr_array_index (profiles, i), target, &error);
      g_autofree char *path = fc_export_numbered_path (output, i + 1, profiles->len);

      if (bytes == NULL)
        {
          fprintf (stderr, "%s: %s\n", files[0], error->message);
          return 1;
        }
      if (!write_output (path, bytes, &error))
        {
          fprintf (stderr, "%s: %s\n", path, error->message);
          return 2;
        }
      if (strcmp (path, "-") != 0)
        fprintf (stderr, "%s %s\n", _("wrote"), path);
    }

  return 0;
}
