/* test-preferences-window.c - FcPreferencesWindow: every widget writes its GSettings key
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "fc-app-settings.h"
#include "fc-preferences-window.h"
#include "fc-test-util.h"

static gpointer
child (FcPreferencesWindow *window,
       const char          *name)
{
  GObject *object = gtk_widget_get_template_child (GTK_WIDGET (window), FC_TYPE_PREFERENCES_WINDOW, name);

  g_assert_nonnull (object);
  return object;
}

static void
settle (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
test_widgets_write_keys (void)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  FcPreferencesWindow *window = g_object_ref (fc_preferences_window_new (NULL));
  g_auto(GStrv) prefixes = NULL;
  g_autofree char *mode = NULL;
  g_autofree char *lifecycle = NULL;
  g_autofree char *release = NULL;
  g_autofree char *environment = NULL;
  g_autofree char *platform = NULL;
  g_autofree char *shown = NULL;

  gtk_window_present (GTK_WINDOW (window));
  settle ();

  /* the defaults arrive in the widgets */
  g_assert_cmpfloat (gtk_adjustment_get_value (child (window, "frequency_adjustment")), ==, 101);
  g_assert_cmpfloat (gtk_adjustment_get_value (child (window, "stack_bytes_adjustment")), ==, 32768);
  g_assert_cmpuint (adw_combo_row_get_selected (child (window, "mode_row")), ==, 0);
  g_assert_cmpstr (gtk_editable_get_text (child (window, "environment_row")), ==, "production");
  g_assert_cmpstr (gtk_editable_get_text (child (window, "platform_row")), ==, "native");

  /* each widget writes its key */
  gtk_spin_button_set_value (child (window, "frequency_spin"), 250);
  gtk_adjustment_set_value (child (window, "stack_bytes_adjustment"), 16384);
  gtk_adjustment_set_value (child (window, "chunk_adjustment"), 30);
  gtk_adjustment_set_value (child (window, "session_rate_adjustment"), 0.25);
  gtk_adjustment_set_value (child (window, "traces_rate_adjustment"), 0.5);
  adw_combo_row_set_selected (child (window, "mode_row"), 1);
  adw_combo_row_set_selected (child (window, "lifecycle_row"), 1);
  gtk_editable_set_text (child (window, "release_row"), "my-app@1.2.3");
  gtk_editable_set_text (child (window, "environment_row"), "staging");
  gtk_editable_set_text (child (window, "platform_row"), "c");
  gtk_editable_set_text (child (window, "in_app_row"), "/opt/app, /home/me/src ,, ");
  gtk_switch_set_active (child (window, "strip_home_switch"), FALSE);
  gtk_switch_set_active (child (window, "send_while_recording_switch"), TRUE);
  gtk_editable_set_text (child (window, "otlp_endpoint_row"), "http://127.0.0.1:4318");
  gtk_editable_set_text (child (window, "debuginfod_urls_row"), "http://127.0.0.1:8002");
  settle ();

  g_assert_cmpint (g_settings_get_int (settings, "frequency"), ==, 250);
  g_assert_cmpint (g_settings_get_int (settings, "stack-bytes"), ==, 16384);
  g_assert_cmpint (g_settings_get_int (settings, "chunk-duration"), ==, 30);
  g_assert_cmpfloat (g_settings_get_double (settings, "profile-session-sample-rate"), ==, 0.25);
  g_assert_cmpfloat (g_settings_get_double (settings, "traces-sample-rate"), ==, 0.5);
  mode = g_settings_get_string (settings, "mode");
  g_assert_cmpstr (mode, ==, "cpu");
  lifecycle = g_settings_get_string (settings, "profile-lifecycle");
  g_assert_cmpstr (lifecycle, ==, "trace");
  release = g_settings_get_string (settings, "release");
  g_assert_cmpstr (release, ==, "my-app@1.2.3");
  environment = g_settings_get_string (settings, "environment");
  g_assert_cmpstr (environment, ==, "staging");
  platform = g_settings_get_string (settings, "platform");
  g_assert_cmpstr (platform, ==, "c");
  prefixes = g_settings_get_strv (settings, "in-app-prefixes");
  g_assert_cmpuint (g_strv_length (prefixes), ==, 2);
  g_assert_cmpstr (prefixes[0], ==, "/opt/app");
  g_assert_cmpstr (prefixes[1], ==, "/home/me/src");
  g_assert_false (g_settings_get_boolean (settings, "strip-home-directory"));
  g_assert_true (g_settings_get_boolean (settings, "send-while-recording"));
  {
    g_autofree char *endpoint = g_settings_get_string (settings, "otlp-endpoint");

    g_assert_cmpstr (endpoint, ==, "http://127.0.0.1:4318");
  }
  {
    g_autofree char *urls = g_settings_get_string (settings, "debuginfod-urls");

    g_assert_cmpstr (urls, ==, "http://127.0.0.1:8002");
  }

  /* and a key changed elsewhere shows in its widget */
  g_settings_set_int (settings, "frequency", 99);
  g_settings_set_string (settings, "mode", "wall");
  g_settings_set_strv (settings, "in-app-prefixes", (const char * const[]) { "/srv/a", "/srv/b", NULL });
  settle ();
  g_assert_cmpfloat (gtk_adjustment_get_value (child (window, "frequency_adjustment")), ==, 99);
  g_assert_cmpuint (adw_combo_row_get_selected (child (window, "mode_row")), ==, 0);
  shown = g_strdup (gtk_editable_get_text (child (window, "in_app_row")));
  g_assert_cmpstr (shown, ==, "/srv/a, /srv/b");

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  g_settings_reset (settings, "frequency");
  g_settings_reset (settings, "in-app-prefixes");
  g_settings_reset (settings, "strip-home-directory");
  g_settings_reset (settings, "send-while-recording");
  g_settings_reset (settings, "otlp-endpoint");
  g_settings_reset (settings, "debuginfod-urls");
}

