/* test-transport-hostile.c - hostile servers, envelopes that belong to another project, an outbox others may write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Servers on 127.0.0.1: the fake Relay (tests/fc-test-relay.c) and a raw
 * one that drips, floods or keeps silent (tests/fc-test-hostile-server.c),
 * each misbehaviour bounded so that a transport without its defence fails
 * the test rather than hanging it. Nothing here measures time: a deadline
 * shows as the message it leaves, a cap as the bytes the server could send.
 */

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fc-otlp-endpoint.h"
#include "fc-test-hostile-server.h"
#include "fc-test-relay.h"
#include "fc-transport.h"

static GBytes *
make_envelope (guint n)
{
  g_autofree char *payload = g_strdup_printf ("{\"n\":%u}", n);
  char *text = g_strdup_printf ("{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04d%x\"}\n"
                                "{\"type\":\"profile_chunk\",\"platform\":\"native\",\"length\":%zu}\n%s\n",
                                n % 16, strlen (payload), payload);

  return g_bytes_new_take (text, strlen (text));
}

static char *
enqueue (FcTransport *transport,
         guint        n)
{
  g_autoptr(GBytes) env = make_envelope (n);
  g_autoptr(GError) error = NULL;
  char *id = fc_transport_enqueue (transport, env, &error);

  g_assert_no_error (error);
  return id;
}

static FcFlushReport *
flush (FcTransport *transport)
{
  g_autoptr(GError) error = NULL;
  FcFlushReport *report = fc_transport_flush (transport, NULL, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < report->messages->len; i++)
    g_test_message ("  %s", (const char *) g_ptr_array_index (report->messages, i));
  return report;
}

static gboolean
report_says (const FcFlushReport *report,
             const char          *text)
{
  for (guint i = 0; i < report->messages->len; i++)
    if (strstr (g_ptr_array_index (report->messages, i), text) != NULL)
      return TRUE;
  return FALSE;
}

static FcDsn *
dsn_for (guint       port,
         const char *project)
{
  g_autofree char *text = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/%s", port, project);
  g_autoptr(GError) error = NULL;
  FcDsn *dsn = fc_dsn_parse (text, &error);

  g_assert_no_error (error);
  return dsn;
}

static char *
otlp_url_for (guint port)
{
  return g_strdup_printf ("http://127.0.0.1:%u" FC_OTLP_PROFILES_PATH, port);
}

/* -- servers -- */

/* A server that sends its answer a byte every 100 ms (a minute in all) is
 * never silent, so libsoup's I/O timeout never fires: the request's own
 * deadline ends it, and the envelope waits. */
static void
test_drip (void)
{
  HostileServer *server = hostile_server_new (HOSTILE_DRIP);
  g_autoptr(FcDsn) dsn = dsn_for (hostile_server_get_port (server), PROJECT);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id = enqueue (transport, 1);

  fc_transport_set_retry_policy (transport, 1, 0);
  fc_transport_set_timeout (transport, 1);
  report = flush (transport);
  g_assert_cmpuint (report->delivered, ==, 0);
  g_assert_cmpuint (report->waiting, ==, 1);
  g_assert_true (report_says (report, "no complete answer from"));
  g_assert_true (report_says (report, "within 1 s"));
  g_assert_cmpuint (fc_outbox_list (fc_transport_get_outbox (transport))->len, ==, 1);
  hostile_server_free (server);
}

/* A 200 claiming 3 GB of body: read up to FC_TRANSPORT_MAX_ANSWER, then the
 * connection is dropped. The server can push 512 MiB; it gets far less out. */
static void
test_huge_answer (void)
{
  HostileServer *server = hostile_server_new (HOSTILE_HUGE);
  g_autofree char *url = otlp_url_for (hostile_server_get_port (server));
  g_autoptr(FcTransport) transport = fc_transport_new_otlp (url, NULL, NULL);
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id = enqueue (transport, 1);

  fc_transport_set_retry_policy (transport, 1, 0);
  report = flush (transport);
  /* delivered (a 2xx), the rest of the answer left unread */
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_true (report_says (report, "the answer was longer than it should be"));
  g_clear_object (&transport);
  hostile_server_wait_answered (server, 1);
  g_test_message ("the server got %" G_GUINT64_FORMAT " bytes out of %" G_GUINT64_FORMAT,
                  hostile_server_bytes_sent (server), HOSTILE_HUGE_MAX);
  g_assert_cmpuint (hostile_server_bytes_sent (server), <, HOSTILE_HUGE_MAX / 2);
  hostile_server_free (server);
}

/* A 400 whose body is 60000 nested arrays: json-glib's parser recursed
 * once a level; the reason is now read without recursion (and is the text). */
