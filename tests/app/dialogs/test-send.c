/* test-send.c - "Send to Sentry" through the real window and dialog, to a fake Relay; the Outbox page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gstdio.h>

#include "fc-app-settings.h"
#include "fc-envelope-summary.h"
#include "fc-outbox-window.h"
#include "fc-preferences-window.h"
#include "fc-reader.h"
#include "fc-send-dialog.h"
#include "fc-test-relay.h"
#include "fc-test-screenshot.h"
#include "fc-window.h"
#include "fc-test-util.h"

static const char *home;

/* A template child of @widget by its id in the .ui file. */
static gpointer
template_child (gpointer    widget,
                GType       type,
                const char *name)
{
  gpointer child = gtk_widget_get_template_child (GTK_WIDGET (widget), type, name);

  g_assert_nonnull (child);
  return child;
}

static void
settle (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
set_dsn (Relay *relay)
{
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *dsn = relay ? g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port) : g_strdup ("");

  g_settings_set_string (settings, "dsn", dsn);
}

static FcWindow *
window_with (const char *path)
{
  FcWindow *window = g_object_ref (fc_window_new (NULL));
  g_autoptr(GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (window));
  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));
  return window;
}

static FcWindow *
window_with_fixture (const char *fixture)
{
  g_autofree char *path = fc_test_data_path (fixture);

  return window_with (path);
}

/* tests/data/payloads/v2-cocoa.json with @from replaced by @to, in the test's home */
static char *
edited_fixture (const char *name,
                const char *from,
                const char *to)
{
  g_autofree char *fixture = fc_test_data_path ("payloads/v2-cocoa.json");
  char *path = g_build_filename (home, name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) contents = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (fixture, &text, NULL, &error));
  contents = g_string_new (text);
  g_assert_cmpuint (g_string_replace (contents, from, to, 1), ==, 1);
  g_assert_true (g_file_set_contents (path, contents->str, contents->len, &error));
  return path;
}

static void
window_free (FcWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
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

/* Ctrl+Shift+S's action, then the preview once built. */
static FcSendDialog *
open_send_dialog (FcWindow *window)
{
  FcSendDialog *dialog;

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "send"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "send", NULL);
  dialog = find_toplevel (FC_TYPE_SEND_DIALOG);
  g_assert_nonnull (dialog);
  g_object_ref (dialog);
  while (fc_send_dialog_is_busy (dialog))
    g_main_context_iteration (NULL, TRUE);
  return dialog;
}

/* Return: the dialog's default widget is Send. */
static void
press_return_and_wait (FcSendDialog *dialog)
{
  GtkLabel *validation = template_child (dialog, FC_TYPE_SEND_DIALOG, "validation_label");

  if (fc_send_dialog_get_envelopes (dialog) == NULL || fc_send_dialog_get_envelopes (dialog)->len == 0)
    g_error ("nothing to send: %s", gtk_label_get_text (validation));
  g_assert_true ((gpointer) gtk_window_get_default_widget (GTK_WINDOW (dialog)) ==
                 template_child (dialog, FC_TYPE_SEND_DIALOG, "send_button"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "default.activate", NULL));
  /* A button activated by Return clicks after its pressed look (250 ms). */
  while (!fc_send_dialog_is_busy (dialog) && fc_send_dialog_get_outcome (dialog) == NULL)
    g_main_context_iteration (NULL, TRUE);
  while (fc_send_dialog_get_outcome (dialog) == NULL)
    g_main_context_iteration (NULL, TRUE);
}

static GPtrArray *
outbox_list (gboolean rejected)
{
  g_autoptr(FcOutbox) outbox = fc_outbox_new (NULL);

  return rejected ? fc_outbox_list_rejected (outbox) : fc_outbox_list (outbox);
}

static FcOutboxWindow *
open_outbox (FcWindow *window)
{
  FcOutboxWindow *outbox;

  g_action_group_activate_action (G_ACTION_GROUP (window), "show-outbox", NULL);
  outbox = find_toplevel (FC_TYPE_OUTBOX_WINDOW);
  g_assert_nonnull (outbox);
  g_object_ref (outbox);
  while (fc_outbox_window_is_busy (outbox))
    g_main_context_iteration (NULL, TRUE);
  return outbox;
}

