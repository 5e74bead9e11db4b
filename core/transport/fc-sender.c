/* fc-sender.c - from files, chunks and root spans to validated envelopes in the outbox
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-convert.h"
#include "fc-envelope.h"
#include "fc-transport-error.h"
#include "fc-problem.h"
#include "fc-sender.h"
#include "fc-stats.h"
#include "fc-time.h"
#include "fc-transaction.h"
#include "fc-validate.h"
#include "fc-writer.h"

#define MAX_PROBLEMS_SHOWN 5

char *
fc_sender_describe_problems (GPtrArray *problems)
{
  GString *s = g_string_new (NULL);
  guint n_errors = 0;
  guint shown = 0;

  g_return_val_if_fail (problems != NULL, NULL);

  for (guint i = 0; i < problems->len; i++)
    if (((FcProblem *) g_ptr_array_index (problems, i))->severity == FC_PROBLEM_ERROR)
      n_errors++;

  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u problem Relay would reject",
                                          "%u problems Relay would reject", n_errors), n_errors);
  for (guint i = 0; i < problems->len && shown < MAX_PROBLEMS_SHOWN; i++)
    {
      const FcProblem *problem = g_ptr_array_index (problems, i);

      if (problem->severity != FC_PROBLEM_ERROR)
        continue;
      g_string_append_printf (s, "%s %s: %s", shown ? ";" : ":", problem->location, problem->message);
      shown++;
    }
  if (n_errors > shown)
    g_string_append_printf (s, _("; and %u more"), n_errors - shown);

  return g_string_free (s, FALSE);
}

static gboolean
check_problems (GPtrArray   *problems,
                const char  *what,
                GError     **error)
{
  g_autofree char *text = NULL;

  if (!fc_problems_has_errors (problems))
    return TRUE;

  text = fc_sender_describe_problems (problems);
  g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID,
               _("%s not sent, %s"), what, text);
  return FALSE;
}

static gboolean
is_gzip (GBytes *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

GBytes *
fc_sender_envelope_for_chunk (FcProfile  *chunk,
                              GError    **error)
{
  g_autoptr(GPtrArray) problems = NULL;

  g_return_val_if_fail (FC_IS_PROFILE (chunk), NULL);

  if (fc_profile_get_format (chunk) != FC_FORMAT_V2)
    {
      g_set_error_literal (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID,
                           _("Chunk not sent: it is not a V2 profile chunk"));
      return NULL;
    }

  problems = fc_validate_profile (chunk);
  if (!check_problems (problems, _("Chunk"), error))
    return NULL;

  return fc_writer_write_chunk_envelope (chunk, error);
}

static GBytes *
v1_envelope (FcProfile  *v1,
             const char *what,
             GError    **error)
{
  g_autoptr(GPtrArray) problems = fc_validate_profile (v1);
  g_autoptr(JsonObject) owned = NULL;
  JsonObject *event = fc_profile_get_linked_event (v1);

  /* Relay takes a V1 profile only with its transaction in the same envelope. */
  if (event == NULL)
    event = owned = fc_transaction_event_new_for_profile (v1);
  fc_validate_transaction (event, "transaction", problems);

  if (!check_problems (problems, what, error))
    return NULL;

  return fc_writer_write_v1_envelope (v1, event, error);
}

GPtrArray *
fc_sender_v1_envelopes_for_chunk (FcProfile   *chunk,
                                  const char  *transaction_name,
                                  gboolean     split,
                                  GError     **error)
{
  g_autoptr(GPtrArray) envelopes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) profiles = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (FC_IS_PROFILE (chunk), NULL);

  profiles = fc_convert_v2_to_v1 (chunk, transaction_name, split, &local_error);
  if (profiles == NULL)
    {
      g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID,
                   _("Not sent as V1: %s%s"), local_error->message,
                   split ? "" : _(" (split it into 30 s transactions, or send it as V2)"));
      return NULL;
    }

  for (guint i = 0; i < profiles->len; i++)
    {
      g_autofree char *what = g_strdup_printf (_("V1 window %u of %u"), i + 1, profiles->len);
      GBytes *envelope = v1_envelope (g_ptr_array_index (profiles, i), what, error);

      if (envelope == NULL)
        return NULL;
      g_ptr_array_add (envelopes, envelope);
    }

  return g_steal_pointer (&envelopes);
}