static void
test_deep_answer (void)
{
  HostileServer *server = hostile_server_new (HOSTILE_DEEP_400);
  g_autoptr(FcDsn) dsn = dsn_for (hostile_server_get_port (server), PROJECT);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id = enqueue (transport, 1);

  report = flush (transport);
  g_assert_cmpuint (report->rejected, ==, 1);
  g_assert_true (report_says (report, "rejected by Sentry (HTTP 400: [[[["));
  hostile_server_free (server);
}

/* -- each envelope to its own destination -- */

/* Queued for project 42 (which answers 500), flushed with project 43's DSN:
 * not a byte goes to 43; the report says one waits for 42. Then 42's DSN
 * delivers it to 42. */
static void
test_destination_per_dsn (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn42 = relay_dsn (relay);
  g_autoptr(FcDsn) dsn43 = dsn_for (relay->port, "43");
  g_autoptr(FcTransport) t42 = fc_transport_new (dsn42, NULL, NULL);
  g_autoptr(FcTransport) t43 = NULL;
  g_autoptr(FcFlushReport) first = NULL;
  g_autoptr(FcFlushReport) other = NULL;
  g_autoptr(FcFlushReport) own = NULL;
  g_autofree char *id = enqueue (t42, 7);
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;

  fc_transport_set_retry_policy (t42, 1, 0);
  relay_script (relay, REPLY_500, -1);
  first = flush (t42);
  g_assert_cmpuint (first->waiting, ==, 1);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);

  t43 = fc_transport_new (dsn43, fc_transport_get_outbox (t42), NULL);
  other = flush (t43);
  g_assert_cmpuint (relay_n_requests (relay), ==, 1);
  g_assert_cmpuint (other->delivered, ==, 0);
  g_assert_cmpuint (other->elsewhere, ==, 1);
  expected = g_strdup_printf ("1 for http://127.0.0.1:%u/42", relay->port);
  g_assert_cmpuint (other->elsewhere_by_destination->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (other->elsewhere_by_destination, 0), ==, expected);
  text = fc_transport_describe_report (t43, other);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "1 envelope waits for another DSN's project"));
  g_assert_true (fc_flush_report_all_delivered (other));

  own = flush (t42);
  g_assert_cmpuint (own->delivered, ==, 1);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  relay_free (relay);
}

/* An entry of an older version has no destination: no flush guesses one,
 * until the user says where it goes; then it is recorded and sent. */
static void
test_unaddressed (void)
{
  Relay *relay = relay_new ();
  g_autoptr(FcDsn) dsn = relay_dsn (relay);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  FcOutbox *outbox = fc_transport_get_outbox (transport);
  g_autoptr(GBytes) env = make_envelope (3);
  g_autofree char *path = NULL;
  g_autofree char *destination = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcFlushReport) kept = NULL;
  g_autoptr(FcFlushReport) sent = NULL;

  /* what an older version wrote: the envelope alone */
  g_assert_cmpint (g_mkdir_with_parents (fc_outbox_get_dir (outbox), 0700), ==, 0);
  path = g_build_filename (fc_outbox_get_dir (outbox), "1700000000000000-000001-00000001.envelope", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (env, NULL), g_bytes_get_size (env), &error));
  g_assert_no_error (error);

  kept = flush (transport);
  g_assert_cmpuint (kept->unaddressed, ==, 1);
  g_assert_cmpuint (kept->delivered, ==, 0);
  g_assert_cmpuint (relay_n_requests (relay), ==, 0);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));

  fc_transport_set_send_unaddressed (transport, TRUE);
  sent = flush (transport);
  g_assert_cmpuint (sent->delivered, ==, 1);
  g_assert_cmpuint (relay->delivered->len, ==, 1);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  relay_free (relay);
}

/* The same for OTLP endpoints: a request queued for one receiver never
 * goes to another. */
static void
test_destination_per_endpoint (void)
{
  HostileServer *b = hostile_server_new (HOSTILE_OK);
  HostileServer *a = hostile_server_new (HOSTILE_500);
  g_autofree char *url_a = otlp_url_for (hostile_server_get_port (a));
  g_autofree char *url_b = otlp_url_for (hostile_server_get_port (b));
  g_autoptr(FcTransport) ta = fc_transport_new_otlp (url_a, NULL, NULL);
  g_autoptr(FcTransport) tb = NULL;
  g_autoptr(FcFlushReport) first = NULL;
  g_autoptr(FcFlushReport) other = NULL;
  g_autofree char *id = enqueue (ta, 1);

  fc_transport_set_retry_policy (ta, 1, 0);
  first = flush (ta);
  g_assert_cmpuint (first->waiting, ==, 1);

  tb = fc_transport_new_otlp (url_b, NULL, fc_transport_get_outbox (ta));
  other = flush (tb);
  g_assert_cmpuint (other->elsewhere, ==, 1);
  g_assert_cmpuint (hostile_server_n_requests (b), ==, 0);
  g_assert_cmpstr (fc_transport_get_destination (ta), ==, url_a);
  hostile_server_free (a);
  hostile_server_free (b);
}