static void
wait_outbox (FcOutboxWindow *outbox)
{
  while (fc_outbox_window_is_busy (outbox))
    g_main_context_iteration (NULL, TRUE);
}

/* A chunk an SDK wrote goes to Sentry as that SDK's (client_sdk, release,
 * environment); the preview lists the validator's warnings, here a thread
 * with one sample that Relay drops. */
static void
test_send_sdk_file (void)
{
  static const char chunk[] =
    "{\"version\":\"2\",\"chunk_id\":\"0123456789abcdef0123456789abcdef\","
    "\"profiler_id\":\"fedcba9876543210fedcba9876543210\",\"platform\":\"native\","
    "\"client_sdk\":{\"name\":\"sentry.native\",\"version\":\"0.7.0\"},"
    "\"release\":\"app@1.0\",\"environment\":\"staging\","
    "\"profile\":{\"frames\":[{\"function\":\"main\",\"in_app\":true,\"instruction_addr\":\"0x1000\"}],"
    "\"stacks\":[[0]],\"samples\":["
    "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1700000000.0},"
    "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1700000000.01},"
    "{\"stack_id\":0,\"thread_id\":\"2\",\"timestamp\":1700000000.0}],"
    "\"thread_metadata\":{\"1\":{\"name\":\"main\"},\"2\":{\"name\":\"worker\"}}}}";
  Relay *relay = relay_new ();
  g_autofree char *path = g_build_filename (home, "sdk-chunk.json", NULL);
  FcWindow *window;
  FcSendDialog *dialog;
  GtkLabel *warnings;
  g_autoptr(FcDocument) sent = NULL;
  g_autoptr(GError) error = NULL;
  FcProfile *profile;

  g_assert_true (g_file_set_contents (path, chunk, -1, NULL));
  set_dsn (relay);
  window = window_with (path);
  dialog = open_send_dialog (window);
  g_assert_cmpstr (fc_send_dialog_get_page (dialog), ==, "preview");
  warnings = template_child (dialog, FC_TYPE_SEND_DIALOG, "warnings_label");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (warnings)));
  g_test_message ("warnings: %s", gtk_label_get_text (warnings));
  g_assert_nonnull (strstr (gtk_label_get_text (warnings), "Relay drops this thread"));
  g_assert_nonnull (strstr (gtk_label_get_text (warnings), "warning: "));
  fc_test_screenshot (GTK_WIDGET (dialog), "appitems-send-warnings");

  press_return_and_wait (dialog);
  /* the answer came: the relay had recorded the envelope before it gave it */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  sent = fc_reader_load_bytes (g_ptr_array_index (relay->delivered, 0), FC_READ_FLAGS_NONE, &error);
  g_assert_no_error (error);
  profile = fc_document_get_profile (sent, 0);
  g_assert_cmpstr (fc_profile_get_client_sdk (profile)->name, ==, "sentry.native");
  g_assert_cmpstr (fc_profile_get_client_sdk (profile)->version, ==, "0.7.0");
  g_assert_cmpstr (fc_profile_get_release (profile), ==, "app@1.0");
  g_assert_cmpstr (fc_profile_get_environment (profile), ==, "staging");

  g_object_unref (dialog);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
  set_dsn (NULL);
  relay_free (relay);
  g_unlink (path);
}

