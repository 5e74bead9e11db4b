/* test-application.c - FcApplication: `flamecast FILE`, shortcuts window, about
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "fc-application.h"
#include "fc-window.h"
#include "fc-test-util.h"

typedef struct {
  GFile      *file;
  FcFileLoad *preload;
  FcWindow   *window;
  gboolean    checked;
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
  /* what main() started loading, not a second read */
  if (run->preload != NULL)
    g_assert_true (fc_session_get_document (session) == fc_file_load_get_document (run->preload));
  windows = gtk_application_get_windows (app);
  g_assert_cmpuint (g_list_length (windows), ==, 1);

  /* the shortcuts window comes from gtk/help-overlay.ui in the resources */
  g_assert_nonnull (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  {
    /* the mouse gestures are listed too, not only keys */
    GtkWidget *overlay = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
    g_autoptr(GPtrArray) todo = g_ptr_array_new ();
    g_autoptr(GString) subtitles = g_string_new (NULL);

    g_ptr_array_add (todo, overlay);
    while (todo->len > 0)
      {
        GtkWidget *w = g_ptr_array_steal_index (todo, todo->len - 1);

        if (GTK_IS_SHORTCUTS_SHORTCUT (w))
          {
            g_autofree char *subtitle = NULL;

            g_object_get (w, "subtitle", &subtitle, NULL);
            g_string_append_printf (subtitles, "%s\n", subtitle ? subtitle : "");
          }
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
          g_ptr_array_add (todo, c);
      }
    g_assert_nonnull (strstr (subtitles->str, "Shift + drag\n"));
    g_assert_nonnull (strstr (subtitles->str, "Double-click\n"));
  }
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
    /* its icon comes from the resources: no install needed */
    g_assert_cmpstr (adw_about_window_get_application_icon (ADW_ABOUT_WINDOW (about)), ==, "io.github.flamecast.Flamecast");
    g_assert_true (gtk_icon_theme_has_icon (gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (about))),
                                            "io.github.flamecast.Flamecast"));
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
  g_autofree char *path = fc_test_data_path ("payloads/v1-node-stored.json");
  g_autofree char *other_path = fc_test_data_path ("payloads/legacy-cocoa.json");
  g_autoptr(GFile) other = g_file_new_for_path (other_path);
  char *argv[] = { (char *) "flamecast", path, NULL };
  g_autoptr(FcFileLoad) preload = NULL;
  g_autoptr(FcFileLoad) unused = NULL;
  Run run = { 0 };
  int status;

  run.file = g_file_new_for_path (path);
  /* as main() does: the file loads while GTK starts; a preload that the
   * command line does not open is dropped */
  preload = g_object_ref (fc_application_preload (app, run.file));
  unused = g_object_ref (fc_application_preload (app, other));
  run.preload = preload;
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "window-added", G_CALLBACK (window_added_cb), &run);

  g_test_log_set_fatal_handler (ignore_session_bus_cb, NULL);
  status = g_application_run (G_APPLICATION (app), G_N_ELEMENTS (argv) - 1, argv);

  g_assert_cmpint (status, ==, 0);
  g_assert_true (run.checked);
  g_assert_true (g_cancellable_is_cancelled (fc_file_load_get_cancellable (unused)));
  g_assert_false (g_cancellable_is_cancelled (fc_file_load_get_cancellable (preload)));
  g_object_unref (run.file);
}

typedef struct {
  FcApplication *app;
  GPid           target;
  guint          n_remotes_exited;
  FcWindow      *first;
  FcWindow      *attached;
  FcWindow      *launched;
  gboolean       done;
} Remote;

/* @cwd (nullable): the directory the command is typed in */
static GPid
spawn_remote (const char         *cwd,
              const char * const *args)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  GPid pid;

  g_strv_builder_add (builder, g_getenv ("FC_APP_BINARY"));
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);
  g_assert_true (g_spawn_async (cwd, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

/* the remote process exited 0: it only forwarded the request, without a
 * window of its own (waited for from the main loop, which must answer it) */
static void
remote_exited_cb (GPid     pid,
                  int      status,
                  gpointer user_data)
{
  g_autoptr(GError) error = NULL;

  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  (*(guint *) user_data)++;
  g_spawn_close_pid (pid);
}

static FcWindow *
recording_window (FcApplication *app)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l != NULL; l = l->next)
    if (FC_IS_WINDOW (l->data) && fc_window_is_recording (l->data))
      return l->data;
  return NULL;
}

/* Drives the primary instance from its own main loop: the second and third
 * `flamecast` processes exit at once, and their recordings start here. */
