/* fc-test-relay.c - a fake Relay for transport tests: SoupServer on 127.0.0.1 in its own thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <json-glib/json-glib.h>

#include "fc-test-relay.h"

/* -- the fake Relay's envelope parser: strict, as Relay is -- */

static JsonNode *
parse_json (const char *data,
            gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  if (!json_parser_load_from_data (parser, data, len, NULL) || json_parser_get_root (parser) == NULL)
    return NULL;
  return json_node_copy (json_parser_get_root (parser));
}

static char *
check_envelope (GBytes *bytes)
{
  const char *data;
  const char *nl;
  gsize len, pos;
  guint n_items = 0;
  g_autoptr(JsonNode) header = NULL;

  data = g_bytes_get_data (bytes, &len);
  nl = memchr (data, '\n', len);
  if (nl == NULL)
    return g_strdup ("no envelope header line");
  header = parse_json (data, nl - data);
  if (header == NULL || !JSON_NODE_HOLDS_OBJECT (header))
    return g_strdup ("envelope header is not a JSON object");

  pos = nl - data + 1;
  while (pos < len)
    {
      g_autoptr(JsonNode) item = NULL;
      g_autoptr(JsonNode) payload = NULL;
      JsonObject *obj;
      gsize start;
      gsize plen;

      nl = memchr (data + pos, '\n', len - pos);
      if (nl == NULL)
        return g_strdup_printf ("item %u: header without payload", n_items);
      item = parse_json (data + pos, nl - (data + pos));
      if (item == NULL || !JSON_NODE_HOLDS_OBJECT (item))
        return g_strdup_printf ("item %u: header is not a JSON object", n_items);
      obj = json_node_get_object (item);
      if (!json_object_has_member (obj, "type"))
        return g_strdup_printf ("item %u: no type", n_items);

      start = nl - data + 1;
      if (json_object_has_member (obj, "length"))
        {
          plen = json_object_get_int_member (obj, "length");
          if (start + plen > len)
            return g_strdup_printf ("item %u: length runs past the end", n_items);
          if (start + plen < len && data[start + plen] != '\n')
            return g_strdup_printf ("item %u: no newline after the payload", n_items);
        }
      else
        {
          const char *end = memchr (data + start, '\n', len - start);
          plen = end ? (gsize)(end - (data + start)) : len - start;
        }

      payload = parse_json (data + start, plen);
      if (payload == NULL)
        return g_strdup_printf ("item %u: payload is not JSON", n_items);

      if (g_strcmp0 (json_object_get_string_member_with_default (obj, "type", ""), "profile_chunk") == 0 &&
          !json_object_has_member (obj, "platform"))
        return g_strdup_printf ("item %u: profile_chunk without platform", n_items);

      pos = start + plen + 1;
      n_items++;
    }

  if (n_items == 0)
    return g_strdup ("envelope without items");
  return NULL;
}

static GBytes *
gunzip (GBytes *bytes)
{
  g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) memory = g_memory_input_stream_new_from_bytes (bytes);
  g_autoptr(GInputStream) stream = g_converter_input_stream_new (memory, G_CONVERTER (decompressor));
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  if (g_output_stream_splice (out, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL) < 0)
    return NULL;
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

typedef struct {
  SoupServerMessage *msg;
  Relay             *relay;
  GBytes            *body;
} Delayed;

static gboolean
delayed_answer_cb (gpointer data)
{
  Delayed *d = data;

  soup_server_message_set_status (d->msg, 200, NULL);
  soup_server_message_set_response (d->msg, "application/json", SOUP_MEMORY_STATIC, "{}", 2);
  g_mutex_lock (&d->relay->mutex);
  g_ptr_array_add (d->relay->delivered, g_bytes_ref (d->body));
  g_mutex_unlock (&d->relay->mutex);
  soup_server_message_unpause (d->msg);

  return G_SOURCE_REMOVE;
}

/* Also runs when the relay shuts down before the answer was due. */
static void
delayed_free (gpointer data)
{
  Delayed *d = data;

  g_object_unref (d->msg);
  g_bytes_unref (d->body);
  g_free (d);
}

static void
relay_problem (Relay      *relay,
               const char *format,
               ...) G_GNUC_PRINTF (2, 3);

static void
relay_problem (Relay      *relay,
               const char *format,
               ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (relay->problems, g_strdup_vprintf (format, args));
  va_end (args);
}

