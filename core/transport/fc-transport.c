/* fc-transport.c - deliver envelopes to Sentry through the outbox, honouring rate limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "fc-envelope.h"
#include "fc-format-error.h"
#include "fc-json-util.h"
#include "fc-otlp-endpoint.h"
#include "fc-otlp.h"
#include "fc-transport.h"

#define DEFAULT_MAX_ATTEMPTS   3
#define DEFAULT_FIRST_DELAY_MS 1000
#define DEFAULT_TIMEOUT_S      30
#define MAX_DELAY_MS           (60 * 1000)

typedef struct _Flush Flush;

struct _FcTransport
{
  GObject       parent_instance;

  /* owned */
  FcDsn        *dsn;          /* NULL for an OTLP target */
  char         *otlp_url;
  GStrv         otlp_headers; /* name, value, ... */
  char         *destination;  /* what the outbox records: no credentials */
  char         *masked;       /* the target for messages: credentials masked */
  gboolean      send_unaddressed;
  FcOutbox     *outbox;
  FcRateLimits *rate_limits;

  guint         max_attempts;
  guint         first_delay_ms;
  guint         timeout_s;
  FcClockFunc   clock;
  gpointer      clock_data;
  FcRetryWaitFunc retry_wait;
  gpointer      retry_wait_data;

  /* borrowed: the flush in progress, which holds a reference on us */
  Flush        *flush;
};

G_DEFINE_FINAL_TYPE (FcTransport, fc_transport, G_TYPE_OBJECT)

enum {
  ENVELOPE_DONE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* -- flush report -- */

static void
fc_flush_report_clear (gpointer data)
{
  FcFlushReport *report = data;
  g_clear_pointer (&report->messages, g_ptr_array_unref);
  g_clear_pointer (&report->elsewhere_by_destination, g_ptr_array_unref);
  g_clear_pointer (&report->outcomes, g_ptr_array_unref);
}

static void
envelope_outcome_free (FcEnvelopeOutcome *outcome)
{
  g_free (outcome->id);
  g_free (outcome->why);
  g_free (outcome);
}

static FcFlushReport *
fc_flush_report_new (void)
{
  FcFlushReport *report = g_rc_box_new0 (FcFlushReport);
  report->messages = g_ptr_array_new_with_free_func (g_free);
  report->elsewhere_by_destination = g_ptr_array_new_with_free_func (g_free);
  report->outcomes = g_ptr_array_new_with_free_func ((GDestroyNotify) envelope_outcome_free);
  return report;
}

FcFlushReport *
fc_flush_report_ref (FcFlushReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);
  return g_rc_box_acquire (report);
}

void
fc_flush_report_unref (FcFlushReport *report)
{
  g_return_if_fail (report != NULL);
  g_rc_box_release_full (report, fc_flush_report_clear);
}

G_DEFINE_BOXED_TYPE (FcFlushReport, fc_flush_report, fc_flush_report_ref, fc_flush_report_unref)

gboolean
fc_flush_report_all_delivered (const FcFlushReport *report)
{
  g_return_val_if_fail (report != NULL, FALSE);
  return report->rejected == 0 && report->waiting == 0 && report->partial == 0;
}

const FcEnvelopeOutcome *
fc_flush_report_find_outcome (const FcFlushReport *report,
                              const char          *id)
{
  g_return_val_if_fail (report != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  /* the last word counts: an envelope added during the flush may be handled twice */
  for (guint i = report->outcomes->len; i > 0; i--)
    {
      const FcEnvelopeOutcome *outcome = g_ptr_array_index (report->outcomes, i - 1);

      if (g_str_equal (outcome->id, id))
        return outcome;
    }
  return NULL;
}

/* -- what is inside an envelope -- */

GPtrArray *
fc_envelope_dup_categories (GBytes  *envelope,
                            GError **error)
{
  g_autoptr(GPtrArray) categories = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(FcEnvelopeInput) in = NULL;
  g_autoptr(JsonObject) header = NULL;
  guint n_items = 0;

  g_return_val_if_fail (envelope != NULL, NULL);

  in = fc_envelope_input_new_for_bytes (envelope);
  header = fc_envelope_input_read_header (in, error);
  if (header == NULL)
    return NULL;

  for (;;)
    {
      g_auto(FcEnvelopeItemHeader) item = { 0 };
      gboolean at_end = FALSE;
      const char *category;

      if (!fc_envelope_input_next_item (in, &item, &at_end, error))
        return NULL;
      if (at_end)
        break;
      if (!fc_envelope_input_read_payload (in, &item, NULL, NULL, error))
        return NULL;

      n_items++;
      category = fc_rate_limits_category_for_item (item.type, fc_json_get_string (item.header, "platform"));
      if (!g_ptr_array_find_with_equal_func (categories, category, g_str_equal, NULL))
        g_ptr_array_add (categories, g_strdup (category));
    }

  if (n_items == 0)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE, _("the envelope has no items"));
      return NULL;
    }

  return g_steal_pointer (&categories);
}

/* -- the transport object -- */

static gint64
default_clock (gpointer user_data)
{
  return g_get_real_time ();
}

static gint64
transport_now (FcTransport *self)
{
  return self->clock (self->clock_data);
}

static void
fc_transport_finalize (GObject *object)
{
  FcTransport *self = (FcTransport *)object;

  g_assert (self->flush == NULL);

  g_clear_pointer (&self->dsn, fc_dsn_unref);
  g_clear_pointer (&self->otlp_url, g_free);
  g_clear_pointer (&self->destination, g_free);
  g_clear_pointer (&self->masked, g_free);
  g_clear_pointer (&self->otlp_headers, g_strfreev);
  g_clear_object (&self->outbox);
  g_clear_object (&self->rate_limits);

  G_OBJECT_CLASS (fc_transport_parent_class)->finalize (object);
}

