/* fc-transaction.c - the transaction event that goes with a V1 profile, ids and RFC 3339 time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>
#include <string.h>

#include "fc-json-util.h"
#include "fc-transaction.h"

char *
fc_uuid_hex_new (void)
{
  g_autofree char *uuid = g_uuid_string_random ();
  GString *out = g_string_sized_new (32);

  for (const char *p = uuid; *p != '\0'; p++)
    {
      if (*p != '-')
        g_string_append_c (out, g_ascii_tolower (*p));
    }

  return g_string_free (out, FALSE);
}

char *
fc_span_id_hex_new (void)
{
  g_autofree char *uuid = fc_uuid_hex_new ();

  /* the second half of a v4 UUID is random apart from the variant nibble */
  return g_strndup (uuid + 16, 16);
}

gboolean
fc_hex_is_valid (const char *str,
                 gsize       len)
{
  if (str == NULL || strlen (str) != len)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isxdigit (str[i]))
        return FALSE;
    }
  return TRUE;
}

gboolean
fc_uuid_is_valid (const char *str,
                  gboolean   *canonical)
{
  gboolean ok = FALSE;
  gboolean canon = FALSE;

  if (str == NULL)
    goto out;

  if (fc_hex_is_valid (str, 32))
    {
      ok = TRUE;
      canon = TRUE;
      for (const char *p = str; *p != '\0'; p++)
        {
          if (g_ascii_isupper (*p))
            canon = FALSE;
        }
    }
  else if (g_uuid_string_is_valid (str))
    {
      ok = TRUE;
    }

out:
  if (canonical != NULL)
    *canonical = canon;
  return ok;
}

char *
fc_rfc3339_format_ns (gint64 unix_ns)
{
  gint64 secs = unix_ns / G_GINT64_CONSTANT (1000000000);
  gint64 frac = unix_ns % G_GINT64_CONSTANT (1000000000);
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *base = NULL;

  if (frac < 0)
    {
      frac += G_GINT64_CONSTANT (1000000000);
      secs -= 1;
    }

  dt = g_date_time_new_from_unix_utc (secs);
  if (dt == NULL)
    return g_strdup ("1970-01-01T00:00:00.000000Z");
  base = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");

  if (frac % 1000 == 0)
    return g_strdup_printf ("%s.%06dZ", base, (int) (frac / 1000));
  return g_strdup_printf ("%s.%09dZ", base, (int) frac);
}

gboolean
fc_rfc3339_parse_ns (const char *str,
                     gint64     *unix_ns)
{
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *whole = NULL;
  const char *dot;
  gint64 frac_ns = 0;

  if (str == NULL || *str == '\0')
    return FALSE;

  /* GDateTime keeps microseconds only: read the fraction here so that
   * nanosecond timestamps survive, and let GLib parse the rest. */
  dot = strchr (str, '.');
  if (dot != NULL)
    {
      g_autofree char *head = g_strndup (str, dot - str);
      const char *tail = dot + 1;
      gint64 scale = G_GINT64_CONSTANT (100000000);

      if (!g_ascii_isdigit (*tail))
        return FALSE;
      for (; g_ascii_isdigit (*tail); tail++)
        {
          frac_ns += (*tail - '0') * scale;
          scale /= 10;
        }
      whole = g_strconcat (head, tail, NULL);
    }

  /* a NULL default zone makes GLib refuse timestamps without an offset,
   * which RFC 3339 requires */
  dt = g_date_time_new_from_iso8601 (whole != NULL ? whole : str, NULL);
  if (dt == NULL)
    return FALSE;

  *unix_ns = g_date_time_to_unix (dt) * G_GINT64_CONSTANT (1000000000) + frac_ns;
  return TRUE;
}

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

static double
ns_to_seconds (gint64 ns)
{
  /* microsecond precision is all Sentry keeps; rounding first avoids
   * printing 0.499999999 for .5 */
  gint64 us = ns >= 0 ? (ns + 500) / 1000 : (ns - 500) / 1000;

  return (double) (us / 1000000) + (double) (us % 1000000) / 1e6;
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
  json_object_set_double_member (event, "start_timestamp", ns_to_seconds (start_ns + rel_start));
  json_object_set_double_member (event, "timestamp", ns_to_seconds (start_ns + rel_end));
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
