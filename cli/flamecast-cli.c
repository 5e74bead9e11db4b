/* flamecast-cli.c - headless front of libflamecast
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "fc-cli.h"
#include "fc-locale.h"

typedef struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "inspect",  fc_cli_inspect,  N_("Summarize a profile, chunk or envelope") },
  { "validate", fc_cli_validate, N_("Check files against Relay's rules") },
  { "convert",  fc_cli_convert,  N_("Convert between V1, V2, envelopes, OTLP, pprof, speedscope, folded") },
  { "record",   fc_cli_record,   N_("Profile a running process or a command") },
  { "send",     fc_cli_send,     N_("Send profiles to Sentry or an OpenTelemetry endpoint") },
  { "diff",     fc_cli_diff,     N_("Compare two profiles by function and call path") },
  { "doctor",   fc_cli_doctor,   N_("Check what stands in the way of recording a process") },
};

static int
usage (FILE *out)
{
  fprintf (out, "%s\n", _("Usage: flamecast-cli COMMAND [OPTIONS...]"));
  fprintf (out, "%s\n\n", _("       flamecast-cli --help | --version"));
  fprintf (out, "%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, "\n%s\n", _("Run 'flamecast-cli COMMAND --help' for the options of a command."));
  return out == stderr ? 2 : 0;
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, fc_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (argc < 2)
    return usage (stderr);

  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    return usage (stdout);

  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("flamecast-cli %s\n", FC_VERSION);
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      if (strcmp (argv[1], commands[i].name) == 0)
        {
          g_autofree char *prgname = g_strconcat ("flamecast-cli ", commands[i].name, NULL);

          /* what --help and GLib's messages call the program */
          g_set_prgname (prgname);
          return commands[i].run (argc - 1, argv + 1);
        }
    }

  fprintf (stderr, _("flamecast-cli: unknown command '%s'\n\n"), argv[1]);
  return usage (stderr);
}