/* The endpoint's credentials are in no destination (on disk) and in no message. */
static void
test_endpoint_credentials (void)
{
  g_autofree char *destination = fc_otlp_endpoint_dup_destination ("https://user:s3cret@otel.example:4318/v1development/profiles?tenant=a");
  g_autofree char *masked = fc_otlp_endpoint_dup_masked ("https://user:s3cret@otel.example:4318/v1development/profiles");

  g_assert_cmpstr (destination, ==, "https://otel.example:4318/v1development/profiles?tenant=a");
  g_assert_null (strstr (masked, "s3cret"));
  g_assert_nonnull (strstr (masked, ":***@otel.example:4318"));
}

/* -- an outbox others may write -- */

static void
test_outbox_folder_others_may_write (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "shared-outbox", NULL);
  g_autoptr(FcOutbox) outbox = fc_outbox_new (dir);
  g_autoptr(FcDsn) dsn = dsn_for (9, PROJECT);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, outbox, NULL);
  g_autoptr(GBytes) env = make_envelope (1);
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  FcFlushReport *report;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0777), ==, 0);

  g_assert_false (fc_outbox_check_folder (outbox, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "may be written by other users (mode 0777)"));
  g_assert_nonnull (strstr (error->message, "chmod 700"));
  g_clear_error (&error);

  id = fc_outbox_add (outbox, env, "http://127.0.0.1:9/42", &error);
  g_assert_null (id);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_clear_error (&error);

  report = fc_transport_flush (transport, NULL, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_clear_error (&error);

  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);
  g_assert_true (fc_outbox_check_folder (outbox, &error));
}

/* Files another user put into our outbox: not sent (they would go with our
 * credentials), left where they are; a folder of another user is refused. */
static void
test_outbox_foreign (void)
{
  HostileServer *server = hostile_server_new (HOSTILE_OK);
  g_autoptr(FcDsn) dsn = dsn_for (hostile_server_get_port (server), PROJECT);
  g_autoptr(FcTransport) transport = fc_transport_new (dsn, NULL, NULL);
  FcOutbox *outbox = fc_transport_get_outbox (transport);
  g_autofree char *id = enqueue (transport, 1);
  g_autofree char *name = g_strconcat (id, ".envelope", NULL);
  g_autofree char *path = g_build_filename (fc_outbox_get_dir (outbox), name, NULL);
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GError) error = NULL;

  if (geteuid () != 0)
    {
      g_test_skip ("giving a file to another user needs root (chown)");
      hostile_server_free (server);
      return;
    }
  g_assert_cmpint (chown (path, 65534, 65534), ==, 0);

  report = flush (transport);
  g_assert_cmpuint (report->foreign, ==, 1);
  g_assert_cmpuint (report->delivered, ==, 0);
  g_assert_true (report_says (report, "belongs to another user (uid 65534): not sent"));
  g_assert_cmpuint (hostile_server_n_requests (server), ==, 0);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));

  g_assert_cmpint (chown (fc_outbox_get_dir (outbox), 65534, 65534), ==, 0);
  g_assert_false (fc_outbox_check_folder (outbox, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "belongs to another user (uid 65534)"));
  hostile_server_free (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* 127.0.0.1 directly, whatever the environment; and no desktop proxy
   * settings (no GSettings schemas with isolated dirs) */
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);

  g_test_add_func ("/core/transport/hostile/drip", test_drip);
  g_test_add_func ("/core/transport/hostile/huge-answer", test_huge_answer);
  g_test_add_func ("/core/transport/hostile/deep-answer", test_deep_answer);
  g_test_add_func ("/core/transport/destination/per-dsn", test_destination_per_dsn);
  g_test_add_func ("/core/transport/destination/unaddressed", test_unaddressed);
  g_test_add_func ("/core/transport/destination/per-endpoint", test_destination_per_endpoint);
  g_test_add_func ("/core/transport/destination/endpoint-credentials", test_endpoint_credentials);
  g_test_add_func ("/core/outbox/folder-others-may-write", test_outbox_folder_others_may_write);
  g_test_add_func ("/core/outbox/foreign", test_outbox_foreign);

  return g_test_run ();
}