static void
relay_handler (SoupServer        *server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  Relay *relay = user_data;
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);
  SoupMessageBody *request_body = soup_server_message_get_request_body (msg);
  g_autoptr(GBytes) raw = soup_message_body_flatten (request_body);
  g_autoptr(GBytes) body = NULL;
  g_autofree char *problem = NULL;
  const char *encoding;
  Reply reply;

  g_mutex_lock (&relay->mutex);

  if (strcmp (soup_server_message_get_method (msg), "POST") != 0)
    relay_problem (relay, "method %s", soup_server_message_get_method (msg));
  if (strcmp (path, "/api/" PROJECT "/envelope/") != 0)
    relay_problem (relay, "path %s", path);
  /* a DSN with the (legacy) secret key sends it too */
  if (g_strcmp0 (soup_message_headers_get_one (req, "X-Sentry-Auth"),
                 "Sentry sentry_key=" KEY ", sentry_version=7, sentry_client=flamecast/" FC_VERSION) != 0 &&
      g_strcmp0 (soup_message_headers_get_one (req, "X-Sentry-Auth"),
                 "Sentry sentry_key=" KEY ", sentry_version=7, sentry_client=flamecast/" FC_VERSION
                 ", sentry_secret=" SECRET) != 0)
    relay_problem (relay, "auth %s", soup_message_headers_get_one (req, "X-Sentry-Auth"));
  if (g_strcmp0 (soup_message_headers_get_content_type (req, NULL), "application/x-sentry-envelope") != 0)
    relay_problem (relay, "content type %s", soup_message_headers_get_content_type (req, NULL));
  if (g_strcmp0 (soup_message_headers_get_one (req, "User-Agent"), "flamecast/" FC_VERSION) != 0)
    relay_problem (relay, "user agent %s", soup_message_headers_get_one (req, "User-Agent"));

  encoding = soup_message_headers_get_one (req, "Content-Encoding");
  if (g_strcmp0 (encoding, "gzip") == 0)
    {
      relay->n_gzipped++;
      body = gunzip (raw);
      if (body == NULL)
        {
          relay_problem (relay, "bad gzip body");
          body = g_bytes_ref (raw);
        }
    }
  else
    {
      if (encoding != NULL)
        relay_problem (relay, "content encoding %s", encoding);
      body = g_bytes_ref (raw);
    }

  if ((problem = check_envelope (body)))
    relay_problem (relay, "envelope: %s", problem);

  g_ptr_array_add (relay->requests, g_bytes_ref (body));
  reply = g_queue_is_empty (&relay->script) ? REPLY_OK : GPOINTER_TO_INT (g_queue_pop_head (&relay->script));

  switch (reply)
    {
    case REPLY_OK:
    case REPLY_OK_WITH_LIMITS:
      if (reply == REPLY_OK_WITH_LIMITS)
        soup_message_headers_replace (resp, "X-Sentry-Rate-Limits", "30:profile_chunk:key");
      soup_server_message_set_status (msg, 200, NULL);
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, "{}", 2);
      g_ptr_array_add (relay->delivered, g_bytes_ref (body));
      break;

    case REPLY_400:
      {
        static const char detail[] = "{\"detail\":\"invalid envelope\",\"causes\":[\"EOF while parsing a value\"]}";
        soup_server_message_set_status (msg, 400, NULL);
        soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, detail, strlen (detail));
      }
      break;

    case REPLY_403:
      soup_message_headers_replace (resp, "X-Sentry-Error", "event submission rejected with_reason: ProjectId");
      soup_server_message_set_status (msg, 403, NULL);
      break;

    case REPLY_413:
      {
        static const char detail[] = "{\"detail\":\"envelope exceeded size limits\"}";
        soup_server_message_set_status (msg, 413, NULL);
        soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, detail, strlen (detail));
      }
      break;

    case REPLY_429_LIMITS:
      soup_message_headers_replace (resp, "X-Sentry-Rate-Limits", "60:profile_chunk;profile:key:quota");
      soup_message_headers_replace (resp, "Retry-After", "5");
      soup_server_message_set_status (msg, 429, NULL);
      break;

    case REPLY_429_RETRY_AFTER:
      soup_message_headers_replace (resp, "Retry-After", "30");
      soup_server_message_set_status (msg, 429, NULL);
      break;

    case REPLY_500:
      soup_server_message_set_status (msg, 500, NULL);
      break;

    case REPLY_503:
      soup_server_message_set_status (msg, 503, NULL);
      break;

    case REPLY_503_RETRY_AFTER:
      soup_message_headers_replace (resp, "Retry-After", relay->retry_after ? relay->retry_after : "7");
      soup_server_message_set_status (msg, 503, NULL);
      break;

    case REPLY_DROP:
      {
        GIOStream *stream = soup_server_message_steal_connection (msg);
        g_io_stream_close (stream, NULL, NULL);
        g_object_unref (stream);
      }
      break;

    case REPLY_HOLD:
    case REPLY_NEVER:
      {
        Delayed *d = g_new0 (Delayed, 1);
        /* a day: in effect never, unless relay_release() makes it ready (REPLY_HOLD) */
        GSource *source = g_timeout_source_new_seconds (24 * 3600);

        d->msg = g_object_ref (msg);
        d->relay = relay;
        d->body = g_bytes_ref (body);
        soup_server_message_pause (msg);
        g_source_set_callback (source, delayed_answer_cb, d, delayed_free);
        g_source_attach (source, relay->context);
        if (reply == REPLY_HOLD)
          g_ptr_array_add (relay->held, g_source_ref (source));
        g_source_unref (source);
      }
      break;

    default:
      g_assert_not_reached ();
    }

  g_mutex_unlock (&relay->mutex);
}

