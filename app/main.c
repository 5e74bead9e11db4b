/* main.c - entry point of the Flamecast application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <adwaita.h>
#include <glib/gi18n.h>
#include <locale.h>

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = adw_application_new (FC_APP_ID, G_APPLICATION_HANDLES_OPEN);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
