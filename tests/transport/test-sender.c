/* test-sender.c - envelopes for files, chunks and spans; FcSender and `flamecast-cli send`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gstdio.h>

#include "fc-transport-error.h"
#include "fc-reader.h"
#include "fc-sender.h"
#include "fc-test-relay.h"
#include "fc-test-util.h"
#include "fc-validate.h"

#define PROFILER_ID "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
#define BASE_NS     G_GINT64_CONSTANT (1763800000000000000)

static char *
fixture (const char *relative)
{
  return fc_test_data_path (relative);
}

static FcDocument *
load_fixture (const char  *relative,
              GBytes     **bytes_out)
{
  g_autofree char *path = fixture (relative);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_file_load_bytes (file, NULL, NULL, &error);
  FcDocument *document;

  g_assert_no_error (error);
  document = fc_reader_load_bytes (bytes, FC_READ_LENIENT, &error);
  g_assert_no_error (error);
  if (bytes_out)
    *bytes_out = g_steal_pointer (&bytes);
  return document;
}

/* A chunk like the recorder makes: two threads, samples every 10 ms for @seconds. */
static FcProfile *
make_chunk (double seconds)
{
  FcProfile *chunk = fc_profile_new (FC_FORMAT_V2);
  guint32 frames[3];
  guint32 stack, idle;
  guint32 main_thread, worker;
  const char *names[] = { "work", "compute", "main" };
  g_autofree char *chunk_id = g_strdup ("aabbccddeeff00112233445566778899");

  fc_profile_set_meta_string (chunk, "version", "2");
  fc_profile_set_meta_string (chunk, "platform", "native");
  fc_profile_set_meta_string (chunk, "profiler_id", PROFILER_ID);
  fc_profile_set_meta_string (chunk, "chunk_id", chunk_id);
  fc_profile_set_meta_string (chunk, "release", "app@1.2.3");
  fc_profile_set_meta_string (chunk, "environment", "test");
  fc_profile_take_client_sdk (chunk, fc_client_sdk_new ("flamecast", FC_VERSION));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      FcFrame frame;

      fc_frame_init (&frame);
      frame.function = fc_profile_intern (chunk, names[i]);
      frame.filename = fc_profile_intern (chunk, "app.c");
      frame.lineno = 10 + i;
      frame.in_app = FC_IN_APP_YES;
      frame.has_instruction_addr = TRUE;
      frame.instruction_addr = 0x401000 + 0x10 * i;
      frames[i] = fc_profile_intern_frame (chunk, &frame);
    }
  stack = fc_profile_intern_stack_frames (chunk, frames, 3);
  idle = fc_profile_intern_stack_frames (chunk, frames + 2, 1);

  main_thread = fc_profile_ensure_thread (chunk, "4242");
  fc_profile_set_thread_name (chunk, main_thread, "main");
  worker = fc_profile_ensure_thread (chunk, "4243");
  fc_profile_set_thread_name (chunk, worker, "worker");

  for (gint64 t = 0; t <= (gint64) (seconds * 1000); t += 10)
    {
      fc_profile_append_sample (chunk, BASE_NS + t * 1000000, main_thread, stack, 0);
      if (t % 30 == 0)
        fc_profile_append_sample (chunk, BASE_NS + t * 1000000, worker, idle, 0);
    }

  return chunk;
}

static void
assert_valid (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *text = fc_problem_to_string (g_ptr_array_index (problems, i));
      g_test_message ("%s", text);
    }
  g_assert_false (fc_problems_has_errors (problems));
}

static GPtrArray *
categories_of (GBytes *envelope)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *categories = fc_envelope_dup_categories (envelope, &error);

  g_assert_no_error (error);
  return categories;
}