static void
test_send_delivered (void)
{
  Relay *relay = relay_new ();
  FcWindow *window;
  FcSendDialog *dialog;
  GtkLabel *validation;
  GBytes *previewed;
  g_autoptr(GPtrArray) waiting = NULL;

  set_dsn (relay);
  window = window_with_fixture ("payloads/v2-cocoa.json");
  dialog = open_send_dialog (window);

  /* the preview: one valid envelope with its chunk, release and thread names */
  g_assert_cmpstr (fc_send_dialog_get_page (dialog), ==, "preview");
  g_assert_cmpuint (fc_send_dialog_get_envelopes (dialog)->len, ==, 1);
  validation = template_child (dialog, FC_TYPE_SEND_DIALOG, "validation_label");
  g_assert_true (g_str_has_prefix (gtk_label_get_text (validation), "Valid"));
  {
    g_autoptr(FcEnvelopeSummary) summary = fc_envelope_summarize (g_ptr_array_index (fc_send_dialog_get_envelopes (dialog), 0), NULL);

    g_assert_cmpuint (summary->items->len, ==, 1);
    g_assert_cmpstr (((FcItemSummary *) g_ptr_array_index (summary->items, 0))->type, ==, "profile_chunk");
    g_assert_cmpstr (summary->release, ==, "2.3 (41)");
    g_assert_cmpstr (g_ptr_array_index (summary->thread_names, 0), ==, "com.apple.main-thread");
  }
  previewed = g_bytes_ref (g_ptr_array_index (fc_send_dialog_get_envelopes (dialog), 0));

  press_return_and_wait (dialog);
  g_assert_cmpstr (fc_send_dialog_get_outcome (dialog), ==, "Sent to Sentry: 1 envelope accepted");

  /* exactly what the preview showed, once, and nothing left behind (what the main loop
   * still had to do done first) */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  g_assert_true (g_bytes_equal (g_ptr_array_index (relay->delivered, 0), previewed));
  waiting = outbox_list (FALSE);
  g_assert_cmpuint (waiting->len, ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (dialog)));

  g_bytes_unref (previewed);
  g_assert_finalize_object (dialog);
  window_free (window);
  relay_free (relay);
}

/* Quitting while envelopes are in flight loses none: they are in the
 * outbox (on disk) before the first byte goes out, and leave it only on 2xx. */
static void
test_send_in_flight_is_in_outbox (void)
{
  Relay *relay = relay_new ();
  FcWindow *window;
  FcSendDialog *dialog;
  g_autoptr(GPtrArray) waiting = NULL;
  g_autoptr(GPtrArray) after = NULL;

  set_dsn (relay);
  relay_script (relay, REPLY_HOLD, -1);
  window = window_with_fixture ("payloads/v2-cocoa.json");
  dialog = open_send_dialog (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "send.send", NULL));

  /* the answer is held: the envelope waits in the outbox meanwhile,
   * and closing the dialog does not stop it */
  gtk_window_close (GTK_WINDOW (dialog));
  fc_test_poll_until (relay_n_requests (relay) == 1);
  waiting = outbox_list (FALSE);
  g_assert_cmpuint (waiting->len, ==, 1);
  g_assert_null (fc_send_dialog_get_outcome (dialog));
  relay_release (relay);
  fc_test_spin_until (fc_send_dialog_get_outcome (dialog) != NULL);
  g_assert_cmpstr (fc_send_dialog_get_outcome (dialog), ==, "Sent to Sentry: 1 envelope accepted");
  after = outbox_list (FALSE);
  g_assert_cmpuint (after->len, ==, 0);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);

  g_assert_finalize_object (dialog);
  window_free (window);
  relay_free (relay);
}

