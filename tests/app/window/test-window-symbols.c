/* test-window-symbols.c - FcWindow: frames named as their debug info arrives from debuginfod
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A document of the stripped target's functions, every frame unnamed
 * ("fc-target-stripped+0x..."), shown while Debian's debuginfod on 127.0.0.1
 * has the debug file. The server is stopped (SIGSTOP) until the window shows
 * the fetch under way, so that the progress is seen without a race; once it
 * goes on, the window's frames are named and the progress goes away.
 */

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "fc-flame-chart.h"
#include "fc-session.h"
#include "fc-window.h"
#include "fc-test-debuginfod.h"
#include "fc-test-screenshot.h"
#include "fc-test-util.h"

/* frames of the session's profile named "fc-target-stripped+0x..." */
static guint
count_unnamed (FcSession *session)
{
  FcProfile *profile = fc_session_get_profile (session);
  guint n = 0;

  for (guint i = 0; i < fc_profile_get_n_frames (profile); i++)
    n += g_str_has_prefix (fc_profile_string (profile, fc_profile_get_frame (profile, i)->function),
                           "fc-target-stripped+0x");
  return n;
}

static void
progress_cb (GObject    *debuginfod,
             GParamSpec *pspec,
             gpointer    user_data)
{
  guint n_asked, n_pending, n_found, n_failed;

  g_object_get (debuginfod, "n-asked", &n_asked, "n-pending", &n_pending, "n-found", &n_found, "n-failed", &n_failed,
                NULL);
  g_test_message ("debuginfod: %u asked, %u pending, %u found, %u failed", n_asked, n_pending, n_found, n_failed);
}

static void
test_named_when_fetched (void)
{
  g_autofree char *dir = fc_test_make_tmp_dir ("fc-test-window-symbols");
  g_autofree char *cache = g_build_filename (dir, "cache", NULL);
  g_autofree char *built = fc_test_target_path ("stripped");
  g_autofree char *debug = fc_test_target_path ("stripped.debug");
  g_autofree char *program = g_build_filename (dir, "fc-target-stripped", NULL);
  g_autofree char *build_id = fc_test_read_build_id (debug);
  g_autoptr(GArray) functions = fc_test_read_functions (debug);
  g_autofree char *chunk = g_build_filename (dir, "unnamed.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (chunk);
  g_autoptr(FcDocument) document = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  FcTestDebuginfod *server;
  FcWindow *window;
  FcSession *session;
  GtkWidget *status;
  GtkLabel *label;

  /* the program away from its debug file (elfutils would find NAME.debug beside it) */
  {
    g_autofree char *contents = NULL;
    gsize len;

    g_assert_true (g_file_get_contents (built, &contents, &len, NULL));
    g_assert_true (g_file_set_contents (program, contents, len, NULL));
  }
  /* a chunk as the recorder writes one without debug info, opened as a user would */
  document = fc_test_unnamed_document (program, build_id, functions);
  bytes = fc_writer_write_profile (fc_document_get_profile (document, 0), &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (chunk, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  server = fc_test_debuginfod_start (dir, debug, build_id);
  g_setenv ("DEBUGINFOD_URLS", server->url, TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
  g_setenv ("DEBUGINFOD_TIMEOUT", "60", TRUE);
  g_assert_cmpint (kill (atoi (g_subprocess_get_identifier (server->server)), SIGSTOP), ==, 0);

  g_signal_connect (fc_debuginfod_get_default (), "notify", G_CALLBACK (progress_cb), NULL);
  window = g_object_ref (fc_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_present (GTK_WINDOW (window));
  session = fc_window_get_session (window);
  status = fc_window_get_part (window, "symbols_status");
  label = fc_window_get_part (window, "symbols_label");
  g_assert_false (gtk_widget_get_visible (status));

  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (fc_window_get_part (window, "main_stack")), !=, "empty");
  g_assert_cmpuint (count_unnamed (session), ==, functions->len);
  /* the fetch waits on the stopped server: the window says so */
  fc_test_spin_until (gtk_widget_get_visible (status));
  g_assert_cmpstr (gtk_label_get_text (label), ==, "Fetching debug info: 0 of 1 module");
  g_assert_cmpuint (count_unnamed (session), ==, functions->len);
  fc_test_screenshot (GTK_WIDGET (window), "debuginfod-fetching");

  g_assert_cmpint (kill (atoi (g_subprocess_get_identifier (server->server)), SIGCONT), ==, 0);
  fc_test_spin_until (count_unnamed (session) == 0);
  fc_test_spin_until (!gtk_widget_get_visible (status));
  /* the flamechart's search finds a function by the name the debug file gives it */
  fc_session_set_search_text (session, "main");
  fc_test_spin_until (fc_flame_chart_get_n_matches (fc_window_get_part (window, "flame_chart")) > 0);
  fc_session_set_search_text (session, "");
  fc_test_screenshot (GTK_WIDGET (window), "debuginfod-named");

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  g_unsetenv ("DEBUGINFOD_URLS");
  fc_test_debuginfod_stop (server);
  fc_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();
  /* the server is on 127.0.0.1: no proxy for libdebuginfod's curl nor for libsoup */
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_add_func ("/app/window/symbols/named-when-fetched", test_named_when_fetched);
  return g_test_run ();
}
