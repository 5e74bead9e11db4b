/* fc-transaction.c - the transaction event that goes with a V1 profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>
#include <string.h>

#include "fc-json-util.h"
#include "fc-time.h"
#include "fc-transaction.h"

/* Relay's list of event platforms; a profile platform outside it (e.g.
 * "rust") would make the transaction invalid, so it becomes "other". */
static const char * const event_platforms[] = {
  "as3", "c", "cfml", "cocoa", "csharp", "elixir", "go", "groovy", "haskell",
  "java", "javascript", "native", "node", "objc", "other", "perl", "php",
  "python", "ruby",
};

static const char *
event_platform (const char *platform)
{
  if (platform == NULL)
    return "other";
  for (guint i = 0; i < G_N_ELEMENTS (event_platforms); i++)
    {
      if (g_strcmp0 (platform, event_platforms[i]) == 0)
        return event_platforms[i];
    }
  return "other";
}

static const char *
ensure_string_member (JsonObject *object,
                      const char *key,
                      char *    (*make) (void))
{
  const char *value = fc_json_get_string (object, key);

  if (value == NULL || *value == '\0')
    {
      g_autofree char *fresh = make ();

      json_object_set_string_member (object, key, fresh);
      value = json_object_get_string_member (object, key);
    }
  return value;
}

JsonObject *
fc_transaction_event_new_for_profile (FcProfile *v1)
{
  JsonObject *txn;
  g_autoptr(JsonObject) event = json_object_new ();
  JsonObject *contexts;
  JsonObject *trace;
  JsonObject *trace_data;
  JsonObject *profile_ctx;
  JsonObject *sdk;
  const char *event_id;
  const char *trace_id;
  const char *span_id;
  const char *name;
  g_autofree char *active_thread = NULL;
  gint64 start_ns;
  gint64 first_ns, last_ns;
  gint64 rel_start, rel_end;

  g_return_val_if_fail (FC_IS_PROFILE (v1), NULL);

  txn = fc_profile_get_transaction (v1);
  if (txn == NULL)
    {
      JsonObject *meta = fc_profile_get_meta (v1);

      json_object_set_object_member (meta, "transaction", json_object_new ());
      txn = fc_profile_get_transaction (v1);
      if (txn == NULL)
        txn = json_object_get_object_member (meta, "transaction");
    }

  event_id = ensure_string_member (txn, "id", fc_uuid_hex_new);
  trace_id = ensure_string_member (txn, "trace_id", fc_uuid_hex_new);
  span_id = ensure_string_member (txn, "segment_id", fc_span_id_hex_new);
  name = fc_json_get_string (txn, "name");
  if (name == NULL || *name == '\0')
    {
      json_object_set_string_member (txn, "name", "flamecast");
      name = json_object_get_string_member (txn, "name");
    }
  active_thread = fc_json_dup_id (txn, "active_thread_id");

  start_ns = fc_profile_get_start_ns (v1);
  fc_profile_get_time_range (v1, &first_ns, &last_ns);
  if (first_ns > last_ns)
    first_ns = last_ns = start_ns;
  if (!fc_json_get_int64 (txn, "relative_start_ns", &rel_start))
    rel_start = first_ns - start_ns;
  if (!fc_json_get_int64 (txn, "relative_end_ns", &rel_end))
    rel_end = last_ns - start_ns;
  if (rel_end < rel_start)
    rel_end = rel_start;

  json_object_set_string_member (event, "type", "transaction");
  json_object_set_string_member (event, "event_id", event_id);
  json_object_set_string_member (event, "transaction", name);
  json_object_set_double_member (event, "start_timestamp", fc_time_ns_to_s (start_ns + rel_start));
  json_object_set_double_member (event, "timestamp", fc_time_ns_to_s (start_ns + rel_end));
  json_object_set_string_member (event, "platform", event_platform (fc_profile_get_platform (v1)));
  if (fc_profile_get_release (v1) != NULL)
    json_object_set_string_member (event, "release", fc_profile_get_release (v1));
  json_object_set_string_member (event, "environment",
                                 fc_profile_get_environment (v1) != NULL
                                 ? fc_profile_get_environment (v1) : "production");
  json_object_set_array_member (event, "spans", json_array_new ());

  contexts = json_object_new ();
  trace = json_object_new ();
  json_object_set_string_member (trace, "trace_id", trace_id);
  json_object_set_string_member (trace, "span_id", span_id);
  json_object_set_string_member (trace, "op", "flamecast.profile");
  json_object_set_string_member (trace, "status", "ok");
  trace_data = json_object_new ();
  if (active_thread != NULL)
    json_object_set_string_member (trace_data, "thread.id", active_thread);
  json_object_set_object_member (trace, "data", trace_data);
  json_object_set_object_member (contexts, "trace", trace);
  if (fc_profile_get_event_id (v1) != NULL)
    {
      profile_ctx = json_object_new ();
      json_object_set_string_member (profile_ctx, "profile_id", fc_profile_get_event_id (v1));
      json_object_set_object_member (contexts, "profile", profile_ctx);
    }
  json_object_set_object_member (event, "contexts", contexts);

  /* Relay copies the profile's client_sdk from here, so both must be set:
   * an SDK's profile stays that SDK's */
  sdk = json_object_new ();
  if (fc_client_sdk_is_named (fc_profile_get_client_sdk (v1)))
    {
      json_object_set_string_member (sdk, "name", fc_profile_get_client_sdk (v1)->name);
      json_object_set_string_member (sdk, "version", fc_profile_get_client_sdk (v1)->version);
    }
  else
    {
      json_object_set_string_member (sdk, "name", "flamecast");
      json_object_set_string_member (sdk, "version", FC_VERSION);
    }
  json_object_set_object_member (event, "sdk", sdk);

  return g_steal_pointer (&event);
}