static void
test_send_rejected (void)
{
  Relay *relay = relay_new ();
  FcWindow *window;
  FcSendDialog *dialog;
  FcOutboxWindow *outbox;
  g_autoptr(GPtrArray) rejected = NULL;
  g_autoptr(GPtrArray) rejected_after = NULL;
  const char *id;
  AdwActionRow *row;

  set_dsn (relay);
  relay_script (relay, REPLY_400, -1);
  window = window_with_fixture ("payloads/v2-cocoa.json");
  dialog = open_send_dialog (window);
  press_return_and_wait (dialog);

  /* the server's reason, in the toast and on the Outbox page */
  g_assert_true (g_str_has_prefix (fc_send_dialog_get_outcome (dialog), "Sentry rejected the profile:"));
  g_assert_nonnull (strstr (fc_send_dialog_get_outcome (dialog), "EOF while parsing a value"));
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  rejected = outbox_list (TRUE);
  g_assert_cmpuint (rejected->len, ==, 1);
  id = g_ptr_array_index (rejected, 0);

  outbox = open_outbox (window);
  row = fc_outbox_window_get_row (outbox, id);
  g_assert_nonnull (row);
  g_assert_nonnull (gtk_widget_get_ancestor (GTK_WIDGET (row), ADW_TYPE_PREFERENCES_GROUP));
  g_assert_true ((gpointer) gtk_widget_get_ancestor (GTK_WIDGET (row), ADW_TYPE_PREFERENCES_GROUP) ==
                 template_child (outbox, FC_TYPE_OUTBOX_WINDOW, "rejected_group"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "HTTP 400"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "EOF while parsing a value"));

  /* Retry sends it again as it is (the relay now accepts), once */
  {
    g_autofree char *target = g_strconcat ("rejected:", id, NULL);

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (outbox), "outbox.retry", "s", target));
  }
  wait_outbox (outbox);
  g_assert_cmpuint (relay_n_requests (relay), ==, 2);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  g_assert_null (fc_outbox_window_get_row (outbox, id));
  rejected_after = outbox_list (TRUE);
  g_assert_cmpuint (rejected_after->len, ==, 0);

  gtk_window_destroy (GTK_WINDOW (outbox));
  g_assert_finalize_object (outbox);
  g_assert_finalize_object (dialog);
  window_free (window);
  relay_free (relay);
}

static void
test_send_rate_limited (void)
{
  Relay *relay = relay_new ();
  FcWindow *window;
  FcSendDialog *dialog;
  FcOutboxWindow *outbox;
  g_autoptr(GPtrArray) waiting = NULL;
  g_autoptr(GPtrArray) waiting_after = NULL;
  g_autofree char *target = NULL;
  g_autofree char *path = NULL;
  AdwActionRow *row;

  set_dsn (relay);
  /* 60:profile_chunk;profile: a python chunk's category (the fixture's cocoa one's is profile_chunk_ui) */
  relay_script (relay, REPLY_429_LIMITS, -1);
  path = edited_fixture ("python.json", "\"platform\": \"cocoa\"", "\"platform\": \"python\"");
  window = window_with (path);
  dialog = open_send_dialog (window);
  press_return_and_wait (dialog);

  g_assert_true (g_str_has_prefix (fc_send_dialog_get_outcome (dialog), "Not sent yet, waiting in the outbox:"));
  g_assert_nonnull (strstr (fc_send_dialog_get_outcome (dialog), "rate limited"));
  waiting = outbox_list (FALSE);
  g_assert_cmpuint (waiting->len, ==, 1);

  /* the Outbox page shows it waiting, and until when */
  outbox = open_outbox (window);
  row = fc_outbox_window_get_row (outbox, g_ptr_array_index (waiting, 0));
  g_assert_nonnull (row);
  g_assert_true ((gpointer) gtk_widget_get_ancestor (GTK_WIDGET (row), ADW_TYPE_PREFERENCES_GROUP) ==
                 template_child (outbox, FC_TYPE_OUTBOX_WINDOW, "waiting_group"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "rate limited"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "retry after"));

  /* Retry while limited does not send (the limit holds); Discard removes it */
  target = g_strconcat ("waiting:", (char *) g_ptr_array_index (waiting, 0), NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (outbox), "outbox.retry", "s", target));
  wait_outbox (outbox);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (outbox), "outbox.discard", "s", target));
  wait_outbox (outbox);
  g_assert_null (fc_outbox_window_get_row (outbox, g_ptr_array_index (waiting, 0)));
  waiting_after = outbox_list (FALSE);
  g_assert_cmpuint (waiting_after->len, ==, 0);

  gtk_window_destroy (GTK_WINDOW (outbox));
  g_assert_finalize_object (outbox);
  g_assert_finalize_object (dialog);
  window_free (window);
  relay_free (relay);
}

