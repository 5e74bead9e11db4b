/* test-transport.c - the transport against a fake Relay (SoupServer on 127.0.0.1)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-format-error.h"
#include "fc-test-relay.h"
#include "fc-test-util.h"
#include "fc-transport.h"

/* -- envelopes and helpers -- */

/* A one-item envelope whose payload carries @n, padded to about @pad bytes. */
static GBytes *
make_envelope (const char *type,
               guint       n,
               gsize       pad)
{
  g_autofree char *filler = g_strnfill (pad, 'x');
  g_autofree char *payload = g_strdup_printf ("{\"n\":%u,\"pad\":\"%s\"}", n, filler);
  g_autofree char *item = NULL;
  char *text;

  if (strcmp (type, "profile_chunk") == 0)
    item = g_strdup_printf ("{\"type\":\"profile_chunk\",\"platform\":\"native\",\"length\":%zu}", strlen (payload));
  else
    item = g_strdup_printf ("{\"type\":\"%s\",\"length\":%zu,\"content_type\":\"application/json\"}",
                            type, strlen (payload));
  text = g_strdup_printf ("{\"sent_at\":\"2026-01-01T00:00:00Z\"}\n%s\n%s\n", item, payload);
  return g_bytes_new_take (text, strlen (text));
}

/* The @n of an envelope made by make_envelope(). */
static guint
envelope_n (GBytes *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  g_autofree char *copy = g_strndup (data, len);
  const char *p = strstr (copy, "{\"n\":");

  g_assert_nonnull (p);
  return (guint) g_ascii_strtoull (p + 5, NULL, 10);
}

static char *
enqueue (FcTransport *transport,
         const char  *type,
         guint        n)
{
  g_autoptr(GBytes) env = make_envelope (type, n, 64);
  g_autoptr(GError) error = NULL;
  char *id = fc_transport_enqueue (transport, env, &error);

  g_assert_no_error (error);
  g_assert_nonnull (id);
  return id;
}

static guint
outbox_len (FcTransport *transport)
{
  g_autoptr(GPtrArray) ids = fc_outbox_list (fc_transport_get_outbox (transport));
  return ids->len;
}

static guint
rejected_len (FcTransport *transport)
{
  g_autoptr(GPtrArray) ids = fc_outbox_list_rejected (fc_transport_get_outbox (transport));
  return ids->len;
}

/* No flush holds a claim on @id any more (every path releases it). */
static void
assert_claimable (FcTransport *transport,
                  const char  *id)
{
  g_autoptr(FcOutbox) other = fc_outbox_new (fc_outbox_get_dir (fc_transport_get_outbox (transport)));
  g_autoptr(GError) error = NULL;
  g_autoptr(FcOutboxClaim) claim = fc_outbox_claim (other, id, &error);

  g_assert_no_error (error);
  g_assert_nonnull (claim);
}

/* A clock tests move by hand. */
static gint64 fake_now = (gint64) 1700000000 * G_USEC_PER_SEC;

static gint64
fake_clock (gpointer data)
{
  return fake_now;
}

/* Records the delays the transport chose between attempts, moves the fake
 * clock by them (time passes as if it had waited) and waits 1 ms for real. */
static guint
record_wait (FcTransport *transport,
             const char  *id,
             guint        delay_ms,
             gpointer     user_data)
{
  GArray *delays = user_data;

  g_array_append_val (delays, delay_ms);
  fake_now += (gint64) delay_ms * 1000;
  return 1;
}

static FcTransport *
transport_new (Relay *relay)
{
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  FcTransport *transport = fc_transport_new (dsn, NULL, NULL);

  /* Backoff stays real but short: tests never sleep for minutes. */
  fc_transport_set_retry_policy (transport, 3, 5);
  fc_transport_set_clock (transport, fake_clock, NULL);
  return transport;
}

static void
flush_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GAsyncResult **out = user_data;
  *out = g_object_ref (result);
}

static gboolean
tick_cb (gpointer data)
{
  (*(guint *) data)++;
  return G_SOURCE_CONTINUE;
}

/* Runs the asynchronous flush on this thread's main context, counting
 * main-loop ticks meanwhile to show the flush never blocks it. */
static FcFlushReport *
flush_async_and_wait (FcTransport *transport,
                      guint       *ticks)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  FcFlushReport *report;
  guint dummy = 0;
  guint ticker;

  ticker = g_timeout_add (10, tick_cb, ticks ? ticks : &dummy);
  fc_transport_flush_async (transport, NULL, flush_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (ticker);

  report = fc_transport_flush_finish (transport, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  for (guint i = 0; i < report->messages->len; i++)
    {
      const char *msg = g_ptr_array_index (report->messages, i);
      g_test_message ("report: %s", msg);
      /* Secrets never reach messages. */
      g_assert_null (strstr (msg, KEY));
    }
  return report;
}

/* -- tests -- */

static void
test_transport_deliver (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;

  for (guint i = 0; i < 5; i++)
    g_free (enqueue (transport, i % 2 ? "transaction" : "profile_chunk", i));

  /* In the outbox before the first attempt. */
  g_assert_cmpuint (outbox_len (transport), ==, 5);
  g_assert_cmpuint (relay_n_requests (relay), ==, 0);

  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 5);
  g_assert_cmpuint (report->attempts, ==, 5);
  g_assert_true (fc_flush_report_all_delivered (report));
  g_assert_cmpuint (outbox_len (transport), ==, 0);

  /* Oldest first, each exactly once. */
  g_assert_cmpuint (relay->delivered->len, ==, 5);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, i)), ==, i);
  g_assert_cmpuint (relay->n_gzipped, ==, 0);

  /* Nothing left: a second flush sends nothing. */
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->attempts, ==, 0);
  g_assert_cmpuint (relay_n_requests (relay), ==, 5);

  relay_free (relay);
}

