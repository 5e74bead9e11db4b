/* test-otlp.c - profiles to an OpenTelemetry receiver on 127.0.0.1 through the outbox and the transport
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "fc-transport-error.h"
#include "fc-otlp-endpoint.h"
#include "fc-otlp.h"
#include "fc-reader.h"
#include "fc-test-profiles.h"
#include "fc-transport.h"
#include "fc-test-util.h"

/*
 * The receiver runs on the test's main context; flushes are asynchronous and
 * the test iterates the context until they finish, so both sides progress.
 */

typedef enum {
  ANSWER_OK,
  ANSWER_PARTIAL,       /* 200 + partial_success { rejected_profiles: 2, error_message } */
  ANSWER_400_STATUS,    /* 400 + google.rpc.Status { code: 3, message } in protobuf */
  ANSWER_503,
} Answer;

typedef struct {
  SoupServer *server;
  guint       port;
  GQueue      script;          /* Answer */
  GPtrArray  *bodies;          /* GBytes*: every request body, decompressed */
  GPtrArray  *paths;
  GPtrArray  *content_types;
  GPtrArray  *authorizations;
  guint       delivered;       /* answered 2xx */
} Receiver;

/* Test fixtures: the answers a receiver sends, as bytes on the wire. */
static const guint8 partial_answer[] = {
  0x0a, 0x1a,                                   /* partial_success, 26 bytes */
  0x08, 0x02,                                   /* rejected_profiles: 2 */
  0x12, 0x16, 'p', 'r', 'o', 'f', 'i', 'l', 'e', 's', ' ', 'w', 'i', 't', 'h', 'o', 'u', 't', ' ',
  's', 't', 'a', 'c', 'k'                       /* error_message, 22 bytes */
};
static const guint8 status_answer[] = {
  0x08, 0x03,                                   /* code: 3 (INVALID_ARGUMENT) */
  0x12, 0x16, 's', 'a', 'm', 'p', 'l', 'e', '_', 't', 'y', 'p', 'e', ' ', 'i', 's', ' ', 'm', 'i',
  's', 's', 'i', 'n', 'g'                       /* message, 22 bytes */
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
handler (SoupServer        *server,
         SoupServerMessage *msg,
         const char        *path,
         GHashTable        *query,
         gpointer           user_data)
{
  Receiver *r = user_data;
  SoupMessageHeaders *in = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *out = soup_server_message_get_response_headers (msg);
  g_autoptr(GBytes) raw = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  const char *encoding = soup_message_headers_get_one (in, "Content-Encoding");
  Answer answer = g_queue_is_empty (&r->script) ? ANSWER_OK : GPOINTER_TO_INT (g_queue_pop_head (&r->script));

  g_ptr_array_add (r->paths, g_strdup (path));
  g_ptr_array_add (r->content_types, g_strdup (soup_message_headers_get_content_type (in, NULL)));
  g_ptr_array_add (r->authorizations, g_strdup (soup_message_headers_get_one (in, "Authorization")));
  g_ptr_array_add (r->bodies, g_strcmp0 (encoding, "gzip") == 0 ? gunzip (raw) : g_bytes_ref (raw));

  switch (answer)
    {
    case ANSWER_OK:
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "application/x-protobuf", SOUP_MEMORY_STATIC, "", 0);
      r->delivered++;
      break;
    case ANSWER_PARTIAL:
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "application/x-protobuf", SOUP_MEMORY_STATIC,
                                        (const char *) partial_answer, sizeof partial_answer);
      r->delivered++;
      break;
    case ANSWER_400_STATUS:
      soup_server_message_set_status (msg, 400, NULL);
      soup_server_message_set_response (msg, "application/x-protobuf", SOUP_MEMORY_STATIC,
                                        (const char *) status_answer, sizeof status_answer);
      break;
    case ANSWER_503:
      soup_server_message_set_status (msg, 503, NULL);
      soup_message_headers_replace (out, "Retry-After", "1");
      break;
    }
}