static void
test_send_preview_v1 (void)
{
  Relay *relay = relay_new ();
  FcWindow *window;
  FcSendDialog *dialog;
  g_autoptr(FcEnvelopeSummary) summary = NULL;

  /* a V1 profile goes with its transaction: both items, sized against their limits */
  set_dsn (relay);
  window = window_with_fixture ("payloads/v1-node-stored.json");
  dialog = open_send_dialog (window);
  g_assert_cmpstr (fc_send_dialog_get_page (dialog), ==, "preview");
  g_assert_cmpuint (fc_send_dialog_get_envelopes (dialog)->len, ==, 1);
  summary = fc_envelope_summarize (g_ptr_array_index (fc_send_dialog_get_envelopes (dialog), 0), NULL);
  g_assert_cmpuint (summary->items->len, ==, 2);
  g_assert_cmpstr (((FcItemSummary *) g_ptr_array_index (summary->items, 0))->type, ==, "transaction");
  g_assert_cmpuint (((FcItemSummary *) g_ptr_array_index (summary->items, 0))->limit, ==, FC_VALIDATE_MAX_EVENT_SIZE);
  g_assert_cmpstr (((FcItemSummary *) g_ptr_array_index (summary->items, 1))->type, ==, "profile");
  g_assert_cmpuint (((FcItemSummary *) g_ptr_array_index (summary->items, 1))->limit, ==, FC_VALIDATE_MAX_PAYLOAD_SIZE);
  g_assert_true (fc_envelope_summary_fits (summary));

  /* closed without sending: nothing went out */
  gtk_window_close (GTK_WINDOW (dialog));
  settle ();
  g_assert_cmpuint (relay_n_requests (relay), ==, 0);
  g_assert_finalize_object (dialog);
  window_free (window);
  relay_free (relay);
}

static void
test_send_without_dsn (void)
{
  FcWindow *window;
  FcSendDialog *dialog;
  FcPreferencesWindow *preferences;

  set_dsn (NULL);
  window = window_with_fixture ("payloads/v2-cocoa.json");
  dialog = open_send_dialog (window);

  /* it says so, sends nothing, and opens the preference */
  g_assert_cmpstr (fc_send_dialog_get_page (dialog), ==, "no-dsn");
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (dialog), "send.send", NULL) &&
                  fc_send_dialog_is_busy (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "send.open-preferences", NULL));
  preferences = find_toplevel (FC_TYPE_PREFERENCES_WINDOW);
  g_assert_nonnull (preferences);
  g_assert_true ((gpointer) adw_preferences_window_get_visible_page (ADW_PREFERENCES_WINDOW (preferences)) ==
                 template_child (preferences, FC_TYPE_PREFERENCES_WINDOW, "sending_page"));
  gtk_window_destroy (GTK_WINDOW (preferences));
  settle ();

  g_assert_finalize_object (dialog);
  window_free (window);
}