static gpointer
relay_thread (gpointer data)
{
  Relay *relay = data;
  g_autoptr(GError) error = NULL;
  GSList *uris;

  g_main_context_push_thread_default (relay->context);

  if (relay->tls)
    {
      g_autofree char *pem = g_test_build_filename (G_TEST_DIST, "data", "fake-relay-tls.pem", NULL);
      g_autoptr(GTlsCertificate) certificate = g_tls_certificate_new_from_file (pem, &error);

      g_assert_no_error (error);
      relay->server = soup_server_new ("tls-certificate", certificate, NULL);
    }
  else
    relay->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (relay->server, NULL, relay_handler, relay, NULL);
  soup_server_listen_local (relay->server, 0,
                            SOUP_SERVER_LISTEN_IPV4_ONLY | (relay->tls ? SOUP_SERVER_LISTEN_HTTPS : 0),
                            &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (relay->server);
  g_assert_nonnull (uris);

  g_mutex_lock (&relay->mutex);
  relay->port = g_uri_get_port (uris->data);
  relay->ready = TRUE;
  g_cond_signal (&relay->cond);
  g_mutex_unlock (&relay->mutex);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  g_main_loop_run (relay->loop);

  soup_server_disconnect (relay->server);
  g_clear_object (&relay->server);
  /* Let delayed answers and closed connections clean up. */
  while (g_main_context_iteration (relay->context, FALSE))
    ;
  g_main_context_pop_thread_default (relay->context);
  return NULL;
}

static Relay *
relay_new_full (gboolean tls)
{
  Relay *relay = g_new0 (Relay, 1);

  relay->tls = tls;

  g_mutex_init (&relay->mutex);
  g_cond_init (&relay->cond);
  g_queue_init (&relay->script);
  relay->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  relay->delivered = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  relay->problems = g_ptr_array_new_with_free_func (g_free);
  relay->held = g_ptr_array_new_with_free_func ((GDestroyNotify) g_source_unref);
  relay->context = g_main_context_new ();
  relay->loop = g_main_loop_new (relay->context, FALSE);
  relay->thread = g_thread_new ("fake-relay", relay_thread, relay);

  g_mutex_lock (&relay->mutex);
  while (!relay->ready)
    g_cond_wait (&relay->cond, &relay->mutex);
  g_mutex_unlock (&relay->mutex);

  return relay;
}

Relay *
relay_new (void)
{
  return relay_new_full (FALSE);
}

Relay *
relay_new_tls (void)
{
  return relay_new_full (TRUE);
}

static gboolean
quit_cb (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

void
relay_free (Relay *relay)
{
  g_main_context_invoke (relay->context, quit_cb, relay->loop);
  g_thread_join (relay->thread);

  /* Every envelope the transport sent was well-formed and authenticated. */
  for (guint i = 0; i < relay->problems->len; i++)
    g_test_message ("relay: %s", (char *) g_ptr_array_index (relay->problems, i));
  g_assert_cmpuint (relay->problems->len, ==, 0);

  g_queue_clear (&relay->script);
  g_free (relay->retry_after);
  g_ptr_array_unref (relay->requests);
  g_ptr_array_unref (relay->delivered);
  g_ptr_array_unref (relay->problems);
  g_ptr_array_unref (relay->held);
  g_main_loop_unref (relay->loop);
  g_main_context_unref (relay->context);
  g_mutex_clear (&relay->mutex);
  g_cond_clear (&relay->cond);
  g_free (relay);
}

void
relay_script (Relay *relay,
              ...)
{
  va_list args;
  int reply;

  g_mutex_lock (&relay->mutex);
  va_start (args, relay);
  while ((reply = va_arg (args, int)) >= 0)
    g_queue_push_tail (&relay->script, GINT_TO_POINTER (reply));
  va_end (args);
  g_mutex_unlock (&relay->mutex);
}

/* in the relay's thread: the held answers go now */
static gboolean
release_cb (gpointer data)
{
  Relay *relay = data;

  g_mutex_lock (&relay->mutex);
  for (guint i = 0; i < relay->held->len; i++)
    g_source_set_ready_time (g_ptr_array_index (relay->held, i), 0);
  g_ptr_array_set_size (relay->held, 0);
  g_mutex_unlock (&relay->mutex);
  return G_SOURCE_REMOVE;
}

void
relay_release (Relay *relay)
{
  g_main_context_invoke (relay->context, release_cb, relay);
}

guint
relay_n_requests (Relay *relay)
{
  guint n;

  g_mutex_lock (&relay->mutex);
  n = relay->requests->len;
  g_mutex_unlock (&relay->mutex);
  return n;
}

void
relay_set_retry_after (Relay      *relay,
                       const char *value)
{
  g_mutex_lock (&relay->mutex);
  g_free (relay->retry_after);
  relay->retry_after = g_strdup (value);
  g_mutex_unlock (&relay->mutex);
}

FcDsn *
relay_dsn (Relay *relay)
{
  g_autofree char *text = g_strdup_printf ("http://" KEY "@127.0.0.1:%u/" PROJECT, relay->port);
  return fc_dsn_parse (text, NULL);
}