static Receiver *
receiver_new (void)
{
  Receiver *r = g_new0 (Receiver, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;

  r->bodies = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  r->paths = g_ptr_array_new_with_free_func (g_free);
  r->content_types = g_ptr_array_new_with_free_func (g_free);
  r->authorizations = g_ptr_array_new_with_free_func (g_free);
  g_queue_init (&r->script);
  r->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (r->server, NULL, handler, r, NULL);
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
  g_queue_clear (&r->script);
  g_ptr_array_unref (r->bodies);
  g_ptr_array_unref (r->paths);
  g_ptr_array_unref (r->content_types);
  g_ptr_array_unref (r->authorizations);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Receiver, receiver_free)

static void
flush_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static FcFlushReport *
flush (FcTransport *transport)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  FcFlushReport *report;

  fc_transport_flush_async (transport, NULL, flush_done_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  report = fc_transport_flush_finish (transport, result, &error);
  g_assert_no_error (error);
  return report;
}

static guint
no_wait (FcTransport *self,
         const char  *id,
         guint        delay_ms,
         gpointer     user_data)
{
  g_array_append_val ((GArray *) user_data, delay_ms);
  return 0;
}

/* a transport from the environment, as the CLI makes it, with a private outbox */
static FcTransport *
transport_new (Receiver *r,
               char    **outbox_dir)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) headers = NULL;
  g_autofree char *base = g_strdup_printf ("http://127.0.0.1:%u/", r->port);
  g_autofree char *url = NULL;
  g_autoptr(FcOutbox) outbox = NULL;
  FcTransport *transport;

  g_setenv ("OTEL_EXPORTER_OTLP_ENDPOINT", base, TRUE);
  g_setenv ("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Bearer%20t0ken,x-scope=a", TRUE);
  url = fc_otlp_endpoint_resolve (NULL, &headers, &error);
  g_assert_no_error (error);
  *outbox_dir = g_dir_make_tmp ("fc-otlp-outbox-XXXXXX", NULL);
  outbox = fc_outbox_new (*outbox_dir);
  transport = fc_transport_new_otlp (url, (const char * const *) headers, outbox);
  fc_transport_set_retry_policy (transport, 3, 10);
  return transport;
}

static GBytes *
request_body (void)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) p = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  GBytes *body;

  fc_document_add_profile (doc, p);
  body = fc_otlp_write (doc, &error);
  g_assert_no_error (error);
  return body;
}

static void
assert_outbox_empty (FcTransport *transport)
{
  g_autoptr(GPtrArray) waiting = fc_outbox_list (fc_transport_get_outbox (transport));

  g_assert_cmpuint (waiting->len, ==, 0);
}

static void
test_delivered (void)
{
  g_autoptr(Receiver) r = receiver_new ();
  g_autofree char *dir = NULL;
  g_autoptr(FcTransport) transport = transport_new (r, &dir);
  g_autoptr(GBytes) body = request_body ();
  g_autofree char *id = NULL;
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(FcDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProfile) sent = fc_test_profile_new ();

  g_autofree char *want_url = g_strdup_printf ("http://127.0.0.1:%u/v1development/profiles", r->port);

  g_assert_cmpstr (fc_transport_get_otlp_url (transport), ==, want_url);
  id = fc_transport_enqueue (transport, body, &error);
  g_assert_no_error (error);
  report = flush (transport);

  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_true (fc_flush_report_all_delivered (report));
  g_assert_cmpuint (r->bodies->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (r->paths, 0), ==, "/v1development/profiles");
  g_assert_cmpstr (g_ptr_array_index (r->content_types, 0), ==, "application/x-protobuf");
  g_assert_cmpstr (g_ptr_array_index (r->authorizations, 0), ==, "Bearer t0ken");
  g_assert_true (g_bytes_equal (g_ptr_array_index (r->bodies, 0), body));

  /* the body decodes: the same samples */
  doc = fc_reader_load_bytes (g_ptr_array_index (r->bodies, 0), FC_READ_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), ==,
                    fc_profile_get_n_samples (sent));

  /* and protoc reads it as the service's request message */
  {
    g_autofree char *path = g_build_filename (dir, "body.bin", NULL);
    g_autofree char *cmd = NULL;
    g_autofree char *out = NULL;
    int status = 0;
    const char *argv[] = { "/bin/sh", "-c", NULL, NULL };

    g_assert_true (g_file_set_contents (path, g_bytes_get_data (body, NULL), g_bytes_get_size (body), NULL));
    cmd = g_strdup_printf ("protoc --proto_path='%s' "
                           "--decode=opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest "
                           "otel-profiles-service.proto < '%s'", g_getenv ("FC_PROTO_DIR"), path);
    argv[2] = cmd;
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_nonnull (strstr (out, "string_table: \"foo\""));
    g_unlink (path);
  }
  assert_outbox_empty (transport);
  fc_test_remove_tree (dir);
}