static void
test_send_strips_home (void)
{
  Relay *relay = relay_new ();
  g_autofree char *in_home = g_strconcat (home, "/src/Shop", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  FcWindow *window;
  FcSendDialog *dialog;
  GtkCheckButton *check;

  /* a chunk whose image lies in the home directory */
  path = edited_fixture ("chunk.json", "/private/var/containers/Bundle/Application/"
                         "0D3E7A52-6C1B-4F0A-9E8D-2B4C6A8E0F13/Shop.app/Shop", in_home);

  set_dsn (relay);
  g_settings_set_boolean (settings, "strip-home-directory", FALSE);
  window = window_with (path);
  dialog = open_send_dialog (window);
  {
    g_autoptr(FcEnvelopeSummary) summary = fc_envelope_summarize (g_ptr_array_index (fc_send_dialog_get_envelopes (dialog), 0), NULL);

    g_assert_true (g_ptr_array_find_with_equal_func (summary->paths, in_home, g_str_equal, NULL));
  }

  /* ticking the option rebuilds the preview with "~" */
  check = template_child (dialog, FC_TYPE_SEND_DIALOG, "strip_home_check");
  gtk_check_button_set_active (check, TRUE);
  g_assert_true (g_settings_get_boolean (settings, "strip-home-directory"));
  while (fc_send_dialog_is_busy (dialog))
    g_main_context_iteration (NULL, TRUE);
  {
    g_autoptr(FcEnvelopeSummary) summary = fc_envelope_summarize (g_ptr_array_index (fc_send_dialog_get_envelopes (dialog), 0), NULL);
    gsize len;
    const char *data = g_bytes_get_data (summary->envelope, &len);

    g_assert_true (g_ptr_array_find_with_equal_func (summary->paths, "~/src/Shop", g_str_equal, NULL));
    g_assert_null (g_strstr_len (data, len, home));
  }

  /* what is sent is what was previewed, and Relay's framing checks pass */
  press_return_and_wait (dialog);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  g_assert_true (g_bytes_equal (g_ptr_array_index (relay->delivered, 0),
                                g_ptr_array_index (fc_send_dialog_get_envelopes (dialog), 0)));

  g_assert_finalize_object (dialog);
  window_free (window);
  relay_free (relay);
  g_unlink (path);
}

/* -- an OTLP/HTTP receiver on 127.0.0.1, served by this thread's main loop -- */

typedef struct {
  SoupServer *server;
  guint       port;
  guint       status;          /* what it answers */
  GPtrArray  *bodies;          /* GBytes*, decompressed */
  GPtrArray  *paths;
  GPtrArray  *content_types;
} Receiver;

/* google.rpc.Status { code: 3, message: "sample_type is missing" } */
static const guint8 status_answer[] = {
  0x08, 0x03, 0x12, 0x16, 's', 'a', 'm', 'p', 'l', 'e', '_', 't', 'y', 'p', 'e', ' ', 'i', 's', ' ', 'm', 'i',
  's', 's', 'i', 'n', 'g'
};

static GBytes *
gunzip (GBytes *bytes)
{
  g_autoptr(GZlibDecompressor) d = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) base = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr(GInputStream) in = g_converter_input_stream_new (base, G_CONVERTER (d));
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_cmpint (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL), >=, 0);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

static void
receiver_handler (SoupServer        *server,
                  SoupServerMessage *msg,
                  const char        *path,
                  GHashTable        *query,
                  gpointer           user_data)
{
  Receiver *r = user_data;
  SoupMessageHeaders *in = soup_server_message_get_request_headers (msg);
  g_autoptr(GBytes) raw = soup_message_body_flatten (soup_server_message_get_request_body (msg));

  g_ptr_array_add (r->paths, g_strdup (path));
  g_ptr_array_add (r->content_types, g_strdup (soup_message_headers_get_content_type (in, NULL)));
  g_ptr_array_add (r->bodies, g_strcmp0 (soup_message_headers_get_one (in, "Content-Encoding"), "gzip") == 0
                                ? gunzip (raw) : g_bytes_ref (raw));
  soup_server_message_set_status (msg, r->status, NULL);
  if (r->status == 400)
    soup_server_message_set_response (msg, "application/x-protobuf", SOUP_MEMORY_STATIC,
                                      (const char *) status_answer, sizeof status_answer);
  else
    soup_server_message_set_response (msg, "application/x-protobuf", SOUP_MEMORY_STATIC, "", 0);
}