static void
test_sender_chunk (void)
{
  g_autoptr(FcProfile) chunk = make_chunk (5);
  g_autoptr(GPtrArray) problems = fc_validate_profile (chunk);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) envelope = NULL;
  g_autoptr(GPtrArray) categories = NULL;
  g_autoptr(FcDocument) back = NULL;

  assert_valid (problems);

  envelope = fc_sender_envelope_for_chunk (chunk, &error);
  g_assert_no_error (error);
  categories = categories_of (envelope);
  g_assert_cmpuint (categories->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (categories, 0), ==, "profile_chunk");
  g_assert_nonnull (g_strstr_len (g_bytes_get_data (envelope, NULL), g_bytes_get_size (envelope),
                                  "\"platform\":\"native\""));

  back = fc_reader_load_bytes (envelope, FC_READ_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fc_document_get_kind (back), ==, FC_DOCUMENT_ENVELOPE);
  g_assert_cmpuint (fc_document_get_n_profiles (back), ==, 1);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (back, 0)), ==,
                    fc_profile_get_n_samples (chunk));
}

static void
test_sender_invalid_not_sent (void)
{
  /* Cut down as Sentry stores it: stacks point at frames the file does not have. */
  g_autoptr(FcDocument) document = load_fixture ("payloads/v2-python-cut.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) envelopes = fc_sender_envelopes_for_document (document, NULL, &error);
  g_autoptr(FcProfile) empty = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GBytes) none = NULL;

  g_assert_null (envelopes);
  g_assert_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "File not sent, "));
  g_assert_nonnull (strstr (error->message, "profile.stacks[0]"));
  g_clear_error (&error);

  none = fc_sender_envelope_for_chunk (empty, &error);
  g_assert_null (none);
  g_assert_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID);
}

