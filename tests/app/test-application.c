/* test-application.c - FcApplication: `flamecast FILE`, shortcuts window, about
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-application.h"
#include "fc-window-private.h"

typedef struct {
  GFile    *file;
  FcWindow *window;
  gboolean  checked;
} Run;

/* No session bus here: GTK says so once; that is not what is tested. */
static gboolean
ignore_session_bus_cb (const char     *log_domain,
                       GLogLevelFlags  log_level,
                       const char     *message,
                       gpointer        user_data)
{
  return strstr (message, "session bus") == NULL;
}

static void
check_window_cb (FcSession  *session,
                 GParamSpec *pspec,
                 Run        *run)
{
  FcWindow *window = run->window;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (window));
  GList *windows;

  if (fc_session_get_document (session) == NULL || run->checked)
    return;

  run->checked = TRUE;

  /* the file named on the command line, in the one window */
  g_assert_true (g_file_equal (fc_window_get_file (window), run->file));
  g_assert_nonnull (fc_session_get_profile (session));
  windows = gtk_application_get_windows (app);
  g_assert_cmpuint (g_list_length (windows), ==, 1);

  /* the shortcuts window comes from gtk/help-overlay.ui in the resources */
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  {
    g_auto(GStrv) accels = gtk_application_get_accels_for_action (app, "win.open");
    g_assert_cmpstr (accels[0], ==, "<Control>o");
  }

  /* About opens an AdwAboutWindow over the window */
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  {
    GListModel *toplevels = gtk_window_get_toplevels ();
    GtkWindow *about = NULL;

    for (guint i = 0; i < g_list_model_get_n_items (toplevels) && about == NULL; i++)
      {
        g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

        if (ADW_IS_ABOUT_WINDOW (toplevel))
          about = toplevel;
      }
    g_assert_nonnull (about);
    g_assert_true (gtk_window_get_transient_for (about) == GTK_WINDOW (window));
    g_assert_cmpstr (adw_about_window_get_application_name (ADW_ABOUT_WINDOW (about)), ==, "Flamecast");
    gtk_window_destroy (about);
  }

  /* a second file opens in a new window: the first one is taken */
  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  g_assert_cmpuint (g_list_length (gtk_application_get_windows (app)), ==, 2);

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
}

static void
window_added_cb (GtkApplication *app,
                 GtkWindow      *window,
                 Run            *run)
{
  if (FC_IS_WINDOW (window) && run->window == NULL)
    {
      run->window = FC_WINDOW (window);
      g_signal_connect (fc_window_get_session (run->window), "notify::document",
                        G_CALLBACK (check_window_cb), run);
    }
}

static void
test_open_from_command_line (void)
{
  g_autoptr(FcApplication) app = fc_application_new ();
  g_autofree char *path = g_build_filename (g_getenv ("FC_FIXTURES_DIR"), "vroom", "test", "data", "node.json", NULL);
  char *argv[] = { (char *) "flamecast", path, NULL };
  Run run = { 0 };
  int status;

  run.file = g_file_new_for_path (path);
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "window-added", G_CALLBACK (window_added_cb), &run);

  g_test_log_set_fatal_handler (ignore_session_bus_cb, NULL);
  status = g_application_run (G_APPLICATION (app), G_N_ELEMENTS (argv) - 1, argv);

  g_assert_cmpint (status, ==, 0);
  g_assert_true (run.checked);
  g_object_unref (run.file);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/application/open-from-command-line", test_open_from_command_line);

  return g_test_run ();
}