static Receiver *
receiver_new (void)
{
  Receiver *r = g_new0 (Receiver, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  r->status = 200;
  r->bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  r->paths = g_ptr_array_new_with_free_func (g_free);
  r->content_types = g_ptr_array_new_with_free_func (g_free);
  r->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (r->server, NULL, receiver_handler, r, NULL);
  g_assert_true (soup_server_listen_local (r->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (r->server);
  r->port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return r;
}

static void
receiver_free (Receiver *r)
{
  soup_server_disconnect (r->server);
  g_object_unref (r->server);
  g_ptr_array_unref (r->bodies);
  g_ptr_array_unref (r->paths);
  g_ptr_array_unref (r->content_types);
  g_free (r);
}

/* With an OTLP endpoint set (and no DSN), the dialog offers it as the
 * target: the preview is the one request, Return posts it to
 * /v1development/profiles; a 400 keeps it aside with the receiver's message. */
static void
test_send_otlp (void)
{
  Receiver *r = receiver_new ();
  g_autoptr(GSettings) settings = fc_app_settings_new ();
  g_autofree char *endpoint = g_strdup_printf ("http://127.0.0.1:%u", r->port);
  g_autoptr(GBytes) previewed = NULL;
  g_autoptr(FcDocument) decoded = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rejected = NULL;
  g_autoptr(FcOutbox) otlp_outbox = NULL;
  FcWindow *window;
  FcSendDialog *dialog;
  AdwComboRow *target;

  set_dsn (NULL);
  g_settings_set_string (settings, "otlp-endpoint", endpoint);
  window = window_with_fixture ("payloads/v2-cocoa.json");
  dialog = open_send_dialog (window);

  target = template_child (dialog, FC_TYPE_SEND_DIALOG, "target_row");
  g_assert_true (gtk_widget_get_visible (template_child (dialog, FC_TYPE_SEND_DIALOG, "target_box")));
  g_assert_cmpuint (adw_combo_row_get_selected (target), ==, 1);
  g_assert_cmpstr (fc_send_dialog_get_page (dialog), ==, "preview");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==, "Send to OpenTelemetry");
  /* the preview is the request: one ProfilesData with the chunk's profile */
  g_assert_cmpuint (fc_send_dialog_get_envelopes (dialog)->len, ==, 1);
  previewed = g_bytes_ref (g_ptr_array_index (fc_send_dialog_get_envelopes (dialog), 0));
  decoded = fc_otlp_read (previewed, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fc_document_get_n_profiles (decoded), ==, 1);

  /* Sentry without a DSN: said so, nothing to send; back to the endpoint */
  adw_combo_row_set_selected (target, 0);
  g_assert_cmpuint (fc_send_dialog_get_envelopes (dialog) ? fc_send_dialog_get_envelopes (dialog)->len : 0, ==, 0);
  g_assert_cmpstr (fc_send_dialog_get_page (dialog), ==, "preview");
  adw_combo_row_set_selected (target, 1);
  while (fc_send_dialog_is_busy (dialog))
    g_main_context_iteration (NULL, TRUE);

  press_return_and_wait (dialog);
  g_assert_true (g_str_has_prefix (fc_send_dialog_get_outcome (dialog), "Sent to the OpenTelemetry endpoint"));
  g_assert_cmpuint (r->paths->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (r->paths, 0), ==, "/v1development/profiles");
  g_assert_cmpstr (g_ptr_array_index (r->content_types, 0), ==, "application/x-protobuf");
  g_assert_true (g_bytes_equal (g_ptr_array_index (r->bodies, 0), previewed));
  g_assert_finalize_object (dialog);

  /* 400: kept aside with the receiver's message */
  r->status = 400;
  dialog = open_send_dialog (window);
  press_return_and_wait (dialog);
  g_assert_true (g_str_has_prefix (fc_send_dialog_get_outcome (dialog),
                                   "The OpenTelemetry endpoint rejected the profile:"));
  g_assert_nonnull (strstr (fc_send_dialog_get_outcome (dialog), "sample_type is missing"));
  g_assert_cmpuint (r->paths->len, ==, 2);
  {
    g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "flamecast", "otlp-outbox", NULL);

    otlp_outbox = fc_outbox_new (dir);
  }
  rejected = fc_outbox_list_rejected (otlp_outbox);
  g_assert_cmpuint (rejected->len, ==, 1);
  g_assert_finalize_object (dialog);

  g_settings_reset (settings, "otlp-endpoint");
  window_free (window);
  receiver_free (r);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  home = g_get_home_dir ();
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/send/delivered", test_send_delivered);
  g_test_add_func ("/app/send/sdk-file", test_send_sdk_file);
  g_test_add_func ("/app/send/in-flight-is-in-outbox", test_send_in_flight_is_in_outbox);
  g_test_add_func ("/app/send/rejected", test_send_rejected);
  g_test_add_func ("/app/send/preview-v1", test_send_preview_v1);
  g_test_add_func ("/app/send/without-dsn", test_send_without_dsn);
  g_test_add_func ("/app/send/strips-home", test_send_strips_home);
  /* last: Sentry's 60 s limit is remembered in the state dir */
  g_test_add_func ("/app/send/rate-limited", test_send_rate_limited);
  g_test_add_func ("/app/send/otlp", test_send_otlp);

  return fc_test_run ();
}