static void
test_503_then_200 (void)
{
  g_autoptr(Receiver) r = receiver_new ();
  g_autofree char *dir = NULL;
  g_autoptr(FcTransport) transport = transport_new (r, &dir);
  g_autoptr(GBytes) body = request_body ();
  g_autoptr(GArray) waits = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id = NULL;

  fc_transport_set_retry_wait_func (transport, no_wait, waits);
  g_queue_push_tail (&r->script, GINT_TO_POINTER (ANSWER_503));
  id = fc_transport_enqueue (transport, body, NULL);
  report = flush (transport);

  /* delivered once, on the second request, after waiting at least the Retry-After */
  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 2);
  g_assert_cmpuint (r->bodies->len, ==, 2);
  g_assert_cmpuint (r->delivered, ==, 1);
  g_assert_cmpuint (waits->len, ==, 1);
  g_assert_cmpuint (g_array_index (waits, guint, 0), >=, 1000);
  g_assert_true (g_bytes_equal (g_ptr_array_index (r->bodies, 1), body));
  assert_outbox_empty (transport);

  /* a second flush sends nothing again */
  g_clear_pointer (&report, fc_flush_report_unref);
  report = flush (transport);
  g_assert_cmpuint (report->delivered, ==, 0);
  g_assert_cmpuint (r->bodies->len, ==, 2);
  fc_test_remove_tree (dir);
}

static void
test_400_kept_aside (void)
{
  g_autoptr(Receiver) r = receiver_new ();
  g_autofree char *dir = NULL;
  g_autoptr(FcTransport) transport = transport_new (r, &dir);
  g_autoptr(GBytes) body = request_body ();
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GPtrArray) rejected = NULL;
  g_autofree char *id = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *text = NULL;

  g_queue_push_tail (&r->script, GINT_TO_POINTER (ANSWER_400_STATUS));
  id = fc_transport_enqueue (transport, body, NULL);
  report = flush (transport);

  g_assert_cmpuint (report->rejected, ==, 1);
  g_assert_cmpuint (report->attempts, ==, 1);   /* never retried */
  g_assert_false (fc_flush_report_all_delivered (report));
  rejected = fc_outbox_list_rejected (fc_transport_get_outbox (transport));
  g_assert_cmpuint (rejected->len, ==, 1);
  reason = fc_outbox_dup_rejected_reason (fc_transport_get_outbox (transport), g_ptr_array_index (rejected, 0));
  g_assert_cmpstr (reason, ==, "rejected by the OTLP receiver (HTTP 400: sample_type is missing)");
  text = fc_transport_describe_report (transport, report);
  g_assert_nonnull (strstr (text, "1 request was not accepted and is kept in"));
  g_assert_nonnull (strstr (text, "sample_type is missing"));
  fc_test_remove_tree (dir);
}

static void
test_partial_success (void)
{
  g_autoptr(Receiver) r = receiver_new ();
  g_autofree char *dir = NULL;
  g_autoptr(FcTransport) transport = transport_new (r, &dir);
  g_autoptr(GBytes) body = request_body ();
  g_autoptr(FcFlushReport) report = NULL;
  g_autofree char *id = NULL;
  g_autofree char *text = NULL;

  g_queue_push_tail (&r->script, GINT_TO_POINTER (ANSWER_PARTIAL));
  id = fc_transport_enqueue (transport, body, NULL);
  report = flush (transport);

  g_assert_cmpuint (report->delivered, ==, 1);
  g_assert_cmpuint (report->partial, ==, 1);
  g_assert_false (fc_flush_report_all_delivered (report));
  text = fc_transport_describe_report (transport, report);
  g_assert_nonnull (strstr (text, "1 request was accepted only in part (partial_success):"));
  g_assert_nonnull (strstr (text, "partial success: 2 profiles rejected: profiles without stack"));
  assert_outbox_empty (transport);
  fc_test_remove_tree (dir);
}