static void
test_sender_documents (void)
{
  g_autoptr(GBytes) v2_bytes = NULL;
  g_autoptr(FcDocument) v2 = load_fixture ("payloads/v2-cocoa.json", &v2_bytes);
  g_autoptr(FcDocument) v1 = load_fixture ("payloads/v1-cocoa.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) e2 = fc_sender_envelopes_for_document (v2, v2_bytes, &error);
  g_autoptr(GPtrArray) e1 = NULL;
  g_autoptr(GPtrArray) c2 = NULL;
  g_autoptr(GPtrArray) c1 = NULL;
  g_autoptr(GPtrArray) e_again = NULL;
  g_autoptr(FcDocument) as_envelope = NULL;

  /* A bare chunk is wrapped: one profile_chunk item (cocoa bills as UI). */
  g_assert_no_error (error);
  g_assert_cmpuint (e2->len, ==, 1);
  c2 = categories_of (g_ptr_array_index (e2, 0));
  g_assert_cmpuint (c2->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (c2, 0), ==, "profile_chunk_ui");

  /* A bare V1 profile travels with its transaction. */
  e1 = fc_sender_envelopes_for_document (v1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (e1->len, ==, 1);
  c1 = categories_of (g_ptr_array_index (e1, 0));
  g_assert_cmpuint (c1->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (c1, 0), ==, "transaction");
  g_assert_cmpstr (g_ptr_array_index (c1, 1), ==, "profile");

  /* An envelope goes as it is, byte for byte. */
  as_envelope = fc_reader_load_bytes (g_ptr_array_index (e1, 0), FC_READ_FLAGS_NONE, &error);
  g_assert_no_error (error);
  e_again = fc_sender_envelopes_for_document (as_envelope, g_ptr_array_index (e1, 0), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (e_again->len, ==, 1);
  g_assert_true (g_bytes_equal (g_ptr_array_index (e_again, 0), g_ptr_array_index (e1, 0)));
}

static void
test_sender_v1_split (void)
{
  g_autoptr(FcProfile) chunk = make_chunk (70);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) refused = fc_sender_v1_envelopes_for_chunk (chunk, "checkout", FALSE, &error);
  g_autoptr(GPtrArray) split = NULL;

  /* Longer than V1's 30 s: refused with a clear message... */
  g_assert_null (refused);
  g_assert_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "split"));
  g_clear_error (&error);

  /* ...or split into windows of at most 30 s, each transaction + profile. */
  split = fc_sender_v1_envelopes_for_chunk (chunk, "checkout", TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (split->len, ==, 3);
  for (guint i = 0; i < split->len; i++)
    {
      g_autoptr(GPtrArray) categories = categories_of (g_ptr_array_index (split, i));
      g_autoptr(FcDocument) back = fc_reader_load_bytes (g_ptr_array_index (split, i), FC_READ_FLAGS_NONE, &error);
      g_autoptr(GPtrArray) problems = NULL;

      g_assert_no_error (error);
      g_assert_cmpuint (categories->len, ==, 2);
      g_assert_cmpuint (fc_document_get_n_transactions (back), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (fc_document_get_transaction (back, 0), "transaction"),
                       ==, "checkout");
      problems = fc_validate_document (back);
      assert_valid (problems);
    }
}

static FcRootSpan *
make_span (const char *name,
           gint64      start_ns,
           gint64      end_ns)
{
  FcRootSpan *span = g_new0 (FcRootSpan, 1);

  span->id = 1;
  span->name = g_strdup (name);
  memcpy (span->trace_id, "0123456789abcdef0123456789abcdef", 33);
  memcpy (span->span_id, "0123456789abcdef", 17);
  span->sampled = TRUE;
  span->profiled = TRUE;
  span->start_ns = start_ns;
  span->end_ns = end_ns;
  return span;
}

static void
test_sender_span_transaction (void)
{
  g_autoptr(FcProfile) chunk = make_chunk (5);
  g_autoptr(FcRootSpan) span = make_span ("checkout", BASE_NS + 1000000000, BASE_NS + 3000000000);
  g_autoptr(JsonObject) event = fc_sender_transaction_for_span (span, chunk, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) envelope = NULL;
  g_autoptr(FcDocument) back = NULL;
  JsonObject *contexts = json_object_get_object_member (event, "contexts");
  JsonObject *trace = json_object_get_object_member (contexts, "trace");
  JsonObject *data = json_object_get_object_member (trace, "data");

  g_assert_cmpstr (json_object_get_string_member (event, "type"), ==, "transaction");
  g_assert_cmpstr (json_object_get_string_member (event, "transaction"), ==, "checkout");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (event, "start_timestamp"),
                                  (BASE_NS + 1000000000) / 1e9, 1e-6);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (event, "timestamp"),
                                  (BASE_NS + 3000000000) / 1e9, 1e-6);
  /* Linked to the chunks: profiler_id, and the busiest thread by default. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (contexts, "profile"),
                                                  "profiler_id"), ==, PROFILER_ID);
  g_assert_cmpstr (json_object_get_string_member (data, "thread.id"), ==, "4242");
  g_assert_cmpstr (json_object_get_string_member (data, "thread.name"), ==, "main");
  g_assert_cmpstr (json_object_get_string_member (trace, "trace_id"), ==, span->trace_id);
  g_assert_cmpstr (json_object_get_string_member (event, "release"), ==, "app@1.2.3");

  envelope = fc_sender_transaction_envelope (event, &error);
  g_assert_no_error (error);
  back = fc_reader_load_bytes (envelope, FC_READ_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fc_document_get_n_transactions (back), ==, 1);
}

static void
flushed_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GAsyncResult **out = user_data;
  *out = g_object_ref (result);
}

static void
test_sender_live (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcSender) sender = fc_sender_new (transport);
  g_autoptr(FcProfile) chunk = make_chunk (5);
  g_autoptr(FcRootSpan) span = make_span ("checkout", BASE_NS, BASE_NS + 2000000000);
  g_autoptr(FcRootSpan) unsampled = make_span ("ignored", BASE_NS, BASE_NS + 1000000000);
  g_autoptr(FcRootSpan) unprofiled = make_span ("not profiled", BASE_NS, BASE_NS + 1000000000);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sent = NULL;

  fc_transport_set_retry_policy (transport, 3, 5);
  unsampled->sampled = FALSE;
  unprofiled->profiled = FALSE;

  /* The span ends first (stop-profiling, then the chunk arrives): it waits. */
  g_assert_true (fc_sender_add_root_span (sender, span, &error));
  g_assert_true (fc_sender_add_root_span (sender, unsampled, &error));
  g_assert_true (fc_sender_add_root_span (sender, unprofiled, &error));
  g_assert_cmpuint (fc_sender_get_n_queued (sender), ==, 0);
  g_assert_true (fc_sender_add_chunk (sender, chunk, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fc_sender_get_n_queued (sender), ==, 2);

  /* delivered from this thread's loop, which the sender does not run itself */
  fc_sender_flush_async (sender, NULL, flushed_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  report = fc_sender_flush_finish (sender, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->delivered, ==, 2);
  g_assert_true (fc_flush_report_all_delivered (report));
  g_assert_cmpuint (relay->delivered->len, ==, 2);

  /* The chunk, then the transaction pointing at it. */
  sent = g_strndup (g_bytes_get_data (g_ptr_array_index (relay->delivered, 1), NULL),
                    g_bytes_get_size (g_ptr_array_index (relay->delivered, 1)));
  g_assert_nonnull (strstr (sent, "\"profiler_id\":\"" PROFILER_ID "\""));
  g_assert_nonnull (strstr (sent, "\"thread.id\":\"4242\""));

  relay_free (relay);
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static FcSenderProgress
progress_of (FcSender *sender)
{
  FcSenderProgress progress;

  fc_sender_get_progress (sender, &progress);
  return progress;
}

/* What a live indicator shows: each queued chunk, then what the background
 * flushes did with it (sent, refused, waiting), notified as it changes. */
static void
test_sender_progress (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcSender) sender = fc_sender_new (transport);
  g_autoptr(FcProfile) chunk = make_chunk (5);
  g_autoptr(GError) error = NULL;
  FcSenderProgress progress;
  guint n_queued_notifies = 0, n_delivered_notifies = 0, n_rejected_notifies = 0, n_waiting_notifies = 0;
  guint delivered = 0;

  g_signal_connect (sender, "notify::n-queued", G_CALLBACK (count_notify_cb), &n_queued_notifies);
  g_signal_connect (sender, "notify::n-delivered", G_CALLBACK (count_notify_cb), &n_delivered_notifies);
  g_signal_connect (sender, "notify::n-rejected", G_CALLBACK (count_notify_cb), &n_rejected_notifies);
  g_signal_connect (sender, "notify::n-waiting", G_CALLBACK (count_notify_cb), &n_waiting_notifies);
  progress = progress_of (sender);
  g_assert_cmpuint (progress.queued + progress.delivered + progress.rejected + progress.waiting + progress.pending, ==, 0);

  /* Sentry refuses the first, takes the second */
  relay_script (relay, REPLY_400, -1);
  g_assert_true (fc_sender_add_chunk (sender, chunk, &error));
  g_assert_no_error (error);
  g_assert_true (fc_sender_add_chunk (sender, chunk, &error));
  g_assert_cmpuint (n_queued_notifies, ==, 2);
  progress = progress_of (sender);
  g_assert_cmpuint (progress.queued, ==, 2);
  g_assert_cmpuint (progress.pending, ==, 2);
  while (progress_of (sender).pending > 0)
    g_main_context_iteration (NULL, TRUE);
  progress = progress_of (sender);
  g_assert_cmpuint (progress.delivered, ==, 1);
  g_assert_cmpuint (progress.rejected, ==, 1);
  g_assert_cmpuint (progress.waiting, ==, 0);
  g_assert_cmpuint (n_rejected_notifies, ==, 1);
  g_assert_cmpuint (n_delivered_notifies, >=, 1);
  g_object_get (sender, "n-delivered", &delivered, NULL);
  g_assert_cmpuint (delivered, ==, 1);

  /* rate limited: the third waits in the outbox, still counted pending */
  relay_script (relay, REPLY_429_LIMITS, -1);
  g_assert_true (fc_sender_add_chunk (sender, chunk, &error));
  while (progress_of (sender).waiting == 0)
    g_main_context_iteration (NULL, TRUE);
  progress = progress_of (sender);
  g_assert_cmpuint (progress.queued, ==, 3);
  g_assert_cmpuint (progress.waiting, ==, 1);
  g_assert_cmpuint (progress.pending, ==, 1);
  g_assert_cmpuint (progress.delivered, ==, 1);
  g_assert_cmpuint (n_waiting_notifies, ==, 1);

  relay_free (relay);
}

/* A flush takes up what is queued while it runs, so on a slow network one flush can last as long
 * as the recording: each envelope counts as it ends, not when the flush does (the app's
 * indicator read "0 sent" for minutes). */
static void
test_sender_progress_during_flush (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcSender) sender = fc_sender_new (transport);
  g_autoptr(FcProfile) chunk = make_chunk (5);
  g_autoptr(GError) error = NULL;
  FcSenderProgress progress;

  /* the first is refused, the second taken, the third held in flight: the flush cannot end
   * (and the held request is not given up on, however slow the machine) */
  fc_transport_set_timeout (transport, 3600);
  relay_script (relay, REPLY_400, REPLY_OK, REPLY_HOLD, -1);
  for (guint i = 0; i < 3; i++)
    g_assert_true (fc_sender_add_chunk (sender, chunk, &error));
  g_assert_no_error (error);
  /* (the relay's thread counts them: nothing in this loop says when) */
  fc_test_poll_until (relay_n_requests (relay) == 3);
  fc_test_spin_until (progress_of (sender).delivered + progress_of (sender).rejected == 2);
  progress = progress_of (sender);
  g_assert_cmpuint (progress.rejected, ==, 1);
  g_assert_cmpuint (progress.delivered, ==, 1);
  g_assert_cmpuint (progress.pending, ==, 1);

  relay_release (relay);
  fc_test_spin_until (progress_of (sender).pending == 0);
  progress = progress_of (sender);
  g_assert_cmpuint (progress.delivered, ==, 2);
  g_assert_cmpuint (progress.rejected, ==, 1);
  g_assert_cmpuint (relay->delivered->len, ==, 2);

  relay_free (relay);
}