static void
fc_transport_class_init (FcTransportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_transport_finalize;

  /**
   * FcTransport::envelope-done:
   * @fate: an #FcEnvelopeFate
   *
   * One envelope of a flush ended (in the flush's context), before the flush does: a flush
   * takes up what is enqueued while it runs, so on a slow network it can last as long as a
   * recording, and its report comes only at its end.
   */
  signals[ENVELOPE_DONE] = g_signal_new ("envelope-done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
fc_transport_init (FcTransport *self)
{
  self->max_attempts = DEFAULT_MAX_ATTEMPTS;
  self->first_delay_ms = DEFAULT_FIRST_DELAY_MS;
  self->timeout_s = DEFAULT_TIMEOUT_S;
  self->clock = default_clock;
}

FcTransport *
fc_transport_new (FcDsn        *dsn,
                  FcOutbox     *outbox,
                  FcRateLimits *rate_limits)
{
  FcTransport *self;

  g_return_val_if_fail (dsn != NULL, NULL);
  g_return_val_if_fail (outbox == NULL || FC_IS_OUTBOX (outbox), NULL);
  g_return_val_if_fail (rate_limits == NULL || FC_IS_RATE_LIMITS (rate_limits), NULL);

  self = g_object_new (FC_TYPE_TRANSPORT, NULL);
  self->dsn = fc_dsn_ref (dsn);
  self->destination = fc_dsn_dup_destination (dsn);
  self->masked = fc_dsn_dup_masked (dsn);
  self->outbox = outbox ? g_object_ref (outbox) : fc_outbox_new (NULL);
  self->rate_limits = rate_limits ? g_object_ref (rate_limits) : fc_rate_limits_new (NULL);

  return self;
}

FcTransport *
fc_transport_new_otlp (const char         *url,
                       const char * const *headers,
                       FcOutbox           *outbox)
{
  FcTransport *self;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (outbox == NULL || FC_IS_OUTBOX (outbox), NULL);

  self = g_object_new (FC_TYPE_TRANSPORT, NULL);
  self->otlp_url = g_strdup (url);
  self->destination = fc_otlp_endpoint_dup_destination (url);
  self->masked = fc_otlp_endpoint_dup_masked (url);
  self->otlp_headers = g_strdupv ((char **) headers);
  if (outbox != NULL)
    self->outbox = g_object_ref (outbox);
  else
    {
      /* apart from Sentry's: its entries are protobuf, not envelopes */
      g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "flamecast", "otlp-outbox", NULL);

      self->outbox = fc_outbox_new (dir);
    }
  /* never consulted for OTLP, but kept apart from Sentry's file */
  self->rate_limits = fc_rate_limits_new (NULL);
  return self;
}

const char *
fc_transport_get_otlp_url (FcTransport *self)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);

  return self->otlp_url;
}

/* who answers, for messages */
static const char *
server_name (FcTransport *self)
{
  return self->otlp_url != NULL ? _("the OTLP receiver") : "Sentry";
}

const char *
fc_transport_get_destination (FcTransport *self)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  return self->destination;
}

const char *
fc_transport_get_masked_target (FcTransport *self)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  return self->masked;
}

void
fc_transport_set_send_unaddressed (FcTransport *self,
                                   gboolean     send)
{
  g_return_if_fail (FC_IS_TRANSPORT (self));
  self->send_unaddressed = send;
}

FcDsn *
fc_transport_get_dsn (FcTransport *self)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  return self->dsn;
}

FcOutbox *
fc_transport_get_outbox (FcTransport *self)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  return self->outbox;
}

void
fc_transport_set_retry_policy (FcTransport *self,
                               guint        max_attempts,
                               guint        first_delay_ms)
{
  g_return_if_fail (FC_IS_TRANSPORT (self));
  g_return_if_fail (max_attempts >= 1);

  self->max_attempts = max_attempts;
  self->first_delay_ms = first_delay_ms;
}

void
fc_transport_set_timeout (FcTransport *self,
                          guint        seconds)
{
  g_return_if_fail (FC_IS_TRANSPORT (self));
  self->timeout_s = seconds;
}

void
fc_transport_set_clock (FcTransport *self,
                        FcClockFunc  clock,
                        gpointer     user_data)
{
  g_return_if_fail (FC_IS_TRANSPORT (self));

  self->clock = clock ? clock : default_clock;
  self->clock_data = clock ? user_data : NULL;
}

void
fc_transport_set_retry_wait_func (FcTransport     *self,
                                  FcRetryWaitFunc  func,
                                  gpointer         user_data)
{
  g_return_if_fail (FC_IS_TRANSPORT (self));

  self->retry_wait = func;
  self->retry_wait_data = func ? user_data : NULL;
}

char *
fc_transport_enqueue (FcTransport  *self,
                      GBytes       *envelope,
                      GError      **error)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  g_return_val_if_fail (envelope != NULL, NULL);

  return fc_outbox_add (self->outbox, envelope, self->destination, error);
}

/* -- one flush of the outbox -- */

struct _Flush
{
  FcTransport   *self;
  GMainContext  *context;
  GCancellable  *cancellable;
  SoupSession   *session;
  char          *url;
  char          *auth;
  GPtrArray     *tasks;        /* GTask*: everyone waiting for this flush */
  GHashTable    *seen;         /* outbox IDs already handled */
  GPtrArray     *queue;        /* outbox IDs, oldest first */
  guint          next;
  FcFlushReport *report;

  GHashTable    *elsewhere;    /* destination -> count of entries for it */

  /* the envelope in flight, claimed so no other flush sends it too */
  char          *id;
  FcOutboxClaim *claim;
  GBytes        *body;
  gboolean       gzipped;
  guint          attempt;
  SoupMessage   *message;
  GSource       *retry_source;

  /* the request in flight: its own deadline and cancellable, its answer
   * read up to FC_TRANSPORT_MAX_ANSWER */
  GCancellable  *request_cancellable;
  gulong         cancel_handler;
  GSource       *deadline;
  gboolean       timed_out;
  GInputStream  *answer_stream;
  GByteArray    *answer;
  gboolean       answer_cut;
  gboolean       answer_eof;

  /* set when the server cannot be reached: the rest waits for the next flush */
  char          *stop_reason;
};

static void flush_next (Flush *f);

/* the request in flight is over: its deadline, cancellable and answer stream go */
static void
request_end (Flush *f)
{
  if (f->deadline != NULL)
    {
      g_source_destroy (f->deadline);
      g_clear_pointer (&f->deadline, g_source_unref);
    }
  if (f->cancel_handler != 0)
    g_cancellable_disconnect (f->cancellable, f->cancel_handler);
  f->cancel_handler = 0;
  /* An answer not read to its end: closing it would read the rest (libsoup
   * finishes the message), which a hostile server makes endless; closed
   * cancelled instead, which drops the connection. */
  if (f->answer_stream != NULL && !f->answer_eof && !g_input_stream_is_closed (f->answer_stream))
    {
      g_autoptr(GCancellable) now = g_cancellable_new ();

      g_cancellable_cancel (now);
      g_input_stream_close (f->answer_stream, now, NULL);
    }
  g_clear_object (&f->request_cancellable);
  g_clear_object (&f->answer_stream);
  g_clear_pointer (&f->answer, g_byte_array_unref);
  f->answer_cut = FALSE;
  f->answer_eof = FALSE;
}