static void
test_endpoint_rules (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) headers = NULL;
  g_autofree char *url = NULL;

  g_unsetenv ("OTEL_EXPORTER_OTLP_ENDPOINT");
  g_unsetenv ("OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT");
  g_unsetenv ("OTEL_EXPORTER_OTLP_HEADERS");
  g_unsetenv ("OTEL_EXPORTER_OTLP_PROFILES_HEADERS");
  g_assert_null (fc_otlp_endpoint_resolve (NULL, &headers, &error));
  g_assert_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID_DSN);
  g_clear_error (&error);

  /* the generic endpoint gets the signal path; the signal's own is used as is and wins */
  g_setenv ("OTEL_EXPORTER_OTLP_ENDPOINT", "https://collector:4318", TRUE);
  url = fc_otlp_endpoint_resolve (NULL, &headers, &error);
  g_assert_cmpstr (url, ==, "https://collector:4318/v1development/profiles");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&headers, g_strfreev);
  g_setenv ("OTEL_EXPORTER_OTLP_PROFILES_ENDPOINT", "https://pyroscope:4040/ingest/otlp", TRUE);
  url = fc_otlp_endpoint_resolve (NULL, &headers, &error);
  g_assert_cmpstr (url, ==, "https://pyroscope:4040/ingest/otlp");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&headers, g_strfreev);
  url = fc_otlp_endpoint_resolve ("http://localhost:4318/", &headers, &error);
  g_assert_cmpstr (url, ==, "http://localhost:4318/v1development/profiles");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&headers, g_strfreev);

  /* headers: the signal's own replace the generic ones of the same name */
  g_setenv ("OTEL_EXPORTER_OTLP_HEADERS", "api-key=one, x-org = acme", TRUE);
  g_setenv ("OTEL_EXPORTER_OTLP_PROFILES_HEADERS", "API-Key=two%2C3", TRUE);
  url = fc_otlp_endpoint_resolve (NULL, &headers, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (headers), ==, 4);
  g_assert_cmpstr (headers[0], ==, "x-org");
  g_assert_cmpstr (headers[1], ==, "acme");
  g_assert_cmpstr (headers[2], ==, "API-Key");
  g_assert_cmpstr (headers[3], ==, "two,3");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&headers, g_strfreev);

  g_setenv ("OTEL_EXPORTER_OTLP_HEADERS", "novalue", TRUE);
  g_assert_null (fc_otlp_endpoint_resolve (NULL, &headers, &error));
  g_assert_nonnull (strstr (error->message, "OTEL_EXPORTER_OTLP_HEADERS: “novalue” is not a name=value pair"));
  g_clear_error (&error);
  g_unsetenv ("OTEL_EXPORTER_OTLP_HEADERS");
  g_assert_null (fc_otlp_endpoint_resolve ("ftp://x", &headers, &error));
  g_assert_nonnull (strstr (error->message, "--endpoint: “ftp://x” is not an http:// or https:// URL"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* nothing may route 127.0.0.1 elsewhere, and isolated dirs have no proxy settings schema */
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");
  g_unsetenv ("all_proxy");
  g_unsetenv ("ALL_PROXY");
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);

  g_test_add_func ("/transport/otlp/delivered", test_delivered);
  g_test_add_func ("/transport/otlp/503-then-200", test_503_then_200);
  g_test_add_func ("/transport/otlp/400-kept-aside", test_400_kept_aside);
  g_test_add_func ("/transport/otlp/partial-success", test_partial_success);
  g_test_add_func ("/transport/otlp/endpoint-rules", test_endpoint_rules);

  return g_test_run ();
}