static void
test_transport_gzip (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GBytes) big = make_envelope ("profile_chunk", 1, 200 * 1024);
  g_autoptr(GBytes) small = make_envelope ("profile_chunk", 2, 30 * 1024);
  g_autofree char *id1 = fc_transport_enqueue (transport, big, NULL);
  g_autofree char *id2 = fc_transport_enqueue (transport, small, NULL);

  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 2);
  /* Only the one above 32 KiB is compressed, and it arrives intact. */
  g_assert_cmpuint (relay->n_gzipped, ==, 1);
  g_assert_true (g_bytes_equal (g_ptr_array_index (relay->delivered, 0), big));
  g_assert_true (g_bytes_equal (g_ptr_array_index (relay->delivered, 1), small));

  relay_free (relay);
}

static void
test_transport_rejected (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id400 = enqueue (transport, "profile_chunk", 0);
  g_autofree char *id413 = enqueue (transport, "profile_chunk", 1);
  g_autofree char *id403 = enqueue (transport, "profile_chunk", 2);
  g_autofree char *idok = enqueue (transport, "profile_chunk", 3);
  g_autofree char *r400 = NULL;
  g_autofree char *r413 = NULL;
  g_autofree char *r403 = NULL;
  FcOutbox *outbox = fc_transport_get_outbox (transport);

  relay_script (relay, REPLY_400, REPLY_413, REPLY_403, -1);
  report = flush_async_and_wait (transport, NULL);

  /* Permanent: not retried, kept aside with the server's reason. */
  g_assert_cmpuint (report->rejected, ==, 3);
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 4);
  g_assert_false (fc_flush_report_all_delivered (report));
  g_assert_cmpuint (relay_n_requests (relay), ==, 4);
  g_assert_cmpuint (outbox_len (transport), ==, 0);
  g_assert_cmpuint (rejected_len (transport), ==, 3);

  r400 = fc_outbox_dup_rejected_reason (outbox, id400);
  r413 = fc_outbox_dup_rejected_reason (outbox, id413);
  r403 = fc_outbox_dup_rejected_reason (outbox, id403);
  g_assert_cmpstr (r400, ==, "rejected by Sentry (HTTP 400: invalid envelope: EOF while parsing a value)");
  g_assert_cmpstr (r413, ==, "rejected by Sentry (HTTP 413: envelope exceeded size limits)");
  g_assert_cmpstr (r403, ==, "rejected by Sentry (HTTP 403: event submission rejected with_reason: ProjectId)");
  g_assert_cmpuint (report->messages->len, ==, 3);
  g_assert_nonnull (strstr (g_ptr_array_index (report->messages, 0), "invalid envelope"));

  /* A later flush does not retry them blindly. */
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->attempts, ==, 0);

  relay_free (relay);
}

/* Each envelope's outcome, by its outbox ID: what the app's send dialog
 * tells, without reading the outbox after the flush. */
static void
test_transport_outcomes (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id_ok = enqueue (transport, "profile_chunk", 0);
  g_autofree char *id_400 = enqueue (transport, "profile_chunk", 1);
  g_autofree char *id_500 = enqueue (transport, "profile_chunk", 2);
  g_autofree char *id_busy = enqueue (transport, "profile_chunk", 3);
  g_autoptr(FcOutbox) other = fc_outbox_new (fc_outbox_get_dir (fc_transport_get_outbox (transport)));
  g_autoptr(FcOutboxClaim) claim = fc_outbox_claim (other, id_busy, NULL);
  const FcEnvelopeOutcome *outcome;

  g_assert_nonnull (claim);
  fc_transport_set_retry_policy (transport, 1, 5);
  relay_script (relay, REPLY_OK, REPLY_400, REPLY_500, -1);
  report = flush_async_and_wait (transport, NULL);

  g_assert_cmpuint (report->outcomes->len, ==, 4);
  outcome = fc_flush_report_find_outcome (report, id_ok);
  g_assert_nonnull (outcome);
  g_assert_cmpint (outcome->fate, ==, FC_ENVELOPE_DELIVERED);
  g_assert_null (outcome->why);

  outcome = fc_flush_report_find_outcome (report, id_400);
  g_assert_nonnull (outcome);
  g_assert_cmpint (outcome->fate, ==, FC_ENVELOPE_REJECTED);
  g_assert_cmpstr (outcome->why, ==, "rejected by Sentry (HTTP 400: invalid envelope: EOF while parsing a value)");

  outcome = fc_flush_report_find_outcome (report, id_500);
  g_assert_nonnull (outcome);
  g_assert_cmpint (outcome->fate, ==, FC_ENVELOPE_WAITING);
  g_assert_nonnull (outcome->why);
  {
    g_autofree char *note = fc_outbox_dup_note (fc_transport_get_outbox (transport), id_500);

    /* the same words as the note the outbox keeps */
    g_assert_cmpstr (outcome->why, ==, note);
  }

  outcome = fc_flush_report_find_outcome (report, id_busy);
  g_assert_nonnull (outcome);
  g_assert_cmpint (outcome->fate, ==, FC_ENVELOPE_BUSY);

  g_assert_null (fc_flush_report_find_outcome (report, "no-such-id"));
  g_clear_pointer (&claim, fc_outbox_claim_release);

  relay_free (relay);
}

