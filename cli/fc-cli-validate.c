/* fc-cli-validate.c - flamecast-cli validate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-cli.h"
#include "fc-reader.h"
#include "fc-validate.h"

/* 0: Relay would accept every file; 1: it would reject one; 2: a file
 * could not be read or parsed at all */
int
fc_cli_validate (int    argc,
                 char **argv)
{
  gboolean quiet = FALSE;
  gboolean strict = FALSE;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, N_("Print errors only, no warnings"), NULL },
    { "strict", 0, 0, G_OPTION_ARG_NONE, &strict,
      N_("Also require what the SDK spec recommends (environment, canonical ids, trace op and status...)"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE...") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("- check files against Relay's rules"));
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_option_context_set_summary (context,
                                _("Checks V1 profiles, V2 chunks and envelopes against the rules Relay\n"
                                  "applies on ingest, printing one line per problem: errors make Relay\n"
                                  "reject the payload, warnings are recommendations.\n"
                                  "\n"
                                  "Exit status: 0 when Relay would accept every file, 1 when it would\n"
                                  "reject one, 2 when a file cannot be read or parsed at all."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli validate: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL)
    {
      fprintf (stderr, "flamecast-cli validate: %s\n", _("expected at least one FILE (see --help)"));
      return 2;
    }

  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (files[i]);
      g_autoptr(GError) local_error = NULL;
      g_autoptr(FcDocument) document = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      guint n_errors, n_warnings;

      document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &local_error);
      if (document == NULL)
        {
          printf ("%s: %s: %s\n", files[i], _("cannot read"), local_error->message);
          status = 2;
          continue;
        }

      problems = fc_validate_document_full (document, strict ? FC_VALIDATE_STRICT : FC_VALIDATE_FLAGS_NONE);
      for (guint p = 0; p < problems->len; p++)
        {
          const FcProblem *problem = g_ptr_array_index (problems, p);
          g_autofree char *line = NULL;

          if (quiet && problem->severity != FC_PROBLEM_ERROR)
            continue;
          line = fc_problem_to_string (problem);
          printf ("%s: %s\n", files[i], line);
        }

      n_errors = fc_problems_count (problems, FC_PROBLEM_ERROR);
      n_warnings = fc_problems_count (problems, FC_PROBLEM_WARNING);
      if (n_errors > 0)
        {
          g_autofree char *errors = g_strdup_printf (ngettext ("%u error", "%u errors", n_errors), n_errors);
          g_autofree char *warnings = g_strdup_printf (ngettext ("%u warning", "%u warnings", n_warnings),
                                                       n_warnings);

          /* TRANSLATORS: FILE: rejected (N errors, M warnings) */
          printf (_("%s: rejected (%s, %s)\n"), files[i], errors, warnings);
          status = MAX (status, 1);
        }
      else
        {
          g_autofree char *warnings = g_strdup_printf (ngettext ("%u warning", "%u warnings", n_warnings),
                                                       n_warnings);

          printf (_("%s: ok (%s)\n"), files[i], warnings);
        }
    }

  return status;
}