/* -- the CLI -- */

static int
run_cli_command (char       **out,
                 char       **err_out,
                 const char  *command,
                 const char  *first,
                 va_list      args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) envp = NULL;
  const char *arg;
  int status;

  g_ptr_array_add (argv, (gpointer) g_getenv ("FC_CLI"));
  g_ptr_array_add (argv, (gpointer) command);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  g_ptr_array_add (argv, NULL);

  g_assert_nonnull (g_getenv ("FC_CLI"));
  /* The child shares this test's private state and config dirs. */
  envp = g_get_environ ();
  envp = g_environ_setenv (envp, "HOME", g_get_home_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_STATE_HOME", g_get_user_state_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  envp = g_environ_setenv (envp, "XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  /* The CLI's warnings (an unsampled session) are output here, not failures. */
  envp = g_environ_unsetenv (envp, "G_DEBUG");
  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, out, &err, &status, &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", *out, err);
  /* Secrets never reach the output. */
  g_assert_null (strstr (*out, KEY));
  g_assert_null (strstr (err, KEY));
  if (err_out != NULL)
    *err_out = g_steal_pointer (&err);

  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static int
run_cli (char       **out,
         const char  *first,
         ...)
{
  va_list args;
  int status;

  va_start (args, first);
  status = run_cli_command (out, NULL, "send", first, args);
  va_end (args);
  return status;
}

static int
run_record (char       **out,
            char       **err,
            const char  *first,
            ...)
{
  va_list args;
  int status;

  va_start (args, first);
  status = run_cli_command (out, err, "record", first, args);
  va_end (args);
  return status;
}

static char *
delivered_text (Relay *relay,
                guint  index)
{
  GBytes *bytes = g_ptr_array_index (relay->delivered, index);
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

static void
test_cli_record_trace_send (void)
{
  Relay *relay = relay_new ();
  g_autofree char *dsn_text = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  g_autofree char *dir = g_dir_make_tmp ("fc-record-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "control", NULL);
  g_autofree char *output = g_build_filename (dir, "out", NULL);
  g_autofree char *script = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *profiler_id = NULL;
  g_autofree char *delivered = NULL;
  g_autoptr(GPtrArray) transactions = g_ptr_array_new_with_free_func (g_free);
  guint n_chunks = 0;

  /* The profiled program brackets two scenarios through the control FIFO. */
  script = g_strdup_printf ("while [ ! -p %s ]; do sleep 0.02; done\n"
                            "burn () { i=0; while [ $i -lt $1 ]; do i=$((i+1)); done; }\n"
                            "echo 'begin checkout' > %s; burn 150000; echo 'end checkout' > %s\n"
                            "burn 20000\n"
                            "echo 'begin search' > %s; burn 150000; echo 'end search' > %s\n",
                            fifo, fifo, fifo, fifo, fifo);

  /* 500 Hz: each short span still gets enough samples on a busy machine. */
  g_assert_cmpint (run_record (&out, &err, "-F", "500", "--lifecycle", "trace", "--control", fifo, "--send",
                               "--dsn", dsn_text, "-o", output, "--", "sh", "-c", script, NULL), ==, 0);

  /* Each span finishes a chunk, then its transaction follows, linked to the
   * chunks by profiler_id. Stopping does not hold up the CLI's main loop, so
   * a span that begins while the previous chunk is still being finished is
   * recorded too: two spans, two chunks. (The order of START/STOP against
   * span ends is pinned by test-lifecycle.) */
  for (guint i = 0; i < relay->delivered->len; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(FcDocument) document = fc_reader_load_bytes (g_ptr_array_index (relay->delivered, i),
                                                             FC_READ_FLAGS_NONE, &error);
      const char *id;

      g_assert_no_error (error);
      if (fc_document_get_n_profiles (document) == 0)
        {
          g_assert_cmpuint (fc_document_get_n_transactions (document), ==, 1);
          g_ptr_array_add (transactions, delivered_text (relay, i));
          continue;
        }

      g_assert_cmpuint (fc_document_get_n_profiles (document), ==, 1);
      g_assert_cmpuint (fc_document_get_n_transactions (document), ==, 0);
      id = fc_profile_get_profiler_id (fc_document_get_profile (document, 0));
      g_assert_nonnull (id);
      /* One profiler session for the whole recording. */
      if (profiler_id == NULL)
        profiler_id = g_strdup (id);
      g_assert_cmpstr (id, ==, profiler_id);
      n_chunks++;
    }

  g_assert_cmpuint (n_chunks, ==, 2);
  g_assert_cmpuint (transactions->len, ==, 2);
  for (guint i = 0; i < transactions->len; i++)
    {
      const char *transaction = g_ptr_array_index (transactions, i);
      g_autofree char *link = g_strdup_printf ("\"profiler_id\":\"%s\"", profiler_id);
      g_autofree char *name = g_strdup_printf ("\"transaction\":\"%s\"", i == 0 ? "checkout" : "search");

      g_assert_nonnull (strstr (transaction, "\"type\":\"transaction\""));
      g_assert_nonnull (strstr (transaction, link));
      g_assert_nonnull (strstr (transaction, name));
      g_assert_nonnull (strstr (transaction, "\"thread.id\":\""));
    }

  delivered = g_strdup_printf ("Delivered %u envelopes.", relay->delivered->len);
  g_assert_nonnull (strstr (err, delivered));

  /* The FIFO the recorder created is gone. */
  g_assert_false (g_file_test (fifo, G_FILE_TEST_EXISTS));

  fc_test_remove_tree (dir);
  relay_free (relay);
}

static void
test_cli_record_unsampled_session (void)
{
  Relay *relay = relay_new ();
  g_autofree char *dsn_text = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  g_autofree char *settings_dir = g_build_filename (g_get_user_config_dir (), "flamecast", NULL);
  g_autofree char *settings = g_build_filename (settings_dir, "settings.ini", NULL);
  g_autofree char *output = g_build_filename (g_get_user_cache_dir (), "out", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  /* profile_session_sample_rate 0 in the saved settings: never profiles. */
  g_assert_cmpint (g_mkdir_with_parents (settings_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (settings, "[flamecast]\nprofile-session-sample-rate=0\n", -1, NULL));

  g_assert_cmpint (run_record (&out, &err, "--send", "--dsn", dsn_text, "-o", output,
                               "--", "sh", "-c", "exit 3", NULL), ==, 3);
  g_assert_nonnull (strstr (err, "not sampled"));
  g_assert_nonnull (strstr (err, "Delivered 0 envelopes."));
  g_assert_cmpuint (relay_n_requests (relay), ==, 0);

  relay_free (relay);
}

static void
test_cli_send (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autofree char *dsn_text = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  g_autofree char *good = fixture ("payloads/v2-cocoa.json");
  g_autofree char *v1 = fixture ("payloads/v1-cocoa.json");
  g_autofree char *bad = fixture ("payloads/v2-python-cut.json");
  g_autofree char *out1 = NULL;
  g_autofree char *out2 = NULL;
  g_autofree char *out3 = NULL;
  g_autofree char *out4 = NULL;
  g_autofree char *out5 = NULL;

  /* Delivered: exit 0. */
  g_assert_cmpint (run_cli (&out1, "--dsn", dsn_text, good, v1, NULL), ==, 0);
  g_assert_nonnull (strstr (out1, "Delivered 2 envelopes."));
  g_assert_nonnull (strstr (out1, "Sending to http://0123***@127.0.0.1"));
  g_assert_cmpuint (relay_n_requests (relay), ==, 2);

  /* An invalid file is not sent and fails the run; the valid one goes. */
  g_assert_cmpint (run_cli (&out2, "--dsn", dsn_text, bad, good, NULL), ==, 1);
  g_assert_nonnull (strstr (out2, "File not sent"));
  g_assert_cmpuint (relay_n_requests (relay), ==, 3);

  /* Sentry down: exit 1, the envelope waits and the output says why... */
  relay_script (relay, REPLY_503, -1);
  g_setenv ("SENTRY_DSN", dsn_text, TRUE);
  g_assert_cmpint (run_cli (&out3, "--attempts", "1", good, NULL), ==, 1);
  g_assert_nonnull (strstr (out3, "1 envelope is waiting in the outbox"));
  g_assert_nonnull (strstr (out3, "HTTP 503"));

  /* ...and --flush delivers it (DSN from SENTRY_DSN). */
  g_assert_cmpint (run_cli (&out4, "--flush", NULL), ==, 0);
  g_assert_nonnull (strstr (out4, "Delivered 1 envelope."));
  g_assert_cmpuint (relay->delivered->len, ==, 4);
  g_unsetenv ("SENTRY_DSN");

  /* No DSN anywhere: a usage error naming where to put one. */
  g_assert_cmpint (run_cli (&out5, "--flush", NULL), ==, 2);

  relay_free (relay);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_unsetenv ("SENTRY_DSN");
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  /* No GSettings schemas in isolated dirs for the desktop's proxy resolver. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);

  g_test_add_func ("/core/sender/chunk", test_sender_chunk);
  g_test_add_func ("/core/sender/invalid-not-sent", test_sender_invalid_not_sent);
  g_test_add_func ("/core/sender/documents", test_sender_documents);
  g_test_add_func ("/core/sender/v1-split", test_sender_v1_split);
  g_test_add_func ("/core/sender/span-transaction", test_sender_span_transaction);
  g_test_add_func ("/core/sender/live", test_sender_live);
  g_test_add_func ("/core/sender/progress", test_sender_progress);
  g_test_add_func ("/core/sender/progress-during-flush", test_sender_progress_during_flush);
  g_test_add_func ("/cli/send", test_cli_send);
  g_test_add_func ("/cli/record-trace-send", test_cli_record_trace_send);
  g_test_add_func ("/cli/record-unsampled-session", test_cli_record_unsampled_session);

  return g_test_run ();
}