static void
test_transport_retry (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;

  g_free (enqueue (transport, "profile_chunk", 7));
  relay_script (relay, REPLY_500, REPLY_DROP, -1);
  report = flush_async_and_wait (transport, NULL);

  /* 500, dropped connection, then 200: delivered once. */
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 3);
  g_assert_cmpuint (relay_n_requests (relay), ==, 3);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  g_assert_cmpuint (outbox_len (transport), ==, 0);

  relay_free (relay);
}

static void
test_transport_retry_exhausted (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *first = enqueue (transport, "profile_chunk", 0);
  g_autofree char *second = enqueue (transport, "profile_chunk", 1);
  g_autofree char *note = NULL;
  g_autofree char *note2 = NULL;
  g_autoptr(GArray) delays = g_array_new (FALSE, FALSE, sizeof (guint));

  fc_transport_set_retry_wait_func (transport, record_wait, delays);
  relay_script (relay, REPLY_503, REPLY_503, REPLY_503, -1);
  report = flush_async_and_wait (transport, NULL);

  /* Without Retry-After, plain exponential backoff: 5 ms, then 10 ms. */
  g_assert_cmpuint (delays->len, ==, 2);
  g_assert_cmpuint (g_array_index (delays, guint, 0), ==, 5);
  g_assert_cmpuint (g_array_index (delays, guint, 1), ==, 10);
  /* Left waiting: the claims are given up. */
  assert_claimable (transport, first);
  assert_claimable (transport, second);

  /* Three attempts on the oldest, then the server counts as down: the
   * second is not tried, both stay in the outbox with the reason. */
  g_assert_cmpuint (report->delivered, ==, 0);
  g_assert_cmpuint (report->waiting, ==, 2);
  g_assert_cmpuint (report->attempts, ==, 3);
  g_assert_cmpuint (relay_n_requests (relay), ==, 3);
  g_assert_cmpuint (outbox_len (transport), ==, 2);
  note = fc_outbox_dup_note (fc_transport_get_outbox (transport), first);
  note2 = fc_outbox_dup_note (fc_transport_get_outbox (transport), second);
  g_assert_cmpstr (note, ==, "Sentry is unavailable (HTTP 503: Service Unavailable) (3 attempts)");
  g_assert_cmpstr (note2, ==, "not attempted: Sentry is unavailable (HTTP 503: Service Unavailable)");

  /* The server is back: the next flush delivers both, oldest first, once. */
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 2);
  g_assert_cmpuint (outbox_len (transport), ==, 0);
  g_assert_cmpuint (relay->delivered->len, ==, 2);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 0)), ==, 0);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 1)), ==, 1);

  relay_free (relay);
}

static void
test_transport_slow (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcFlushReport) report = NULL;

  g_free (enqueue (transport, "profile_chunk", 0));
  relay_script (relay, REPLY_HOLD, -1);
  fc_transport_flush_async (transport, NULL, flush_done_cb, &result);
  /* The main loop keeps running while the answer takes its time: it runs this wait, and the
   * flush has not finished when the request has arrived. */
  fc_test_poll_until (relay_n_requests (relay) == 1);
  g_assert_null (result);
  relay_release (relay);
  fc_test_spin_until (result != NULL);

  report = fc_transport_flush_finish (transport, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 1);

  relay_free (relay);
}

static void
test_transport_timeout (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;

  fc_transport_set_timeout (transport, 1);
  g_free (enqueue (transport, "profile_chunk", 0));
  relay_script (relay, REPLY_NEVER, -1);
  report = flush_async_and_wait (transport, NULL);

  /* No answer within the timeout counts as a network error: retried. */
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 2);
  g_assert_cmpuint (outbox_len (transport), ==, 0);

  relay_free (relay);
}