static void
flush_free (Flush *f)
{
  if (f->retry_source != NULL)
    {
      g_source_destroy (f->retry_source);
      g_source_unref (f->retry_source);
    }
  g_clear_object (&f->message);
  request_end (f);
  g_clear_pointer (&f->elsewhere, g_hash_table_unref);
  g_clear_pointer (&f->body, g_bytes_unref);
  g_clear_pointer (&f->claim, fc_outbox_claim_release);
  g_clear_pointer (&f->id, g_free);
  g_clear_pointer (&f->stop_reason, g_free);
  g_clear_pointer (&f->report, fc_flush_report_unref);
  g_clear_pointer (&f->queue, g_ptr_array_unref);
  g_clear_pointer (&f->seen, g_hash_table_unref);
  g_clear_pointer (&f->tasks, g_ptr_array_unref);
  g_clear_pointer (&f->auth, g_free);
  g_clear_pointer (&f->url, g_free);
  g_clear_object (&f->session);
  g_clear_object (&f->cancellable);
  g_clear_pointer (&f->context, g_main_context_unref);
  g_clear_object (&f->self);
  g_free (f);
}

static void
flush_complete (Flush  *f,
                GError *error)
{
  g_autoptr(GPtrArray) tasks = g_steal_pointer (&f->tasks);

  g_assert (f->self->flush == f);
  f->self->flush = NULL;

  /* what waits for other destinations, by destination */
  if (f->elsewhere != NULL && g_hash_table_size (f->elsewhere) > 0)
    {
      g_autoptr(GList) keys = g_list_sort (g_hash_table_get_keys (f->elsewhere), (GCompareFunc) g_strcmp0);

      for (GList *l = keys; l != NULL; l = l->next)
        g_ptr_array_add (f->report->elsewhere_by_destination,
                         g_strdup_printf (_("%u for %s"), GPOINTER_TO_UINT (g_hash_table_lookup (f->elsewhere, l->data)),
                                          (const char *) l->data));
    }

  for (guint i = 0; i < tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (tasks, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_pointer (task, fc_flush_report_ref (f->report),
                               (GDestroyNotify) fc_flush_report_unref);
    }

  flush_free (f);
}

static void
add_message (Flush      *f,
             const char *id,
             const char *why)
{
  g_ptr_array_add (f->report->messages, g_strdup_printf ("%s: %s", id, why));
}

static void
add_outcome (Flush          *f,
             FcEnvelopeFate  fate,
             const char     *why)
{
  FcEnvelopeOutcome *outcome = g_new0 (FcEnvelopeOutcome, 1);

  outcome->id = g_strdup (f->id);
  outcome->fate = fate;
  outcome->why = g_strdup (why);
  g_ptr_array_add (f->report->outcomes, outcome);
  g_signal_emit (f->self, signals[ENVELOPE_DONE], 0, (int) fate);
}

static void
mark_waiting (Flush      *f,
              const char *why)
{
  f->report->waiting++;
  add_outcome (f, FC_ENVELOPE_WAITING, why);
  fc_outbox_set_note (f->self->outbox, f->id, why);
  add_message (f, f->id, why);
}

/* Not ours to send: for another destination (@destination), or without one
 * (NULL: written by an older version, see README "Send"). */
static void
mark_elsewhere (Flush      *f,
                const char *destination)
{
  if (destination == NULL)
    {
      f->report->unaddressed++;
      return;
    }
  f->report->elsewhere++;
  if (f->elsewhere == NULL)
    f->elsewhere = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (f->elsewhere, g_strdup (destination),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (f->elsewhere, destination)) + 1));
}

/* Not an error: another process (the app, another `send --flush`) holds
 * the entry's claim and is delivering it right now. */
static void
mark_busy (Flush *f)
{
  f->report->busy++;
  add_outcome (f, FC_ENVELOPE_BUSY, _("being sent by another process"));
  add_message (f, f->id, _("being sent by another process"));
}

static void
mark_rejected (Flush      *f,
               const char *why)
{
  g_autoptr(GError) error = NULL;

  if (!fc_outbox_reject (f->self->outbox, f->id, why, &error))
    {
      /* It stays in the outbox; retrying it is better than losing it. */
      g_autofree char *msg = g_strdup_printf (_("%s (and it could not be moved aside: %s)"), why, error->message);
      mark_waiting (f, msg);
      return;
    }

  f->report->rejected++;
  add_outcome (f, FC_ENVELOPE_REJECTED, why);
  add_message (f, f->id, why);
}

static char *
format_time (gint64 wall_us)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_unix_local (wall_us / G_USEC_PER_SEC);
  return dt ? g_date_time_format (dt, "%H:%M:%S") : g_strdup ("later");
}

static GBytes *
gzip_bytes (GBytes *input)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) stream = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  gconstpointer data;
  gsize len;

  data = g_bytes_get_data (input, &len);
  /* Writing to memory cannot fail short of running out of it. */
  if (!g_output_stream_write_all (stream, data, len, NULL, NULL, NULL) ||
      !g_output_stream_close (stream, NULL, NULL))
    return NULL;

  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

static const char *
status_text (guint status)
{
  /* libsoup 3.2 calls some of Relay's answers "Unknown Error". */
  switch (status)
    {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default:  return _("no reason given");
    }
}

