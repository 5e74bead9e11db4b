/* main.c - entry point of the Flamecast application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "fc-app-settings.h"
#include "fc-application.h"
#include "fc-live-recording.h"
#include "fc-locale.h"
#include "fc-renderer.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FcApplication) app = NULL;

  /* what commands launched from Flamecast get, not what it sets for itself below */
  fc_live_recording_save_user_environ ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, fc_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = fc_application_new ();

  /* flamecast -- COMMAND [ARGS...]: what follows "--" is the command to
   * record, not files to open */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--") == 0)
      {
        if (i + 1 < argc)
          fc_application_set_command (app, (const char * const *) argv + i + 1);
        argc = i;
        break;
      }

  /* `flamecast FILE...`: the files start loading now, while GTK starts
   * and the window is built (about as long as reading a 50 MB file), not
   * once the window is up. The arguments GApplication will open: neither
   * an option nor --pid's value. */
  fc_application_tune_allocator ();
  /* no GL to start in GTK where there is no GPU: sets the environment, so
   * before any thread runs */
  fc_renderer_skip_gl_without_gpu ();
  /* Preferences' debuginfod servers: libdebuginfod reads DEBUGINFOD_URLS, so it is set here,
   * before any thread runs; the environment's own wins */
  if (g_getenv ("DEBUGINFOD_URLS") == NULL)
    {
      g_autoptr(GSettings) settings = fc_app_settings_new ();
      g_autofree char *urls = g_settings_get_string (settings, "debuginfod-urls");

      if (*g_strstrip (urls) != '\0')
        g_setenv ("DEBUGINFOD_URLS", urls, TRUE);
    }
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--pid") == 0 || strcmp (argv[i], "-p") == 0)
        i++;
      else if (argv[i][0] != '-')
        {
          g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[i]);

          fc_application_preload (app, file);
        }
    }

  return g_application_run (G_APPLICATION (app), argc, argv);
}