GPtrArray *
fc_sender_envelopes_for_document (FcDocument  *document,
                                  GBytes      *original,
                                  GError     **error)
{
  g_autoptr(GPtrArray) envelopes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) problems = NULL;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  problems = fc_validate_document (document);
  if (!check_problems (problems, _("File"), error))
    return NULL;

  switch (fc_document_get_kind (document))
    {
    case FC_DOCUMENT_ENVELOPE:
      {
        GBytes *bytes;

        /* As it is, unless it was stored compressed: the body must be the envelope. */
        if (original != NULL && !is_gzip (original))
          bytes = g_bytes_ref (original);
        else if (!(bytes = fc_writer_write_envelope (document, error)))
          return NULL;
        g_ptr_array_add (envelopes, bytes);
      }
      break;

    case FC_DOCUMENT_V2:
      for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
        {
          GBytes *bytes = fc_sender_envelope_for_chunk (fc_document_get_profile (document, i), error);

          if (bytes == NULL)
            return NULL;
          g_ptr_array_add (envelopes, bytes);
        }
      break;

    case FC_DOCUMENT_V1:
      for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
        {
          GBytes *bytes = v1_envelope (fc_document_get_profile (document, i), "Profile", error);

          if (bytes == NULL)
            return NULL;
          g_ptr_array_add (envelopes, bytes);
        }
      break;

    default:
      g_assert_not_reached ();
    }

  if (envelopes->len == 0)
    {
      g_set_error_literal (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID,
                           _("Nothing to send: the file holds no profile"));
      return NULL;
    }

  return g_steal_pointer (&envelopes);
}

JsonObject *
fc_sender_transaction_for_span (const FcRootSpan *span,
                                FcProfile        *chunk,
                                const char       *thread_id,
                                const char       *thread_name)
{
  g_autoptr(JsonObject) event = json_object_new ();
  g_autofree char *event_id = fc_uuid_hex_new ();
  JsonObject *contexts = json_object_new ();
  JsonObject *trace = json_object_new ();
  JsonObject *data = json_object_new ();
  JsonObject *profile = json_object_new ();
  JsonObject *sdk = json_object_new ();
  const char *platform;
  const char *release;
  const char *environment;

  g_return_val_if_fail (span != NULL, NULL);
  g_return_val_if_fail (FC_IS_PROFILE (chunk), NULL);

  if (thread_id == NULL && fc_profile_get_n_threads (chunk) > 0)
    {
      const FcThread *thread = fc_profile_get_thread (chunk, MAX (fc_stats_busiest_thread (chunk), 0));

      thread_id = fc_profile_string (chunk, thread->tid);
      thread_name = thread->name ? fc_profile_string (chunk, thread->name) : NULL;
    }

  platform = fc_profile_get_platform (chunk);
  release = fc_profile_get_release (chunk);
  environment = fc_profile_get_environment (chunk);

  json_object_set_string_member (event, "type", "transaction");
  json_object_set_string_member (event, "event_id", event_id);
  json_object_set_string_member (event, "transaction", span->name);
  json_object_set_double_member (event, "start_timestamp", fc_time_ns_to_s (span->start_ns));
  json_object_set_double_member (event, "timestamp", fc_time_ns_to_s (MAX (span->end_ns, span->start_ns)));
  json_object_set_string_member (event, "platform", platform ? platform : "native");
  if (release != NULL && *release != '\0')
    json_object_set_string_member (event, "release", release);
  json_object_set_string_member (event, "environment",
                                 environment && *environment ? environment : "production");

  json_object_set_string_member (sdk, "name", "flamecast");
  json_object_set_string_member (sdk, "version", FC_VERSION);
  json_object_set_object_member (event, "sdk", sdk);

  json_object_set_string_member (trace, "trace_id", span->trace_id);
  json_object_set_string_member (trace, "span_id", span->span_id);
  json_object_set_string_member (trace, "op", "flamecast.span");
  json_object_set_string_member (trace, "status", "ok");
  /* Sentry finds the chunks by profiler_id and time, then the thread by id. */
  if (thread_id != NULL)
    json_object_set_string_member (data, "thread.id", thread_id);
  if (thread_name != NULL)
    json_object_set_string_member (data, "thread.name", thread_name);
  json_object_set_object_member (trace, "data", data);
  json_object_set_object_member (contexts, "trace", trace);

  if (fc_profile_get_profiler_id (chunk) != NULL)
    json_object_set_string_member (profile, "profiler_id", fc_profile_get_profiler_id (chunk));
  json_object_set_object_member (contexts, "profile", profile);
  json_object_set_object_member (event, "contexts", contexts);

  json_object_set_array_member (event, "spans", json_array_new ());

  return g_steal_pointer (&event);
}