static void
test_transport_rate_limited (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(FcRateLimits) next_run = NULL;
  g_autofree char *chunk_a = enqueue (transport, "profile_chunk", 0);
  g_autofree char *note = NULL;

  fake_now = (gint64) 1700000000 * G_USEC_PER_SEC;

  relay_script (relay, REPLY_429_LIMITS, -1);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->waiting, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 1);
  note = fc_outbox_dup_note (fc_transport_get_outbox (transport), chunk_a);
  g_assert_true (g_str_has_prefix (note, "rate limited by Sentry (HTTP 429"));
  assert_claimable (transport, chunk_a);

  /* Chunks and profiles are silenced; a transaction still goes. */
  g_free (enqueue (transport, "profile_chunk", 1));
  g_free (enqueue (transport, "profile", 2));
  g_free (enqueue (transport, "transaction", 3));
  fake_now += 59 * G_USEC_PER_SEC;
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->waiting, ==, 3);
  g_assert_cmpuint (report->attempts, ==, 1);
  g_assert_cmpuint (relay_n_requests (relay), ==, 2);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 0)), ==, 3);
  g_assert_nonnull (strstr (g_ptr_array_index (report->messages, 0), "rate limited by Sentry for “profile_chunk”"));

  /* The next run of the app or the CLI knows about the limit. */
  next_run = fc_rate_limits_new (NULL);
  g_assert_true (fc_rate_limits_is_limited (next_run, "profile_chunk", fake_now));
  g_assert_false (fc_rate_limits_is_limited (next_run, "transaction", fake_now));

  /* Time is up: everything goes, oldest first, exactly once. */
  fake_now += 2 * G_USEC_PER_SEC;
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 3);
  g_assert_cmpuint (outbox_len (transport), ==, 0);
  g_assert_cmpuint (relay->delivered->len, ==, 4);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 1)), ==, 0);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 2)), ==, 1);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 3)), ==, 2);

  relay_free (relay);
}

static void
test_transport_limits_on_200 (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;

  fake_now = (gint64) 1700000000 * G_USEC_PER_SEC;
  g_free (enqueue (transport, "profile_chunk", 0));
  g_free (enqueue (transport, "profile_chunk", 1));
  g_free (enqueue (transport, "transaction", 2));
  relay_script (relay, REPLY_OK_WITH_LIMITS, -1);

  report = flush_async_and_wait (transport, NULL);
  /* The 200 delivered the first and limited the second. */
  g_assert_cmpuint (report->delivered, ==, 2);
  g_assert_cmpuint (report->waiting, ==, 1);
  g_assert_cmpuint (relay_n_requests (relay), ==, 2);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 1)), ==, 2);

  relay_free (relay);
}

static void
test_transport_retry_after (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;

  fake_now = (gint64) 1700000000 * G_USEC_PER_SEC;
  g_free (enqueue (transport, "profile_chunk", 0));
  g_free (enqueue (transport, "transaction", 1));
  relay_script (relay, REPLY_429_RETRY_AFTER, -1);

  /* A 429 without X-Sentry-Rate-Limits silences every category. */
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->waiting, ==, 2);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (report->messages, 0), "(HTTP 429: Too Many Requests)"));
  g_assert_nonnull (strstr (g_ptr_array_index (report->messages, 1), "rate limited by Sentry (all categories) until"));

  fake_now += 31 * G_USEC_PER_SEC;
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 2);

  relay_free (relay);
}

static void
test_transport_sync (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GError) error = NULL;

  g_free (enqueue (transport, "profile_chunk", 0));
  g_free (enqueue (transport, "profile_chunk", 1));
  relay_script (relay, REPLY_503, -1);

  /* The blocking flush runs the same code on a private context. */
  report = fc_transport_flush (transport, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->delivered, ==, 2);
  g_assert_cmpuint (report->attempts, ==, 3);
  g_assert_cmpuint (relay->delivered->len, ==, 2);
  g_assert_cmpuint (outbox_len (transport), ==, 0);

  relay_free (relay);
}

static void
test_transport_malformed_entry (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GBytes) broken = g_bytes_new_static ("{}\n{\"type\":\"profile_chunk\",\"length\":999}\n{}", 43);
  g_autofree char *id = fc_transport_enqueue (transport, broken, NULL);
  g_autofree char *reason = NULL;

  report = flush_async_and_wait (transport, NULL);

  /* Never sent: moved aside with the framing problem. */
  g_assert_cmpuint (relay_n_requests (relay), ==, 0);
  g_assert_cmpuint (report->rejected, ==, 1);
  reason = fc_outbox_dup_rejected_reason (fc_transport_get_outbox (transport), id);
  g_assert_nonnull (strstr (reason, "malformed envelope"));
  g_assert_nonnull (strstr (reason, "length 999"));

  relay_free (relay);
}

