/* test-secrets.c - no DSN key in anything the app logs, shows or writes, whatever happens to a send
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's side of tests/cli/test-secrets.c: "Send to Sentry" through the
 * real window and send dialog, to the fake Relay (tests/fc-test-relay.c),
 * with a DSN that has a public and a secret key. Every log record of every
 * level (debug included) is captured by a GLib log writer; after a
 * delivered send, a failed one (500 on every attempt) and a rejected one
 * (400 with a reason), the records, the outcome shown (the toast), every
 * label of the dialog and the window, and every file under the test's home
 * (which holds the config, state, cache and data dirs: outbox entries, their
 * index, rate limits, recent files) are searched for both keys.
 * Settings live in GSettings' memory backend here: the DSN is kept there
 * as the user typed it, which is the one place it belongs.
 */

#include <string.h>

#include <glib/gstdio.h>

#include "fc-app-settings.h"
#include "fc-send-dialog.h"
#include "fc-test-relay.h"
#include "fc-window.h"
#include "fc-test-util.h"

static const char *home;
static GString *logged;
static GMutex logged_lock;
static guint n_logged;

/* Every record, whatever its level, into @logged; warnings and worse also
 * to the default writer, so G_DEBUG=fatal-warnings still ends the test. */
static GLogWriterOutput
capture_writer (GLogLevelFlags   log_level,
                const GLogField *fields,
                gsize            n_fields,
                gpointer         user_data)
{
  g_mutex_lock (&logged_lock);
  for (gsize i = 0; i < n_fields; i++)
    {
      g_string_append_printf (logged, "%s=", fields[i].key);
      if (fields[i].length < 0)
        g_string_append (logged, fields[i].value);
      else
        g_string_append_len (logged, fields[i].value, fields[i].length);
      g_string_append_c (logged, i + 1 < n_fields ? ' ' : '\n');
    }
  n_logged++;
  g_mutex_unlock (&logged_lock);

  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    return g_log_writer_default (log_level, fields, n_fields, user_data);
  return G_LOG_WRITER_HANDLED;
}

static void
assert_no_key (const char *what,
               const char *text,
               gsize       len)
{
  if (text == NULL)
    return;
  if (g_strstr_len (text, len, SECRET) != NULL)
    g_error ("%s holds the DSN's secret key", what);
  if (g_strstr_len (text, len, KEY) != NULL)
    g_error ("%s holds the DSN's public key", what);
}

/* Searches every file under @dir; returns how many there were. */
static guint
assert_no_key_in_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        continue;
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          n += assert_no_key_in_files (path);
          continue;
        }
      if (g_file_get_contents (path, &contents, &len, NULL))
        {
          g_test_message ("searched %s (%" G_GSIZE_FORMAT " bytes)", path, len);
          assert_no_key (path, contents, len);
          n++;
        }
    }
  return n;
}

/* every label, button label and tooltip under @widget */
static void
assert_no_key_in_widgets (GtkWidget *widget)
{
  assert_no_key ("a tooltip", gtk_widget_get_tooltip_text (widget), -1);
  if (GTK_IS_LABEL (widget))
    assert_no_key ("a label", gtk_label_get_text (GTK_LABEL (widget)), -1);
  if (GTK_IS_EDITABLE (widget))
    assert_no_key ("an entry", gtk_editable_get_text (GTK_EDITABLE (widget)), -1);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    assert_no_key_in_widgets (child);
}

static gpointer
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (toplevel, type))
        return toplevel;
    }
  return NULL;
}

/* Opens the fixture, sends it through the dialog's Send action, waits for
 * the outcome, and searches everything. Returns the outcome. */
static char *
send_and_search (Relay *relay)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *dsn = g_strdup_printf ("http://" KEY ":" SECRET "@127.0.0.1:%u/" PROJECT, relay->port);
  g_autofree char *path = fc_test_data_path ("payloads/v2-cocoa.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  FcWindow *window = g_object_ref (fc_window_new (NULL));
  FcSendDialog *dialog;
  char *outcome;
  guint n_files;

  g_settings_set_string (settings, "dsn", dsn);
  gtk_window_present (GTK_WINDOW (window));
  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);

  g_action_group_activate_action (G_ACTION_GROUP (window), "send", NULL);
  dialog = g_object_ref (find_toplevel (FC_TYPE_SEND_DIALOG));
  while (fc_send_dialog_is_busy (dialog))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fc_send_dialog_get_envelopes (dialog)->len, ==, 1);
  assert_no_key_in_widgets (GTK_WIDGET (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "send.send", NULL));
  while (fc_send_dialog_get_outcome (dialog) == NULL)
    g_main_context_iteration (NULL, TRUE);
  outcome = g_strdup (fc_send_dialog_get_outcome (dialog));
  g_test_message ("outcome: %s", outcome);

  /* what is shown: the outcome (the toast's text), the dialog, the window */
  assert_no_key ("the outcome", outcome, -1);
  assert_no_key_in_widgets (GTK_WIDGET (dialog));
  assert_no_key_in_widgets (GTK_WIDGET (window));

  /* what was logged, debug included: the test is not vacuous when the
   * transport logs its requests */
  g_mutex_lock (&logged_lock);
  g_test_message ("%u log records", n_logged);
  assert_no_key ("the log", logged->str, logged->len);
  g_mutex_unlock (&logged_lock);

  /* what was written */
  n_files = assert_no_key_in_files (home);
  g_test_message ("%u files searched", n_files);

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_finalize_object (dialog);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  return outcome;
}

static void
test_secrets_delivered (void)
{
  Relay *relay = relay_new ();
  g_autofree char *outcome = send_and_search (relay);

  g_assert_cmpstr (outcome, ==, "Sent to Sentry: 1 envelope accepted");
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  relay_free (relay);
}

static void
test_secrets_failed (void)
{
  Relay *relay = relay_new ();
  g_autofree char *outcome = NULL;
  g_autofree char *outbox = g_build_filename (g_get_user_state_dir (), "flamecast", NULL);

  /* 500 on every attempt (three, 1 s then 2 s apart): the envelope waits
   * in the outbox, which is searched too */
  relay_script (relay, REPLY_500, REPLY_500, REPLY_500, -1);
  outcome = send_and_search (relay);
  g_assert_true (g_str_has_prefix (outcome, "Could not send") || g_str_has_prefix (outcome, "Not sent yet"));
  g_assert_cmpuint (relay_n_requests (relay), ==, 3);
  g_assert_cmpuint (assert_no_key_in_files (outbox), >, 0);
  /* the next test's send would flush it first */
  fc_test_remove_tree (outbox);
  relay_free (relay);
}

static void
test_secrets_rejected (void)
{
  Relay *relay = relay_new ();
  g_autofree char *outcome = NULL;

  relay_script (relay, REPLY_400, -1);
  outcome = send_and_search (relay);
  g_assert_true (g_str_has_prefix (outcome, "Sentry rejected the profile:"));
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  relay_free (relay);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  logged = g_string_new (NULL);
  g_log_set_writer_func (capture_writer, NULL, NULL);
  /* debug records too, as with G_MESSAGES_DEBUG=all */
  g_log_set_debug_enabled (TRUE);

  fc_test_init_private_home (&argc, &argv);
  home = g_get_home_dir ();
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/secrets/delivered", test_secrets_delivered);
  g_test_add_func ("/app/secrets/failed", test_secrets_failed);
  g_test_add_func ("/app/secrets/rejected", test_secrets_rejected);

  ret = fc_test_run ();
  g_string_free (logged, TRUE);
  return ret;
}