static char *
response_reason (SoupMessage *message,
                 GBytes      *body)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (message);
  const char *header = soup_message_headers_get_one (headers, "X-Sentry-Error");
  const char *phrase = soup_message_get_reason_phrase (message);
  guint status = soup_message_get_status (message);
  const char *data;
  gsize len = 0;

  if (header != NULL && *header != '\0')
    return g_strdup (header);

  data = body ? g_bytes_get_data (body, &len) : NULL;
  if (len > 0)
    {
      g_autoptr(JsonObject) obj = NULL;
      g_autofree char *text = NULL;

      /* Relay answers {"detail": "...", "causes": [...]}; not with json-glib's
       * parser, which a hostile answer of nested arrays would overflow */
      if ((obj = fc_json_parse_object (data, len, "the answer", NULL)) != NULL)
        {
          const char *detail = fc_json_get_string (obj, "detail");

          if (detail != NULL)
            {
              GString *s = g_string_new (detail);
              JsonNode *causes_node = json_object_get_member (obj, "causes");
              JsonArray *causes = causes_node && JSON_NODE_HOLDS_ARRAY (causes_node)
                                  ? json_node_get_array (causes_node) : NULL;

              for (guint i = 0; causes && i < json_array_get_length (causes); i++)
                {
                  JsonNode *node = json_array_get_element (causes, i);
                  const char *cause = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_string (node) : NULL;
                  if (cause)
                    g_string_append_printf (s, ": %s", cause);
                }
              return g_string_free (s, FALSE);
            }

          /* JSON without a detail ("{}") says nothing: use the status text. */
          return g_strdup (status_text (status));
        }

      text = g_utf8_make_valid (data, MIN (len, 300));
      g_strdelimit (text, "\r\n\t", ' ');
      return g_strdup (g_strstrip (text));
    }

  if (phrase != NULL && *phrase != '\0' && strcmp (phrase, "Unknown Error") != 0)
    return g_strdup (phrase);
  return g_strdup (status_text (status));
}

static gboolean
retry_cb (gpointer data);

static void handle_response (Flush *f, GBytes *body, GError *error);

static void
answer_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Flush *f = user_data;
  GError *error = NULL;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  gsize len;

  if (bytes == NULL)
    {
      handle_response (f, NULL, error);
      return;
    }
  len = g_bytes_get_size (bytes);
  if (len > 0 && f->answer->len + len <= FC_TRANSPORT_MAX_ANSWER)
    {
      g_byte_array_append (f->answer, g_bytes_get_data (bytes, NULL), len);
      g_input_stream_read_bytes_async (f->answer_stream, 16384, G_PRIORITY_DEFAULT, f->request_cancellable,
                                       answer_read_cb, f);
      return;
    }
  if (len > 0)
    {
      /* a server that answers more than Relay ever does: the rest is not
       * read (request_end() drops the connection) */
      g_byte_array_append (f->answer, g_bytes_get_data (bytes, NULL), FC_TRANSPORT_MAX_ANSWER - f->answer->len);
      f->answer_cut = TRUE;
    }
  else
    f->answer_eof = TRUE;
  {
    g_autoptr(GBytes) body = g_byte_array_free_to_bytes (g_steal_pointer (&f->answer));

    handle_response (f, body, NULL);
  }
}

static void
request_sent_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Flush *f = user_data;
  GError *error = NULL;
  GInputStream *stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);

  if (stream == NULL)
    {
      handle_response (f, NULL, error);
      return;
    }
  f->answer_stream = stream;
  f->answer = g_byte_array_new ();
  g_input_stream_read_bytes_async (stream, 16384, G_PRIORITY_DEFAULT, f->request_cancellable, answer_read_cb, f);
}

static gboolean
deadline_cb (gpointer data)
{
  Flush *f = data;

  f->timed_out = TRUE;
  g_clear_pointer (&f->deadline, g_source_unref);
  g_cancellable_cancel (f->request_cancellable);
  return G_SOURCE_REMOVE;
}

static void
cancel_request_cb (GCancellable *cancellable,
                   gpointer      data)
{
  g_cancellable_cancel (data);
}

/* One request, connecting, sending and answering within timeout_s in
 * all: libsoup's own timeout is for silence, and a server that drips a
 * byte a second is never silent. */
static void
request_start (Flush *f)
{
  f->request_cancellable = g_cancellable_new ();
  f->cancel_handler = g_cancellable_connect (f->cancellable, G_CALLBACK (cancel_request_cb),
                                             g_object_ref (f->request_cancellable), g_object_unref);
  f->timed_out = FALSE;
  f->deadline = g_timeout_source_new_seconds (MAX (f->self->timeout_s, 1));
  g_source_set_callback (f->deadline, deadline_cb, f, NULL);
  g_source_set_static_name (f->deadline, "[flamecast] transport deadline");
  g_source_attach (f->deadline, f->context);
  soup_session_send_async (f->session, f->message, G_PRIORITY_DEFAULT, f->request_cancellable, request_sent_cb, f);
}

/* @retry_after_us: the server's Retry-After as a delay, or -1 without one. */
static void
flush_retry_or_wait (Flush      *f,
                     const char *why,
                     gint64      retry_after_us)
{
  g_autofree char *stated = NULL;
  guint64 retry_after_ms = 0;

  if (retry_after_us >= 0)
    {
      g_autofree char *when = format_time (transport_now (f->self) + retry_after_us);

      /* Rounded up: a retry a fraction of a second early is a retry too early. */
      retry_after_ms = ((guint64) retry_after_us + 999) / 1000;
      stated = g_strdup_printf (_("%s, retry after %s"), why, when);
      why = stated;
    }

  /* Longer than we would ever wait between attempts: do not block a
   * flush (or the CLI) that long; it waits in the outbox instead. */
  if (f->attempt < f->self->max_attempts && retry_after_ms <= MAX_DELAY_MS)
    {
      guint64 backoff = MIN ((guint64) f->self->first_delay_ms << MIN (f->attempt - 1, 20u), MAX_DELAY_MS);
      guint delay = MAX (backoff, retry_after_ms);
      guint wait = delay;

      if (f->self->retry_wait != NULL)
        wait = f->self->retry_wait (f->self, f->id, delay, f->self->retry_wait_data);

      g_debug ("Attempt %u of %s failed (%s), retrying in %u ms",
               f->attempt, f->id, why, delay);
      f->retry_source = g_timeout_source_new (wait);
      g_source_set_callback (f->retry_source, retry_cb, f, NULL);
      g_source_set_static_name (f->retry_source, "[flamecast] transport retry");
      g_source_attach (f->retry_source, f->context);
      return;
    }

  {
    g_autofree char *msg = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%u attempt)", "%s (%u attempts)", f->attempt),
                                            why, f->attempt);
    mark_waiting (f, msg);
    f->stop_reason = g_strdup_printf (_("not attempted: %s"), why);
  }
  flush_next (f);
}