static gboolean
remote_step_cb (gpointer user_data)
{
  Remote *r = user_data;
  FcWindow *recording;

  if (r->first == NULL)
    {
      r->first = FC_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (r->app)));
      if (r->first == NULL || fc_session_get_document (fc_window_get_session (r->first)) == NULL)
        {
          r->first = NULL;
          return G_SOURCE_CONTINUE;
        }
      /* flamecast --pid PID, while this instance runs */
      {
        g_autofree char *pid = g_strdup_printf ("%d", r->target);
        const char *args[] = { "--pid", pid, NULL };

        g_child_watch_add (spawn_remote (NULL, args), remote_exited_cb, &r->n_remotes_exited);
      }
      return G_SOURCE_CONTINUE;
    }

  if (r->attached == NULL)
    {
      if ((recording = recording_window (r->app)) == NULL)
        return G_SOURCE_CONTINUE;
      r->attached = recording;
      /* a new window: the one showing a file keeps it */
      g_assert_true (r->attached != r->first);
      g_assert_cmpint (fc_recording_get_pid (fc_window_get_recording (r->attached)), ==, r->target);
      g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (r->app))), ==, 2);
      fc_window_stop_recording (r->attached, FALSE);

      /* flamecast -- COMMAND, in the directory it was typed in */
      {
        const char *args[] = { "--", "sh", "-c", "test -f v1-node-stored.json && exec sleep 30", NULL };
        g_autofree char *dir = fc_test_data_path ("payloads");

        g_child_watch_add (spawn_remote (dir, args), remote_exited_cb, &r->n_remotes_exited);
      }
      return G_SOURCE_CONTINUE;
    }

  if (r->launched == NULL)
    {
      if (fc_window_is_recording (r->attached) || (recording = recording_window (r->app)) == NULL)
        return G_SOURCE_CONTINUE;
      r->launched = recording;
      g_assert_true (r->launched != r->first && r->launched != r->attached);
      g_assert_cmpuint (g_list_length (gtk_application_get_windows (GTK_APPLICATION (r->app))), ==, 3);
      return G_SOURCE_CONTINUE;
    }

  if (r->n_remotes_exited < 2)
    return G_SOURCE_CONTINUE;

  /* the command found its file in that directory: it is still running */
  {
    FcRecording *recording_of_cmd = fc_window_get_recording (r->launched);

    FcProfile *profile = fc_recording_get_profile (recording_of_cmd);

    if ((profile == NULL || fc_profile_get_n_samples (profile) == 0) &&
        !fc_recording_get_target_exited (recording_of_cmd, NULL))
      return G_SOURCE_CONTINUE;
    g_assert_false (fc_recording_get_target_exited (recording_of_cmd, NULL));
    fc_window_stop_recording (r->launched, TRUE);
  }
  r->done = TRUE;
  g_action_group_activate_action (G_ACTION_GROUP (r->app), "quit", NULL);
  return G_SOURCE_REMOVE;
}

/* `flamecast --pid PID` and `flamecast -- CMD` while an instance runs:
 * recording starts in a new window of that instance, over D-Bus. */
static void
record_in_running_instance (void)
{
  GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_autofree char *path = fc_test_data_path ("payloads/v1-node-stored.json");
  char *argv[] = { (char *) "flamecast", path, NULL };
  const char *target_argv[] = { "sleep", "60", NULL };
  g_autoptr(GError) error = NULL;
  FcApplication *app;
  Remote r = { 0 };
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));
  int status;

  /* GTestDBus unsets DISPLAY as it starts the bus; Xvfb is still there */
  g_test_dbus_up (bus);
  if (display != NULL)
    g_setenv ("DISPLAY", display, TRUE);
  g_assert_true (g_spawn_async (NULL, (char **) target_argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                NULL, NULL, &r.target, &error));
  g_assert_no_error (error);

  app = fc_application_new ();
  r.app = app;
  g_timeout_add (50, remote_step_cb, &r);
  status = g_application_run (G_APPLICATION (app), G_N_ELEMENTS (argv) - 1, argv);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (r.done);

  /* the attached process was released and runs on */
  g_assert_cmpint (waitpid (r.target, &status, WNOHANG), ==, 0);
  kill (r.target, SIGKILL);
  waitpid (r.target, &status, 0);
  g_assert_finalize_object (app);
  /* GTK keeps its session bus connection to the end of this (sub)process:
   * stop the bus without waiting for that connection to go, as
   * g_test_dbus_down () and finalizing @bus would */
  g_test_dbus_stop (bus);
}

/* in a process of its own: an application per process, a bus per test */
static void
test_record_in_running_instance (void)
{
  if (g_test_subprocess ())
    {
      g_test_log_set_fatal_handler (ignore_session_bus_cb, NULL);
      record_in_running_instance ();
      return;
    }
  g_test_trap_subprocess (NULL, 90 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/application/open-from-command-line", test_open_from_command_line);
  g_test_add_func ("/app/application/record-in-running-instance", test_record_in_running_instance);

  return g_test_run ();
}