/* An envelope added while a flush is in flight goes in the same flush. */
static void
test_transport_enqueue_during_flush (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) joined_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(FcFlushReport) joined = NULL;

  g_free (enqueue (transport, "profile_chunk", 0));
  relay_script (relay, REPLY_HOLD, -1);
  fc_transport_flush_async (transport, NULL, flush_done_cb, &result);
  /* the first envelope in flight, its answer held: another is added, and flushed */
  fc_test_poll_until (relay_n_requests (relay) == 1);
  g_free (enqueue (transport, "profile_chunk", 99));
  fc_transport_flush_async (transport, NULL, flush_done_cb, &joined_result);
  relay_release (relay);
  fc_test_spin_until (result != NULL && joined_result != NULL);

  /* The envelope added meanwhile went in the same flush, and the second
   * caller got the same report. */
  report = fc_transport_flush_finish (transport, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->delivered, ==, 2);
  joined = fc_transport_flush_finish (transport, joined_result, &error);
  g_assert_no_error (error);
  g_assert_true (joined == report);
  g_assert_cmpuint (relay->delivered->len, ==, 2);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 1)), ==, 99);

  relay_free (relay);
}

static void
test_transport_network_down (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(FcDsn) dsn = NULL;
  g_autoptr(FcTransport) transport = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  g_autofree char *note = NULL;
  guint16 port;

  /* A port nothing listens on: bound but not listening refuses connections. */
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  address = g_inet_socket_address_new (loopback, 0);
  g_assert_true (g_socket_bind (socket, address, FALSE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));

  text = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, port);
  dsn = fc_dsn_parse (text, NULL);
  transport = fc_transport_new (dsn, NULL, NULL);
  fc_transport_set_retry_policy (transport, 2, 1);
  id = enqueue (transport, "profile_chunk", 0);

  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->waiting, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 2);
  note = fc_outbox_dup_note (fc_transport_get_outbox (transport), id);
  g_assert_true (g_str_has_prefix (note, "network error: "));
  g_assert_null (strstr (note, KEY));
  g_assert_cmpuint (outbox_len (transport), ==, 1);
}

static void
test_transport_cancel (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id = enqueue (transport, "profile_chunk", 0);

  relay_script (relay, REPLY_NEVER, -1);
  fc_transport_flush_async (transport, cancellable, flush_done_cb, &result);
  while (relay_n_requests (relay) == 0)
    g_main_context_iteration (NULL, FALSE);
  g_cancellable_cancel (cancellable);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  report = fc_transport_flush_finish (transport, result, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (report);
  /* Cancelled means not known to be delivered: it stays, and the next flush may take it. */
  g_assert_cmpuint (outbox_len (transport), ==, 1);
  assert_claimable (transport, id);

  relay_free (relay);
}

static void
test_transport_send_async (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(GBytes) older = make_envelope ("profile_chunk", 1, 64);
  g_autoptr(GBytes) envelope = make_envelope ("profile_chunk", 2, 64);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *older_id = fc_transport_enqueue (transport, older, NULL);

  /* The app's one call: stored, then everything waiting goes, oldest first. */
  fc_transport_send_async (transport, envelope, NULL, flush_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  report = fc_transport_send_finish (transport, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->delivered, ==, 2);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 0)), ==, 1);
  g_assert_cmpuint (envelope_n (g_ptr_array_index (relay->delivered, 1)), ==, 2);
  g_assert_cmpuint (outbox_len (transport), ==, 0);

  relay_free (relay);
}

static void
test_transport_proxy_from_environment (void)
{
  Relay *relay = relay_new ();
  g_autofree char *proxy = g_strdup_printf ("http://127.0.0.1:%u", relay->port);
  g_autoptr(FcDsn) dsn = fc_dsn_parse ("http://" KEY "@sentry.invalid/" PROJECT, NULL);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcFlushReport) report = NULL;

  /* The DSN's host does not resolve: only the proxy (our relay) can take it. */
  fc_transport_set_retry_policy (transport, 1, 1);
  g_free (enqueue (transport, "profile_chunk", 5));
  g_setenv ("http_proxy", proxy, TRUE);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);

  /* no_proxy wins for its hosts. */
  g_free (enqueue (transport, "profile_chunk", 6));
  g_setenv ("no_proxy", "localhost,.invalid", TRUE);
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 0);
  g_assert_cmpuint (report->waiting, ==, 1);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);

  g_unsetenv ("no_proxy");
  g_unsetenv ("http_proxy");
  relay_free (relay);
}

