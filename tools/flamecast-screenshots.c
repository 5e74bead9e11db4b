/* flamecast-screenshots.c - the real app, photographing its window once a file is shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: FLAMECAST_SCREENSHOT_DIR=DIR flamecast-screenshots FILE
 *
 * Runs FcApplication as the shipped app does; every window it opens gets
 * the screenshot hook, which renders the window into PNGs in DIR once the
 * file is shown, then quits. tools/screenshots.sh drives it under Xvfb.
 */

#include <glib/gi18n.h>
#include <locale.h>

#include "fc-application.h"
#include "fc-locale.h"
#include "fc-screenshot.h"

static void
window_added_cb (GtkApplication *app,
                 GtkWindow      *window,
                 const char     *directory)
{
  if (FC_IS_WINDOW (window))
    fc_screenshot_window_when_loaded (FC_WINDOW (window), directory);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GApplication) app = NULL;
  const char *directory = g_getenv ("FLAMECAST_SCREENSHOT_DIR");

  if (directory == NULL || directory[0] == '\0')
    {
      g_printerr ("flamecast-screenshots: set FLAMECAST_SCREENSHOT_DIR to the folder for the PNGs\n");
      return 2;
    }

  /* as app/main.c: LANGUAGE=de photographs the German window */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, fc_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = G_APPLICATION (fc_application_new ());
  g_signal_connect (app, "window-added", G_CALLBACK (window_added_cb), (gpointer) directory);
  return g_application_run (app, argc, argv);
}