/* The request is over: its answer (@body, cut at FC_TRANSPORT_MAX_ANSWER),
 * or @error (takes it). */
static void
handle_response (Flush  *f,
                 GBytes *body,
                 GError *error_in)
{
  g_autoptr(SoupMessage) message = g_steal_pointer (&f->message);
  g_autoptr(GError) error = error_in;
  g_autofree char *reason = NULL;
  g_autofree char *why = NULL;
  gboolean timed_out = f->timed_out;
  gboolean cut = f->answer_cut;
  SoupMessageHeaders *headers;
  guint status;

  request_end (f);
  f->timed_out = FALSE;

  if (error != NULL)
    {
      if (g_cancellable_is_cancelled (f->cancellable))
        {
          flush_complete (f, error);
          return;
        }

      if (timed_out)
        why = g_strdup_printf (_("network error: no complete answer from %s within %u s (connecting, sending and "
                                 "answering)"), f->self->masked, f->self->timeout_s);
      else
        why = g_strdup_printf (_("network error: %s"), error->message);
      flush_retry_or_wait (f, why, -1);
      return;
    }
  if (cut)
    {
      g_autofree char *msg = g_strdup_printf (_("the answer was longer than it should be; read only its first %d bytes"),
                                              FC_TRANSPORT_MAX_ANSWER);
      add_message (f, f->id, msg);
    }

  status = soup_message_get_status (message);
  headers = soup_message_get_response_headers (message);

  /* Every answer may carry limits, a 200 included. */
  if (f->self->otlp_url == NULL)
    fc_rate_limits_update (f->self->rate_limits, status,
                           soup_message_headers_get_one (headers, "X-Sentry-Rate-Limits"),
                           soup_message_headers_get_one (headers, "Retry-After"),
                           transport_now (f->self));

  if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      g_autoptr(GError) remove_error = NULL;
      g_autofree char *partial = NULL;

      f->report->delivered++;
      if (f->self->otlp_url != NULL)
        {
          g_autoptr(GError) parse_error = NULL;
          g_autofree char *partial_message = NULL;
          gint64 rejected = 0;

          /* delivered all the same: a partial_success is not to be retried */
          if (!fc_otlp_parse_response (body, &rejected, &partial_message, &parse_error))
            add_message (f, f->id, parse_error->message);
          else if (rejected > 0 || partial_message != NULL)
            {
              partial = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "partial success: %" PRId64 " profile rejected%s%s",
                                                      "partial success: %" PRId64 " profiles rejected%s%s",
                                                      rejected),
                                         rejected,
                                         partial_message ? ": " : "",
                                         partial_message ? partial_message : "");
              f->report->partial++;
              add_message (f, f->id, partial);
            }
        }
      add_outcome (f, FC_ENVELOPE_DELIVERED, partial);
      if (!fc_outbox_remove (f->self->outbox, f->id, &remove_error))
        add_message (f, f->id, remove_error->message);
      flush_next (f);
      return;
    }

  if (f->self->otlp_url != NULL)
    {
      reason = fc_otlp_dup_status_message (body);
      if (reason == NULL)
        reason = g_strdup (status_text (status));
    }
  else
    reason = response_reason (message, body);

  if (status == 429 && f->self->otlp_url == NULL)
    {
      gint64 until = fc_rate_limits_get_limited_until (f->self->rate_limits, NULL, transport_now (f->self));
      g_autofree char *when = until ? format_time (until) : NULL;

      why = when ? g_strdup_printf (_("rate limited by Sentry (HTTP 429: %s), retry after %s"), reason, when)
                 : g_strdup_printf (_("rate limited by Sentry (HTTP 429: %s)"), reason);
      mark_waiting (f, why);
      flush_next (f);
    }
  else if (status == 400 || status == 403 || status == 413)
    {
      why = g_strdup_printf (_("rejected by %s (HTTP %u: %s)"), server_name (f->self), status, reason);
      mark_rejected (f, why);
      flush_next (f);
    }
  else if (SOUP_STATUS_IS_SERVER_ERROR (status) || status == 429)
    {
      const char *retry_after = soup_message_headers_get_one (headers, "Retry-After");
      gint64 retry_after_us = -1;

      /* A 503 may say when to come back (seconds or an HTTP date); never sooner. */
      if (retry_after != NULL &&
          !fc_retry_after_parse (retry_after, transport_now (f->self), &retry_after_us))
        retry_after_us = -1;

      why = g_strdup_printf (_("%s is unavailable (HTTP %u: %s)"), server_name (f->self), status, reason);
      flush_retry_or_wait (f, why, retry_after_us);
    }
  else
    {
      /* 401, 404, redirects...: most likely a wrong DSN, so stop here and keep everything. */
      why = g_strdup_printf (f->self->otlp_url != NULL ? _("unexpected answer (HTTP %u: %s); check the endpoint")
                                                   : _("unexpected answer (HTTP %u: %s); check the DSN"),
                             status, reason);
      mark_waiting (f, why);
      f->stop_reason = g_strdup_printf (_("not attempted: %s"), why);
      flush_next (f);
    }
}

static void
flush_send_current (Flush *f)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) error = NULL;
  SoupMessageHeaders *headers;

  f->attempt++;
  f->report->attempts++;

  uri = g_uri_parse (f->url, SOUP_HTTP_URI_FLAGS, &error);
  if (uri == NULL)
    {
      g_autofree char *why = g_strdup_printf (f->self->dsn ? _("the DSN %s gives no valid URL: %s")
                                                             : _("the endpoint %s gives no valid URL: %s"),
                                              f->self->masked, error->message);

      mark_waiting (f, why);
      f->stop_reason = g_strdup_printf (_("not attempted: %s"), why);
      flush_next (f);
      return;
    }

  f->message = soup_message_new_from_uri (SOUP_METHOD_POST, uri);
  headers = soup_message_get_request_headers (f->message);
  if (f->auth != NULL)
    soup_message_headers_replace (headers, "X-Sentry-Auth", f->auth);
  for (guint i = 0; f->self->otlp_headers != NULL && f->self->otlp_headers[i] != NULL &&
                    f->self->otlp_headers[i + 1] != NULL; i += 2)
    soup_message_headers_replace (headers, f->self->otlp_headers[i], f->self->otlp_headers[i + 1]);
  if (f->gzipped)
    soup_message_headers_replace (headers, "Content-Encoding", "gzip");
  soup_message_set_request_body_from_bytes (f->message,
                                            f->self->otlp_url != NULL ? "application/x-protobuf"
                                                                      : "application/x-sentry-envelope",
                                            f->body);

  request_start (f);
}