static void
test_transport_tls_verified (void)
{
  Relay *relay = relay_new_tls ();
  g_autofree char *text = g_strdup_printf ("https://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  g_autoptr(FcDsn) dsn = fc_dsn_parse (text, NULL);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id = NULL;
  g_autofree char *note = NULL;

  fc_transport_set_retry_policy (transport, 1, 1);
  id = enqueue (transport, "profile_chunk", 0);
  report = flush_async_and_wait (transport, NULL);

  /* A self-signed certificate is refused: nothing reaches the server. */
  g_assert_cmpuint (report->delivered, ==, 0);
  g_assert_cmpuint (report->waiting, ==, 1);
  g_assert_cmpuint (relay_n_requests (relay), ==, 0);
  note = fc_outbox_dup_note (fc_transport_get_outbox (transport), id);
  g_assert_true (g_str_has_prefix (note, "network error: "));
  g_assert_nonnull (strstr (note, "TLS"));

  relay_free (relay);
}

static void
test_transport_503_retry_after (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GArray) delays = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GDateTime) at = NULL;
  g_autofree char *date = NULL;

  fake_now = (gint64) 1700000000 * G_USEC_PER_SEC;
  fc_transport_set_retry_wait_func (transport, record_wait, delays);

  /* 503 + Retry-After: 7 (seconds), then 200: the retry waited 7 s, not the 5 ms backoff. */
  g_free (enqueue (transport, "profile_chunk", 0));
  relay_set_retry_after (relay, "7");
  relay_script (relay, REPLY_503_RETRY_AFTER, REPLY_OK, -1);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 2);
  g_assert_cmpuint (delays->len, ==, 1);
  g_assert_cmpuint (g_array_index (delays, guint, 0), ==, 7000);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  g_assert_cmpuint (outbox_len (transport), ==, 0);

  /* An HTTP date 12 s after the (fake) now. */
  g_array_set_size (delays, 0);
  at = g_date_time_new_from_unix_utc (fake_now / G_USEC_PER_SEC + 12);
  date = soup_date_time_to_string (at, SOUP_DATE_HTTP);
  relay_set_retry_after (relay, date);
  g_free (enqueue (transport, "profile_chunk", 1));
  relay_script (relay, REPLY_503_RETRY_AFTER, REPLY_OK, -1);
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (delays->len, ==, 1);
  g_assert_cmpuint (g_array_index (delays, guint, 0), ==, 12000);

  /* Shorter than the backoff: the backoff wins (5 ms, then 10 ms). */
  g_array_set_size (delays, 0);
  relay_set_retry_after (relay, "0");
  g_free (enqueue (transport, "profile_chunk", 2));
  relay_script (relay, REPLY_503, REPLY_503_RETRY_AFTER, REPLY_OK, -1);
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (delays->len, ==, 2);
  g_assert_cmpuint (g_array_index (delays, guint, 0), ==, 5);
  g_assert_cmpuint (g_array_index (delays, guint, 1), ==, 10);

  g_assert_cmpuint (relay->delivered->len, ==, 3);
  relay_free (relay);
}

static void
test_transport_503_retry_after_long (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) transport = transport_new (relay);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GArray) delays = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *note = NULL;
  g_autofree char *note2 = NULL;

  fake_now = (gint64) 1700000000 * G_USEC_PER_SEC;
  fc_transport_set_retry_wait_func (transport, record_wait, delays);
  first = enqueue (transport, "profile_chunk", 0);
  second = enqueue (transport, "profile_chunk", 1);

  /* Back in an hour: no flush blocks that long. Both wait in the outbox,
   * the note says when Sentry wants them, the second is not tried. */
  relay_set_retry_after (relay, "3600");
  relay_script (relay, REPLY_503_RETRY_AFTER, -1);
  report = flush_async_and_wait (transport, NULL);
  g_assert_cmpuint (report->attempts, ==, 1);
  g_assert_cmpuint (report->waiting, ==, 2);
  g_assert_cmpuint (delays->len, ==, 0);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  note = fc_outbox_dup_note (fc_transport_get_outbox (transport), first);
  note2 = fc_outbox_dup_note (fc_transport_get_outbox (transport), second);
  g_assert_true (g_str_has_prefix (note, "Sentry is unavailable (HTTP 503: Service Unavailable), retry after "));
  g_assert_true (g_str_has_suffix (note, " (1 attempt)"));
  g_assert_true (g_str_has_prefix (note2, "not attempted: Sentry is unavailable (HTTP 503: Service Unavailable), retry after "));
  assert_claimable (transport, first);
  assert_claimable (transport, second);

  relay_free (relay);
}

/* Counts how often each envelope reached the relay with a 2xx. */
static void
assert_each_delivered_once (Relay *relay,
                            guint  n)
{
  g_autofree guint *count = g_new0 (guint, n);

  g_assert_cmpuint (relay->delivered->len, ==, n);
  for (guint i = 0; i < relay->delivered->len; i++)
    {
      guint e = envelope_n (g_ptr_array_index (relay->delivered, i));

      g_assert_cmpuint (e, <, n);
      count[e]++;
    }
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (count[i], ==, 1);
  /* Nothing was posted twice, not even with an error answer. */
  g_assert_cmpuint (relay_n_requests (relay), ==, n);
}

#define N_CONCURRENT 24