GBytes *
fc_sender_transaction_envelope (JsonObject  *event,
                                GError     **error)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) item = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *payload = NULL;

  g_return_val_if_fail (event != NULL, NULL);

  fc_validate_transaction (event, "transaction", problems);
  if (!check_problems (problems, _("Transaction"), error))
    return NULL;

  json_node_set_object (node, event);
  payload = fc_writer_json_to_string (node);

  header = fc_envelope_header_new (NULL, json_object_get_string_member_with_default (event, "event_id", ""), 0);
  json_object_set_string_member (item, "type", "transaction");
  json_object_set_string_member (item, "content_type", "application/json");

  fc_envelope_append_header (buf, header);
  fc_envelope_append_item (buf, item, (const guint8 *) payload, strlen (payload));
  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

/* -- FcSender -- */

struct _FcSender
{
  GObject       parent_instance;

  FcTransport  *transport;
  FcFormat      format;
  gboolean      split;
  char         *transaction_name;

  FcProfile    *last_chunk;      /* the recording's metadata for span transactions */
  GPtrArray    *pending_spans;   /* FcRootSpan*: ended before the first chunk */
  guint         n_queued;
  guint         n_background;    /* flushes in flight */
  guint         delivered;       /* by background flushes */
  GPtrArray    *finishing;       /* GTask*: flush_async calls waiting for the background flushes */

  /* progress, for people: every envelope's outcome as it comes (FcTransport::envelope-done),
   * from the first on; waiting as the last flush left it */
  guint         n_delivered;
  guint         n_rejected;
  guint         n_waiting;       /* after the last flush: still in the outbox */
};

enum {
  PROP_0,
  PROP_N_QUEUED,
  PROP_N_DELIVERED,
  PROP_N_REJECTED,
  PROP_N_WAITING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (FcSender, fc_sender, G_TYPE_OBJECT)

static void
fc_sender_finalize (GObject *object)
{
  FcSender *self = (FcSender *)object;

  g_clear_object (&self->transport);
  g_clear_object (&self->last_chunk);
  g_clear_pointer (&self->pending_spans, g_ptr_array_unref);
  g_clear_pointer (&self->finishing, g_ptr_array_unref);
  g_clear_pointer (&self->transaction_name, g_free);

  G_OBJECT_CLASS (fc_sender_parent_class)->finalize (object);
}

static void
fc_sender_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  FcSender *self = FC_SENDER (object);