static gboolean
ids_equal (const char *a,
           const char *b)
{
  if (a == NULL || b == NULL)
    return FALSE;

  for (;;)
    {
      while (*a == '-')
        a++;
      while (*b == '-')
        b++;
      if (*a == '\0' || *b == '\0')
        return *a == *b;
      if (g_ascii_tolower (*a) != g_ascii_tolower (*b))
        return FALSE;
      a++;
      b++;
    }
}

gboolean
fc_transaction_links_profile (JsonObject *event,
                              FcProfile  *profile)
{
  g_return_val_if_fail (event != NULL, FALSE);
  g_return_val_if_fail (FC_IS_PROFILE (profile), FALSE);

  if (fc_profile_get_format (profile) == FC_FORMAT_V1)
    {
      JsonObject *tx = fc_profile_get_transaction (profile);

      return tx != NULL && ids_equal (fc_json_get_string (tx, "id"), fc_json_get_string (event, "event_id"));
    }
  else
    {
      JsonObject *prof = fc_json_get_object (fc_json_get_object (event, "contexts"), "profile");

      return prof != NULL && ids_equal (fc_json_get_string (prof, "profiler_id"),
                                        fc_profile_get_profiler_id (profile));
    }
}

/* float seconds (what SDKs send) or an RFC 3339 string (what Relay accepts too) */
static gboolean
get_timestamp (JsonObject *object,
               const char *key,
               gint64     *out_ns)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_DOUBLE:
    case G_TYPE_INT64:
      {
        double s = json_node_get_double (node);

        if (!(s > 0 && s < (double) FC_TIME_MAX_S))
          return FALSE;
        *out_ns = fc_time_s_to_ns (s);
        return TRUE;
      }
    case G_TYPE_STRING:
      return fc_time_parse_rfc3339 (json_node_get_string (node), out_ns);
    default:
      return FALSE;
    }
}

static void
add_span (GPtrArray  *spans,
          JsonObject *object,
          const char *trace_id,
          const char *parent_span_id,
          const char *description)
{
  gint64 start_ns, end_ns;
  const char *own_trace = fc_json_get_string (object, "trace_id");

  if (!get_timestamp (object, "start_timestamp", &start_ns))
    return;
  if (!get_timestamp (object, "timestamp", &end_ns))
    end_ns = start_ns;
  g_ptr_array_add (spans, fc_span_new (fc_json_get_string (object, "span_id"), parent_span_id,
                                       own_trace ? own_trace : trace_id,
                                       fc_json_get_string (object, "op"), description,
                                       start_ns, end_ns));
}

void
fc_transaction_add_spans (JsonObject *event,
                          GPtrArray  *spans)
{
  JsonObject *trace;
  JsonNode *list;
  const char *trace_id;
  gint64 start_ns, end_ns;

  g_return_if_fail (event != NULL);
  g_return_if_fail (spans != NULL);

  trace = fc_json_get_object (fc_json_get_object (event, "contexts"), "trace");
  trace_id = fc_json_get_string (trace, "trace_id");
  if (!get_timestamp (event, "start_timestamp", &start_ns))
    return;
  if (!get_timestamp (event, "timestamp", &end_ns))
    end_ns = start_ns;
  /* the transaction is its trace context's span; a transaction that is itself
   * a child of a remote span is still the top of what this event holds */
  g_ptr_array_add (spans, fc_span_new (fc_json_get_string (trace, "span_id"), NULL, trace_id,
                                       fc_json_get_string (trace, "op"),
                                       fc_json_get_string (event, "transaction"),
                                       start_ns, end_ns));

  list = json_object_get_member (event, "spans");
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
    {
      JsonNode *node = json_array_get_element (json_node_get_array (list), i);
      JsonObject *object;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      object = json_node_get_object (node);
      add_span (spans, object, trace_id, fc_json_get_string (object, "parent_span_id"),
                fc_json_get_string (object, "description"));
    }
}

GPtrArray *
fc_transaction_spans_for_document (FcDocument *document)
{
  GPtrArray *spans = fc_spans_new ();

  g_return_val_if_fail (FC_IS_DOCUMENT (document), spans);

  for (guint i = 0; i < fc_document_get_n_transactions (document); i++)
    {
      JsonObject *event = fc_document_get_transaction (document, i);

      for (guint j = 0; j < fc_document_get_n_profiles (document); j++)
        if (fc_transaction_links_profile (event, fc_document_get_profile (document, j)))
          {
            fc_transaction_add_spans (event, spans);
            break;
          }
    }
  fc_spans_arrange (spans);
  return spans;
}