static void
test_transport_concurrent_flushes (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) app = transport_new (relay);
  /* Its own FcOutbox on the same directory: its own open files, so its
   * claims exclude the app's as another process's would. */
  g_autoptr(FcTransport) cli = transport_new (relay);
  g_autoptr(GAsyncResult) result_app = NULL;
  g_autoptr(GAsyncResult) result_cli = NULL;
  g_autoptr(FcFlushReport) report_app = NULL;
  g_autoptr(FcFlushReport) report_cli = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (fc_transport_get_outbox (app) != fc_transport_get_outbox (cli));
  g_assert_cmpstr (fc_outbox_get_dir (fc_transport_get_outbox (app)), ==,
                   fc_outbox_get_dir (fc_transport_get_outbox (cli)));

  for (guint i = 0; i < N_CONCURRENT; i++)
    g_free (enqueue (app, i % 3 ? "profile_chunk" : "transaction", i));

  /* The first answers held until both flushes have an envelope in flight: one claimed the
   * first entry, the other found it claimed and went on (flushes send one at a time). */
  relay_script (relay, REPLY_HOLD, REPLY_HOLD, -1);
  fc_transport_flush_async (app, NULL, flush_done_cb, &result_app);
  fc_transport_flush_async (cli, NULL, flush_done_cb, &result_cli);
  fc_test_poll_until (relay_n_requests (relay) == 2);
  relay_release (relay);
  fc_test_spin_until (result_app != NULL && result_cli != NULL);

  report_app = fc_transport_flush_finish (app, result_app, &error);
  g_assert_no_error (error);
  report_cli = fc_transport_flush_finish (cli, result_cli, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < report_app->messages->len; i++)
    g_test_message ("app: %s", (char *) g_ptr_array_index (report_app->messages, i));
  for (guint i = 0; i < report_cli->messages->len; i++)
    g_test_message ("cli: %s", (char *) g_ptr_array_index (report_cli->messages, i));

  /* Between them, each envelope was sent exactly once; the outbox is empty. */
  assert_each_delivered_once (relay, N_CONCURRENT);
  g_assert_cmpuint (report_app->delivered + report_cli->delivered, ==, N_CONCURRENT);
  g_assert_cmpuint (report_app->waiting + report_cli->waiting, ==, 0);
  g_assert_cmpuint (report_app->rejected + report_cli->rejected, ==, 0);
  g_assert_cmpuint (outbox_len (app), ==, 0);

  /* They met: one found an entry the other was sending, and said so
   * without calling it a failure. */
  g_assert_cmpuint (report_app->busy + report_cli->busy, >, 0);
  g_assert_true (fc_flush_report_all_delivered (report_app));
  g_assert_true (fc_flush_report_all_delivered (report_cli));
  if (report_app->busy > 0)
    {
      text = fc_transport_describe_report (app, report_app);
      g_assert_nonnull (strstr (g_ptr_array_index (report_app->messages, 0), ": being sent by another process"));
    }
  else
    {
      text = fc_transport_describe_report (cli, report_cli);
      g_assert_nonnull (strstr (g_ptr_array_index (report_cli->messages, 0), ": being sent by another process"));
    }
  g_assert_nonnull (strstr (text, "being sent by another process"));

  relay_free (relay);
}

static void
communicate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GAsyncResult **out = user_data;
  *out = g_object_ref (result);
}

static void
test_transport_concurrent_cli (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcTransport) app = transport_new (relay);
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autofree char *dsn_text = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GAsyncResult) result_app = NULL;
  g_autoptr(GAsyncResult) result_child = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *delivered_line;
  guint child_delivered;

  g_assert_nonnull (g_getenv ("FC_CLI"));
  for (guint i = 0; i < N_CONCURRENT; i++)
    g_free (enqueue (app, "profile_chunk", i));

  /* `flamecast-cli send --flush` in another process, on this test's outbox,
   * while the app flushes it too. */
  g_subprocess_launcher_setenv (launcher, "XDG_STATE_HOME", g_get_user_state_dir (), TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_subprocess_launcher_unsetenv (launcher, "G_DEBUG");
  /* the first answers held until both have an envelope in flight: they surely overlap */
  relay_script (relay, REPLY_HOLD, REPLY_HOLD, -1);
  child = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("FC_CLI"), "send", "--flush",
                                       "--dsn", dsn_text, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8_async (child, NULL, NULL, communicate_cb, &result_child);
  fc_transport_flush_async (app, NULL, flush_done_cb, &result_app);
  fc_test_poll_until (relay_n_requests (relay) == 2);
  relay_release (relay);
  fc_test_spin_until (result_app != NULL && result_child != NULL);

  report = fc_transport_flush_finish (app, result_app, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8_finish (child, result_child, &out, &err, &error));
  g_assert_no_error (error);
  g_test_message ("cli stdout: %s\ncli stderr: %s", out, err);
  for (guint i = 0; i < report->messages->len; i++)
    g_test_message ("app: %s", (char *) g_ptr_array_index (report->messages, i));

  /* Each envelope went once, whoever sent it; the outbox ends empty and
   * neither side counts the other's work as a failure. */
  g_assert_true (g_subprocess_get_if_exited (child));
  g_assert_cmpint (g_subprocess_get_exit_status (child), ==, 0);
  assert_each_delivered_once (relay, N_CONCURRENT);
  g_assert_cmpuint (outbox_len (app), ==, 0);
  g_assert_cmpuint (report->waiting, ==, 0);
  g_assert_true (fc_flush_report_all_delivered (report));
  delivered_line = strstr (out, "Delivered ");
  g_assert_nonnull (delivered_line);
  child_delivered = (guint) g_ascii_strtoull (delivered_line + strlen ("Delivered "), NULL, 10);
  g_assert_cmpuint (report->delivered + child_delivered, ==, N_CONCURRENT);
  g_assert_null (strstr (out, KEY));

  relay_free (relay);
}