static void
test_dsn_validated (void)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  FcPreferencesWindow *window = g_object_ref (fc_preferences_window_new (NULL));
  const char *good = "https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/42";
  GtkLabel *status;
  g_autofree char *stored = NULL;
  g_autofree char *stored2 = NULL;

  g_settings_reset (settings, "dsn");
  gtk_window_present (GTK_WINDOW (window));
  status = child (window, "dsn_status_label");
  g_assert_nonnull (strstr (gtk_label_get_text (status), "No DSN"));

  /* a valid DSN is stored and named by its project and host, never its key */
  gtk_editable_set_text (child (window, "dsn_row"), good);
  g_signal_emit_by_name (child (window, "dsn_row"), "apply");
  stored = g_settings_get_string (settings, "dsn");
  g_assert_cmpstr (stored, ==, good);
  g_assert_cmpstr (gtk_label_get_text (status), ==, "Profiles go to project 42 on o1.ingest.sentry.io.");
  g_assert_false (gtk_widget_has_css_class (child (window, "dsn_row"), "error"));

  /* an invalid one is explained in fc-dsn's words and not stored */
  gtk_editable_set_text (child (window, "dsn_row"), "https://0123456789abcdef@o1.ingest.sentry.io/");
  g_signal_emit_by_name (child (window, "dsn_row"), "apply");
  g_assert_nonnull (strstr (gtk_label_get_text (status), "no project id after the host"));
  g_assert_null (strstr (gtk_label_get_text (status), "0123456789abcdef"));
  g_assert_true (gtk_widget_has_css_class (child (window, "dsn_row"), "error"));
  stored2 = g_settings_get_string (settings, "dsn");
  g_assert_cmpstr (stored2, ==, good);

  /* cleared: stored as none */
  gtk_editable_set_text (child (window, "dsn_row"), "");
  g_signal_emit_by_name (child (window, "dsn_row"), "apply");
  g_clear_pointer (&stored2, g_free);
  stored2 = g_settings_get_string (settings, "dsn");
  g_assert_cmpstr (stored2, ==, "");

  /* show_dsn: the Sending page */
  fc_preferences_window_show_dsn (window);
  g_assert_true (adw_preferences_window_get_visible_page (ADW_PREFERENCES_WINDOW (window)) ==
                 child (window, "sending_page"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/preferences/widgets-write-keys", test_widgets_write_keys);
  g_test_add_func ("/app/preferences/dsn-validated", test_dsn_validated);

  return fc_test_run ();
}