  switch (prop_id)
    {
    case PROP_N_QUEUED:
      g_value_set_uint (value, self->n_queued);
      break;
    case PROP_N_DELIVERED:
      g_value_set_uint (value, self->n_delivered);
      break;
    case PROP_N_REJECTED:
      g_value_set_uint (value, self->n_rejected);
      break;
    case PROP_N_WAITING:
      g_value_set_uint (value, self->n_waiting);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_sender_class_init (FcSenderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = fc_sender_finalize;
  object_class->get_property = fc_sender_get_property;

  /* Progress for a live indicator, notified on the context the sender
   * flushes on (the caller's main context). The outbox is shared: a flush
   * also delivers what older sends left there, so these count flushes'
   * outcomes, not only this sender's envelopes. */
  properties[PROP_N_QUEUED] =
    g_param_spec_uint ("n-queued", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_DELIVERED] =
    g_param_spec_uint ("n-delivered", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_REJECTED] =
    g_param_spec_uint ("n-rejected", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_WAITING] =
    g_param_spec_uint ("n-waiting", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
fc_sender_init (FcSender *self)
{
  self->format = FC_FORMAT_V2;
  self->pending_spans = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_root_span_free);
  self->finishing = g_ptr_array_new_with_free_func (g_object_unref);
}

static void envelope_done_cb (FcTransport *transport,
                              int          fate,
                              FcSender    *self);

FcSender *
fc_sender_new (FcTransport *transport)
{
  FcSender *self;

  g_return_val_if_fail (FC_IS_TRANSPORT (transport), NULL);

  self = g_object_new (FC_TYPE_SENDER, NULL);
  self->transport = g_object_ref (transport);
  g_signal_connect_object (transport, "envelope-done", G_CALLBACK (envelope_done_cb), self, 0);
  return self;
}

FcTransport *
fc_sender_get_transport (FcSender *self)
{
  g_return_val_if_fail (FC_IS_SENDER (self), NULL);
  return self->transport;
}

void
fc_sender_set_format (FcSender   *self,
                      FcFormat    format,
                      gboolean    split,
                      const char *transaction_name)
{
  g_return_if_fail (FC_IS_SENDER (self));
  g_return_if_fail (format == FC_FORMAT_V1 || format == FC_FORMAT_V2);

  self->format = format;
  self->split = split;
  g_free (self->transaction_name);
  self->transaction_name = g_strdup (transaction_name);
}

guint
fc_sender_get_n_queued (FcSender *self)
{
  g_return_val_if_fail (FC_IS_SENDER (self), 0);
  return self->n_queued;
}

void
fc_sender_get_progress (FcSender         *self,
                        FcSenderProgress *progress)
{
  g_return_if_fail (FC_IS_SENDER (self));
  g_return_if_fail (progress != NULL);

  progress->queued = self->n_queued;
  progress->delivered = self->n_delivered;
  progress->rejected = self->n_rejected;
  progress->waiting = self->n_waiting;
  /* taken, and neither delivered nor rejected yet: on its way, or waiting */
  progress->pending = self->n_queued > self->n_delivered + self->n_rejected
                      ? self->n_queued - self->n_delivered - self->n_rejected : 0;
  progress->pending = MAX (progress->pending, self->n_waiting);
}

/* one envelope's outcome, as the flush goes (it may outlast many chunks) */
static void
envelope_done_cb (FcTransport *transport,
                  int          fate,
                  FcSender    *self)
{
  if (fate == FC_ENVELOPE_DELIVERED)
    {
      self->n_delivered++;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DELIVERED]);
    }
  else if (fate == FC_ENVELOPE_REJECTED)
    {
      self->n_rejected++;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_REJECTED]);
    }
}

/* a flush ended: what still waits in the outbox */
static void
note_report (FcSender            *self,
             const FcFlushReport *report)
{
  if (report->waiting != self->n_waiting)
    {
      self->n_waiting = report->waiting;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_WAITING]);
    }
}

static void flush_last (GTask *task);

static void
background_flush_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(FcSender) self = user_data;
  g_autoptr(FcFlushReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = fc_transport_flush_finish (FC_TRANSPORT (object), result, &error);
  if (report != NULL)
    {
      self->delivered += report->delivered;
      note_report (self, report);
    }
  else
    g_debug ("Background flush failed: %s", error->message);

  self->n_background--;
  if (self->n_background == 0 && self->finishing->len > 0)
    {
      g_autoptr(GPtrArray) waiting = g_steal_pointer (&self->finishing);

      self->finishing = g_ptr_array_new_with_free_func (g_object_unref);
      for (guint i = 0; i < waiting->len; i++)
        flush_last (g_object_ref (g_ptr_array_index (waiting, i)));
    }
}