static void
test_envelope_categories (void)
{
  static const char v1[] =
    "{\"event_id\":\"a\"}\n"
    "{\"type\":\"transaction\",\"length\":2}\n{}\n"
    "{\"type\":\"profile\"}\n{\"x\":1}";
  static const char ui[] = "{}\n{\"type\":\"profile_chunk\",\"platform\":\"cocoa\",\"length\":2}\n{}\n";
  static const char bad_newline[] = "{}\n{\"type\":\"profile\",\"length\":2}\n{}X";
  static const char no_items[] = "{}\n";
  g_autoptr(GBytes) b1 = g_bytes_new_static (v1, strlen (v1));
  g_autoptr(GBytes) b2 = g_bytes_new_static (ui, strlen (ui));
  g_autoptr(GBytes) b3 = g_bytes_new_static (bad_newline, strlen (bad_newline));
  g_autoptr(GBytes) b4 = g_bytes_new_static (no_items, strlen (no_items));
  g_autoptr(GPtrArray) c1 = fc_envelope_dup_categories (b1, NULL);
  g_autoptr(GPtrArray) c2 = fc_envelope_dup_categories (b2, NULL);
  g_autoptr(GError) e3 = NULL;
  g_autoptr(GError) e4 = NULL;
  g_autoptr(GPtrArray) c3 = fc_envelope_dup_categories (b3, &e3);
  g_autoptr(GPtrArray) c4 = fc_envelope_dup_categories (b4, &e4);

  g_assert_cmpuint (c1->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (c1, 0), ==, "transaction");
  g_assert_cmpstr (g_ptr_array_index (c1, 1), ==, "profile");
  g_assert_cmpuint (c2->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (c2, 0), ==, "profile_chunk_ui");
  g_assert_null (c3);
  g_assert_error (e3, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE);
  g_assert_null (c4);
  g_assert_error (e4, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE);
}

#ifdef __SANITIZE_ADDRESS__
/* LeakSanitizer stops every thread with ptrace at exit; with the fake
 * Relay's server thread, GIO's resolver and GTask workers and a CLI child
 * around, its tracer thread itself crashed in about 1 run of 10 ("Tracer
 * caught signal 11"), failing a run that had passed every test. ASan still
 * checks every access here; leaks are checked by the other suites. */
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "detect_leaks=0";
}
#endif

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* The environment of a developer or CI must not route 127.0.0.1 elsewhere. */
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_unsetenv ("no_proxy");
  g_unsetenv ("NO_PROXY");
  /* With isolated dirs there are no GSettings schemas for the desktop's
   * proxy resolver, which aborts without them. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);

  g_test_add_func ("/core/transport/envelope-categories", test_envelope_categories);
  g_test_add_func ("/core/transport/deliver", test_transport_deliver);
  g_test_add_func ("/core/transport/gzip", test_transport_gzip);
  g_test_add_func ("/core/transport/rejected", test_transport_rejected);
  g_test_add_func ("/core/transport/outcomes", test_transport_outcomes);
  g_test_add_func ("/core/transport/retry", test_transport_retry);
  g_test_add_func ("/core/transport/retry-exhausted", test_transport_retry_exhausted);
  g_test_add_func ("/core/transport/slow", test_transport_slow);
  g_test_add_func ("/core/transport/timeout", test_transport_timeout);
  g_test_add_func ("/core/transport/rate-limited", test_transport_rate_limited);
  g_test_add_func ("/core/transport/limits-on-200", test_transport_limits_on_200);
  g_test_add_func ("/core/transport/retry-after", test_transport_retry_after);
  g_test_add_func ("/core/transport/sync", test_transport_sync);
  g_test_add_func ("/core/transport/malformed-entry", test_transport_malformed_entry);
  g_test_add_func ("/core/transport/enqueue-during-flush", test_transport_enqueue_during_flush);
  g_test_add_func ("/core/transport/network-down", test_transport_network_down);
  g_test_add_func ("/core/transport/cancel", test_transport_cancel);
  g_test_add_func ("/core/transport/send-async", test_transport_send_async);
  g_test_add_func ("/core/transport/proxy-from-environment", test_transport_proxy_from_environment);
  g_test_add_func ("/core/transport/tls-verified", test_transport_tls_verified);
  g_test_add_func ("/core/transport/503-retry-after", test_transport_503_retry_after);
  g_test_add_func ("/core/transport/503-retry-after-long", test_transport_503_retry_after_long);
  g_test_add_func ("/core/transport/concurrent-flushes", test_transport_concurrent_flushes);
  g_test_add_func ("/core/transport/concurrent-cli", test_transport_concurrent_cli);

  return g_test_run ();
}
