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

  /* Relay copies the profile's client_sdk from here, so both must be set */
  sdk = json_object_new ();
  json_object_set_string_member (sdk, "name", "flamecast");
  json_object_set_string_member (sdk, "version", FC_VERSION);
  json_object_set_object_member (event, "sdk", sdk);

  return g_steal_pointer (&event);
}