static gboolean
retry_cb (gpointer data)
{
  Flush *f = data;

  g_clear_pointer (&f->retry_source, g_source_unref);
  flush_send_current (f);

  return G_SOURCE_REMOVE;
}

static void
flush_relist (Flush *f)
{
  g_autoptr(GPtrArray) ids = fc_outbox_list (f->self->outbox);

  /* Envelopes enqueued while we were busy join this flush. */
  for (guint i = 0; i < ids->len; i++)
    {
      const char *id = g_ptr_array_index (ids, i);

      if (!g_hash_table_contains (f->seen, id))
        {
          g_hash_table_add (f->seen, g_strdup (id));
          g_ptr_array_add (f->queue, g_strdup (id));
        }
    }
}

/* What a worker thread makes of an outbox entry: the bytes, their
 * categories and the body to post, so the main loop never reads files or
 * compresses. */
typedef struct
{
  FcOutboxClaim *claim;
  GBytes    *body;
  gboolean   gzipped;
  GPtrArray *categories;
  GError    *framing_error;   /* set: malformed, to be moved aside */
  char      *elsewhere;       /* set: the entry goes to this other destination */
  gboolean   unaddressed;     /* no destination recorded (an older version's): not sent */
} Prepared;

/* what the worker needs to know of the flush */
typedef struct
{
  char     *id;
  char     *destination;
  gboolean  send_unaddressed;
  gboolean  otlp;
} ToPrepare;

static void
to_prepare_free (ToPrepare *t)
{
  g_free (t->id);
  g_free (t->destination);
  g_free (t);
}

/* Also releases the claim of an entry prepared for a flush that was cancelled meanwhile. */
static void
prepared_free (Prepared *p)
{
  g_clear_pointer (&p->claim, fc_outbox_claim_release);
  g_clear_pointer (&p->body, g_bytes_unref);
  g_clear_pointer (&p->categories, g_ptr_array_unref);
  g_clear_error (&p->framing_error);
  g_free (p->elsewhere);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Prepared, prepared_free)

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  FcOutbox *outbox = source_object;
  ToPrepare *t = task_data;
  const char *id = t->id;
  g_autoptr(Prepared) p = g_new0 (Prepared, 1);
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *destination = fc_outbox_dup_destination (outbox, id, FALSE);
  GError *error = NULL;

  /* Each envelope to its own destination only: one queued for project 42
   * is never posted to 43 because that is the DSN at hand now. One without
   * a destination (an older version's) goes nowhere unless the user said
   * where (fc_transport_set_send_unaddressed()). */
  if (destination != NULL && g_strcmp0 (destination, t->destination) != 0)
    {
      p->elsewhere = g_steal_pointer (&destination);
      g_task_return_pointer (task, g_steal_pointer (&p), (GDestroyNotify) prepared_free);
      return;
    }
  if (destination == NULL && !t->send_unaddressed)
    {
      p->unaddressed = TRUE;
      g_task_return_pointer (task, g_steal_pointer (&p), (GDestroyNotify) prepared_free);
      return;
    }

  /* Claimed before it is read, and kept until the attempt is over: two
   * flushes (the app and the CLI, two CLI runs) never post it both. */
  if (!(p->claim = fc_outbox_claim (outbox, id, &error)) ||
      !(bytes = fc_outbox_claim_load (p->claim, &error)) ||
      (destination == NULL && !fc_outbox_set_destination (outbox, id, t->destination, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  /* an OTLP request body is protobuf: no items, no Sentry categories */
  if (t->otlp)
    p->categories = g_ptr_array_new ();
  else
    p->categories = fc_envelope_dup_categories (bytes, &p->framing_error);
  if (p->categories != NULL)
    {
      if (g_bytes_get_size (bytes) > FC_TRANSPORT_GZIP_THRESHOLD)
        p->body = gzip_bytes (bytes);
      p->gzipped = p->body != NULL;
      if (p->body == NULL)
        p->body = g_bytes_ref (bytes);
    }

  g_task_return_pointer (task, g_steal_pointer (&p), (GDestroyNotify) prepared_free);
}

static void
prepare_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Flush *f = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(Prepared) p = g_task_propagate_pointer (G_TASK (result), &error);
  gint64 until = 0;
  const char *limited = NULL;
  gint64 now;

  if (p == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          flush_complete (f, error);
          return;
        }
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY))
        mark_busy (f);
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
        {
          /* another user's file in our outbox: refused, left alone */
          f->report->foreign++;
          add_message (f, f->id, error->message);
        }
      else
        /* Gone: another flush (in the app or the CLI) delivered it. */
        g_debug ("Skipping outbox entry %s: %s", f->id, error->message);
      flush_next (f);
      return;
    }

  if (p->elsewhere != NULL || p->unaddressed)
    {
      mark_elsewhere (f, p->elsewhere);
      flush_next (f);
      return;
    }

  f->claim = g_steal_pointer (&p->claim);

  if (p->framing_error != NULL)
    {
      g_autofree char *why = g_strdup_printf (_("not sent, malformed envelope: %s"), p->framing_error->message);

      mark_rejected (f, why);
      flush_next (f);
      return;
    }

  now = transport_now (f->self);
  for (guint i = 0; i < p->categories->len; i++)
    {
      const char *category = g_ptr_array_index (p->categories, i);
      gint64 u = fc_rate_limits_get_limited_until (f->self->rate_limits, category, now);

      if (u > until)
        {
          until = u;
          limited = category;
        }
    }

  if (limited != NULL)
    {
      g_autofree char *when = format_time (until);
      g_autofree char *why = NULL;

      if (fc_rate_limits_get_limited_until (f->self->rate_limits, NULL, now) == until)
        why = g_strdup_printf (_("rate limited by Sentry (all categories) until %s"), when);
      else
        why = g_strdup_printf (_("rate limited by Sentry for “%s” until %s"), limited, when);

      mark_waiting (f, why);
      flush_next (f);
      return;
    }

  f->body = g_steal_pointer (&p->body);
  f->gzipped = p->gzipped;
  flush_send_current (f);
}