static gboolean
enqueue (FcSender  *self,
         GBytes    *envelope,
         GError   **error)
{
  g_autofree char *id = fc_transport_enqueue (self->transport, envelope, error);

  if (id == NULL)
    return FALSE;

  self->n_queued++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_QUEUED]);
  /* A flush already running picks the new envelope up; no need for another. */
  if (self->n_background == 0)
    {
      self->n_background++;
      fc_transport_flush_async (self->transport, NULL, background_flush_cb, g_object_ref (self));
    }
  return TRUE;
}

static gboolean
queue_span (FcSender         *self,
            const FcRootSpan *span,
            GError          **error)
{
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(GBytes) envelope = NULL;

  g_assert (self->last_chunk != NULL);

  event = fc_sender_transaction_for_span (span, self->last_chunk, NULL, NULL);
  envelope = fc_sender_transaction_envelope (event, error);
  return envelope != NULL && enqueue (self, envelope, error);
}

gboolean
fc_sender_add_chunk (FcSender   *self,
                     FcProfile  *chunk,
                     GError    **error)
{
  g_return_val_if_fail (FC_IS_SENDER (self), FALSE);
  g_return_val_if_fail (FC_IS_PROFILE (chunk), FALSE);

  if (self->format == FC_FORMAT_V1)
    {
      g_autoptr(GPtrArray) envelopes = fc_sender_v1_envelopes_for_chunk (chunk, self->transaction_name,
                                                                         self->split, error);
      if (envelopes == NULL)
        return FALSE;
      for (guint i = 0; i < envelopes->len; i++)
        if (!enqueue (self, g_ptr_array_index (envelopes, i), error))
          return FALSE;
    }
  else
    {
      g_autoptr(GBytes) envelope = fc_sender_envelope_for_chunk (chunk, error);

      if (envelope == NULL || !enqueue (self, envelope, error))
        return FALSE;
    }

  g_set_object (&self->last_chunk, chunk);

  /* Spans that ended before the first chunk can be linked now. */
  while (self->pending_spans->len > 0)
    {
      g_autoptr(FcRootSpan) span = g_ptr_array_steal_index (self->pending_spans, 0);

      if (!queue_span (self, span, error))
        return FALSE;
    }

  return TRUE;
}

gboolean
fc_sender_add_root_span (FcSender         *self,
                         const FcRootSpan *span,
                         GError          **error)
{
  g_return_val_if_fail (FC_IS_SENDER (self), FALSE);
  g_return_val_if_fail (span != NULL, FALSE);

  /* V1 windows carry their own transactions; spans that were not sampled,
   * or that no profile covers, have nothing to link to. */
  if (self->format != FC_FORMAT_V2 || !span->sampled || !span->profiled)
    return TRUE;

  if (self->last_chunk == NULL)
    {
      g_ptr_array_add (self->pending_spans, fc_root_span_copy (span));
      return TRUE;
    }

  return queue_span (self, span, error);
}

static void
last_flush_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FcSender *self = g_task_get_source_object (task);
  GError *error = NULL;
  FcFlushReport *report;

  report = fc_transport_flush_finish (FC_TRANSPORT (object), result, &error);
  if (report == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  note_report (self, report);
  report->delivered += self->delivered;
  self->delivered = 0;
  g_task_return_pointer (task, report, (GDestroyNotify) fc_flush_report_unref);
}

/* takes @task */
static void
flush_last (GTask *task)
{
  FcSender *self = g_task_get_source_object (task);

  if (self->pending_spans->len > 0)
    g_debug ("%u root span(s) ended without a chunk to link to; not sent", self->pending_spans->len);
  fc_transport_flush_async (self->transport, g_task_get_cancellable (task), last_flush_cb, task);
}

void
fc_sender_flush_async (FcSender            *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (FC_IS_SENDER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_sender_flush_async);
  /* Background flushes complete on this context: the last one starts ours. */
  if (self->n_background > 0)
    {
      g_ptr_array_add (self->finishing, task);
      return;
    }
  flush_last (task);
}

FcFlushReport *
fc_sender_flush_finish (FcSender      *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (FC_IS_SENDER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