static void
flush_next (Flush *f)
{
  /* The attempt is over: delivered (removed), moved aside or left waiting. */
  g_clear_pointer (&f->claim, fc_outbox_claim_release);
  g_clear_pointer (&f->id, g_free);
  g_clear_pointer (&f->body, g_bytes_unref);
  f->attempt = 0;
  f->gzipped = FALSE;

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GTask) task = NULL;

      if (g_cancellable_set_error_if_cancelled (f->cancellable, &error))
        {
          flush_complete (f, error);
          return;
        }

      if (f->next >= f->queue->len)
        {
          flush_relist (f);
          if (f->next >= f->queue->len)
            {
              flush_complete (f, NULL);
              return;
            }
        }

      g_free (f->id);
      f->id = g_strdup (g_ptr_array_index (f->queue, f->next++));

      if (f->stop_reason != NULL)
        {
          g_autofree char *destination = fc_outbox_dup_destination (f->self->outbox, f->id, FALSE);
          g_autoptr(FcOutboxClaim) claim = NULL;

          /* another destination's: this server's trouble is none of its business */
          if (g_strcmp0 (destination, f->self->destination) != 0 &&
              !(destination == NULL && f->self->send_unaddressed))
            {
              mark_elsewhere (f, destination);
              continue;
            }
          claim = fc_outbox_claim (f->self->outbox, f->id, &error);

          /* Its note is only ours to write while we hold its claim; one
           * delivered meanwhile (not found) is no longer waiting. */
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY))
            mark_busy (f);
          else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
            mark_waiting (f, f->stop_reason);
          continue;
        }

      task = g_task_new (f->self->outbox, f->cancellable, prepare_cb, f);
      g_task_set_source_tag (task, flush_next);
      {
        ToPrepare *t = g_new0 (ToPrepare, 1);

        t->id = g_strdup (f->id);
        t->destination = g_strdup (f->self->destination);
        t->send_unaddressed = f->self->send_unaddressed;
        t->otlp = f->self->otlp_url != NULL;
        g_task_set_task_data (task, t, (GDestroyNotify) to_prepare_free);
      }
      g_task_run_in_thread (task, prepare_thread);
      return;
    }
}

static const char *
getenv_either (const char *lower,
               const char *upper)
{
  const char *value = g_getenv (lower);

  if (value == NULL || *value == '\0')
    value = g_getenv (upper);
  return value != NULL && *value != '\0' ? value : NULL;
}

/* Proxy variables in the environment win, as in curl and the Sentry SDKs;
 * without them, the desktop's proxy settings (GIO's default resolver). */
static GProxyResolver *
dup_proxy_resolver (const char *scheme)
{
  const char *proxy = NULL;

  if (g_strcmp0 (scheme, "https") == 0)
    proxy = getenv_either ("https_proxy", "HTTPS_PROXY");
  else
    proxy = getenv_either ("http_proxy", "HTTP_PROXY");
  if (proxy == NULL)
    proxy = getenv_either ("all_proxy", "ALL_PROXY");

  if (proxy != NULL)
    {
      const char *no_proxy = getenv_either ("no_proxy", "NO_PROXY");
      g_auto(GStrv) ignore = g_strsplit (no_proxy ? no_proxy : "", ",", -1);
      g_autoptr(GStrvBuilder) hosts = g_strv_builder_new ();
      g_auto(GStrv) ignore_hosts = NULL;

      for (guint i = 0; ignore[i] != NULL; i++)
        {
          g_strstrip (ignore[i]);
          if (ignore[i][0] != '\0')
            g_strv_builder_add (hosts, ignore[i]);
        }
      ignore_hosts = g_strv_builder_end (hosts);
      return g_simple_proxy_resolver_new (proxy, ignore_hosts);
    }

  return g_object_ref (g_proxy_resolver_get_default ());
}

void
fc_transport_flush_async (FcTransport         *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GMainContext) context = NULL;
  Flush *f;

  g_return_if_fail (FC_IS_TRANSPORT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_transport_flush_async);
  context = g_main_context_ref_thread_default ();

  {
    GError *error = NULL;

    if (!fc_outbox_check_folder (self->outbox, &error))
      {
        g_task_return_error (task, error);
        return;
      }
  }

  if (self->flush != NULL)
    {
      if (self->flush->context == context)
        {
          g_ptr_array_add (self->flush->tasks, g_steal_pointer (&task));
          return;
        }

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The outbox is already being sent from another thread"));
      return;
    }

  f = g_new0 (Flush, 1);
  f->self = g_object_ref (self);
  f->context = g_steal_pointer (&context);
  f->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  f->url = self->dsn ? fc_dsn_dup_envelope_url (self->dsn) : g_strdup (self->otlp_url);
  f->auth = self->dsn ? fc_dsn_dup_auth_header (self->dsn) : NULL;
  f->tasks = g_ptr_array_new_with_free_func (g_object_unref);
  f->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  f->queue = g_ptr_array_new_with_free_func (g_free);
  f->report = fc_flush_report_new ();
  g_ptr_array_add (f->tasks, g_steal_pointer (&task));

  /* A session per flush: it belongs to the caller's main context, so the
   * blocking flush can run the same code on a private one. TLS certificates
   * are verified (libsoup's default); proxies come from the environment. */
  {
    g_autoptr(GProxyResolver) resolver =
      dup_proxy_resolver (self->dsn ? fc_dsn_get_scheme (self->dsn)
                                    : g_str_has_prefix (self->otlp_url, "https:") ? "https" : "http");

    f->session = soup_session_new_with_options ("user-agent", "flamecast/" FC_VERSION,
                                                "timeout", self->timeout_s,
                                                "proxy-resolver", resolver,
                                                NULL);
  }

  self->flush = f;
  flush_next (f);
}

FcFlushReport *
fc_transport_flush_finish (FcTransport   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
flush_sync_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GAsyncResult **out = user_data;
  *out = g_object_ref (result);
}

FcFlushReport *
fc_transport_flush (FcTransport   *self,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GAsyncResult) result = NULL;

  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);

  g_main_context_push_thread_default (context);
  fc_transport_flush_async (self, cancellable, flush_sync_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  /* what is ready still runs: a request cancelled at its end (an answer cut
   * short) closes its connection here, not never */
  while (g_main_context_pending (context))
    g_main_context_iteration (context, FALSE);
  g_main_context_pop_thread_default (context);

  return fc_transport_flush_finish (self, result, error);
}

static void
enqueue_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  FcTransport *self = source_object;
  GError *error = NULL;
  char *id = fc_outbox_add (self->outbox, task_data, self->destination, &error);

  if (id == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, id, g_free);
}

static void
send_flushed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  FcFlushReport *report = fc_transport_flush_finish (FC_TRANSPORT (object), result, &error);

  if (report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, report, (GDestroyNotify) fc_flush_report_unref);
}

static void
send_enqueued_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *id = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  if (!(id = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  cancellable = g_task_get_cancellable (task);
  fc_transport_flush_async (FC_TRANSPORT (object), cancellable, send_flushed_cb, g_steal_pointer (&task));
}

void
fc_transport_send_async (FcTransport         *self,
                         GBytes              *envelope,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) store = NULL;

  g_return_if_fail (FC_IS_TRANSPORT (self));
  g_return_if_fail (envelope != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_transport_send_async);

  store = g_task_new (self, cancellable, send_enqueued_cb, g_steal_pointer (&task));
  g_task_set_task_data (store, g_bytes_ref (envelope), (GDestroyNotify) g_bytes_unref);
  g_task_run_in_thread (store, enqueue_thread);
}

FcFlushReport *
fc_transport_send_finish (FcTransport   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* what this flush left to other destinations, without a destination, or refused */
static void
append_not_ours (GString             *s,
                 FcTransport         *self,
                 const FcFlushReport *report)
{
  gboolean otlp = self->otlp_url != NULL;

  if (report->elsewhere > 0)
    {
      g_autofree char *list = NULL;

      g_ptr_array_add (report->elsewhere_by_destination, NULL);
      list = g_strjoinv (", ", (char **) report->elsewhere_by_destination->pdata);
      g_ptr_array_remove_index (report->elsewhere_by_destination, report->elsewhere_by_destination->len - 1);
      g_string_append_printf (s, otlp ? g_dngettext (GETTEXT_PACKAGE, "%u request waits for another endpoint (%s); "
                                                     "a flush to that endpoint sends it.\n",
                                                     "%u requests wait for other endpoints (%s); a flush to each "
                                                     "endpoint sends its own.\n", report->elsewhere)
                                      : g_dngettext (GETTEXT_PACKAGE, "%u envelope waits for another DSN's project "
                                                     "(%s); send --flush --dsn with that DSN sends it.\n",
                                                     "%u envelopes wait for other DSNs' projects (%s); send --flush "
                                                     "--dsn with each DSN sends its own.\n", report->elsewhere),
                              report->elsewhere, list);
    }
  if (report->unaddressed > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                            "%u entry of an older Flamecast records no destination: kept, not sent "
                                            "to a guessed project. To send it to %s, flush with --unaddressed.\n",
                                            "%u entries of an older Flamecast record no destination: kept, not sent "
                                            "to a guessed project. To send them to %s, flush with --unaddressed.\n",
                                            report->unaddressed),
                            report->unaddressed, self->destination);
  if (report->foreign > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u entry belongs to another user: refused, left where "
                                            "it is.\n", "%u entries belong to another user: refused, left where they "
                                            "are.\n", report->foreign),
                            report->foreign);
}

char *
fc_transport_describe_report (FcTransport         *self,
                              const FcFlushReport *report)
{
  g_autofree char *rejected_dir = NULL;
  GString *s;

  g_return_val_if_fail (FC_IS_TRANSPORT (self), NULL);
  g_return_val_if_fail (report != NULL, NULL);

  rejected_dir = fc_outbox_dup_rejected_dir (self->outbox);
  s = g_string_new (NULL);

  if (self->otlp_url != NULL)
    {
      /* OTLP entries are requests, not envelopes */
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "Delivered %u request.\n",
                                              "Delivered %u requests.\n", report->delivered),
                              report->delivered);
      if (report->partial > 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                                "%u request was accepted only in part (partial_success):\n",
                                                "%u requests were accepted only in part (partial_success):\n",
                                                report->partial),
                                report->partial);
      if (report->rejected > 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u request was not accepted and is kept in %s:\n",
                                                "%u requests were not accepted and are kept in %s:\n",
                                                report->rejected),
                                report->rejected, rejected_dir);
      if (report->busy > 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u request is being sent by another process.\n",
                                                "%u requests are being sent by another process.\n", report->busy),
                                report->busy);
      if (report->waiting > 0)
        g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u request is waiting in the outbox %s:\n",
                                                "%u requests are waiting in the outbox %s:\n", report->waiting),
                                report->waiting, fc_outbox_get_dir (self->outbox));
      for (guint i = 0; i < report->messages->len; i++)
        g_string_append_printf (s, "  %s\n", (const char *) g_ptr_array_index (report->messages, i));
      if (report->waiting > 0)
        g_string_append (s, g_dngettext (GETTEXT_PACKAGE, "Run “flamecast-cli send --otlp --flush” to try it again.\n",
                                         "Run “flamecast-cli send --otlp --flush” to try them again.\n",
                                         report->waiting));
      append_not_ours (s, self, report);
      return g_string_free (s, FALSE);
    }

  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "Delivered %u envelope.\n",
                                          "Delivered %u envelopes.\n", report->delivered),
                          report->delivered);
  if (report->rejected > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u envelope was not accepted and is kept in %s:\n",
                                            "%u envelopes were not accepted and are kept in %s:\n",
                                            report->rejected),
                            report->rejected, rejected_dir);
  if (report->busy > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u envelope is being sent by another process.\n",
                                            "%u envelopes are being sent by another process.\n", report->busy),
                            report->busy);
  if (report->waiting > 0)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u envelope is waiting in the outbox %s:\n",
                                            "%u envelopes are waiting in the outbox %s:\n", report->waiting),
                            report->waiting, fc_outbox_get_dir (self->outbox));
  for (guint i = 0; i < report->messages->len; i++)
    g_string_append_printf (s, "  %s\n", (const char *) g_ptr_array_index (report->messages, i));
  if (report->waiting > 0)
    g_string_append (s, g_dngettext (GETTEXT_PACKAGE, "Run “flamecast-cli send --flush” to try it again.\n",
                                     "Run “flamecast-cli send --flush” to try them again.\n", report->waiting));
  append_not_ours (s, self, report);

  return g_string_free (s, FALSE);
}
