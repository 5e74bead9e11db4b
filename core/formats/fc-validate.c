/* fc-validate.c - what Relay would reject (errors) or only recommends (warnings)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules are those Relay applies when it ingests a profile (what it rejects); each
 * check names the place it looked at so that a user can find it in the file.
 */

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-chunk-meta.h"
#include "fc-envelope.h"
#include "fc-json-util.h"
#include "fc-stats.h"
#include "fc-time.h"
#include "fc-transaction.h"
#include "fc-validate.h"

typedef struct {
  GPtrArray  *problems;
  const char *prefix;         /* "profile 2: " for documents with several, or "" */
  gboolean    strict;         /* FC_VALIDATE_STRICT: what the spec recommends is required */
} Report;

static void report (Report            *r,
                    FcProblemSeverity  severity,
                    const char        *location,
                    const char        *format,
                    ...) G_GNUC_PRINTF (4, 5);

static void
report (Report            *r,
        FcProblemSeverity  severity,
        const char        *location,
        const char        *format,
        ...)
{
  g_autofree char *message = NULL;
  g_autofree char *where = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  where = g_strconcat (r->prefix, location, NULL);
  g_ptr_array_add (r->problems, fc_problem_new (severity, where, "%s", message));
}

#define ERROR(r, loc, ...)   report (r, FC_PROBLEM_ERROR, loc, __VA_ARGS__)
#define WARNING(r, loc, ...) report (r, FC_PROBLEM_WARNING, loc, __VA_ARGS__)
/* what the SDK spec and the official SDKs always send: an error with --strict */
#define RECOMMENDED(r, loc, ...) report (r, (r)->strict ? FC_PROBLEM_ERROR : FC_PROBLEM_WARNING, loc, __VA_ARGS__)

static gboolean
is_blank (const char *str)
{
  return str == NULL || *str == '\0';
}

static void
check_uuid (Report     *r,
            JsonObject *object,
            const char *key,
            const char *location)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;
  const char *value = fc_json_get_string (object, key);
  gboolean canonical = FALSE;

  if (node == NULL)
    ERROR (r, location, _("missing; a UUID (32 lowercase hex digits) is required"));
  else if (value == NULL)
    ERROR (r, location, _("must be a string holding a UUID"));
  else if (!fc_uuid_is_valid (value, &canonical))
    ERROR (r, location, _("\"%s\" is not a UUID"), value);
  else if (!canonical)
    RECOMMENDED (r, location, _("\"%s\" should be 32 lowercase hex digits without dashes"), value);
}

static void
check_platform (Report    *r,
                FcProfile *profile)
{
  const char *platform = fc_profile_get_platform (profile);
  guint n_frames = fc_profile_get_n_frames (profile);
  gboolean wide = FALSE;

  if (is_blank (platform))
    {
      ERROR (r, "platform", _("missing; Relay requires the platform"));
      return;
    }

  if (strcmp (platform, "android") == 0)
    WARNING (r, "platform",
             _("\"android\" makes Relay parse the payload as an Android trace, "
             "not as sample-format data"));

  if (strcmp (platform, "cocoa") == 0)
    {
      for (guint i = 0; i < n_frames; i++)
        {
          const FcFrame *f = fc_profile_get_frame (profile, i);

          if (f->has_instruction_addr && f->instruction_addr >= (G_GUINT64_CONSTANT (1) << 36))
            wide = TRUE;
        }
      WARNING (r, "platform",
               _("\"cocoa\" is billed as a UI profile and has every instruction_addr masked "
               "to 36 bits%s"), wide ? " (this payload has wider addresses)" : "");
    }
}

static void
check_client_sdk (Report    *r,
                  FcProfile *profile)
{
  const FcClientSdk *sdk = fc_profile_get_client_sdk (profile);

  if (sdk == NULL)
    {
      ERROR (r, "client_sdk", _("missing; an object with name and version is required"));
      return;
    }
  if (is_blank (sdk->name))
    ERROR (r, "client_sdk.name", _("missing or empty"));
  if (is_blank (sdk->version))
    ERROR (r, "client_sdk.version", _("missing or empty"));
}

static void
check_debug_images (Report    *r,
                    FcProfile *profile)
{
  static const char * const types[] = { "macho", "symbolic", "sourcemap", "proguard", "jvm" };
  GPtrArray *images = fc_profile_get_images (profile);

  /* what the reader could not type is not what Sentry takes */
  if (fc_chunk_meta_get_untyped_debug_meta (profile) != NULL)
    {
      ERROR (r, "debug_meta", _("must be an object whose \"images\" is an array of objects"));
      return;
    }

  for (guint i = 0; images != NULL && i < images->len; i++)
    {
      const char *type = ((const FcDebugImage *) g_ptr_array_index (images, i))->type;
      g_autofree char *where = g_strdup_printf ("debug_meta.images[%u].type", i);
      gboolean known = FALSE;

      if (type == NULL)
        {
          ERROR (r, where, _("missing; one of macho, symbolic, sourcemap, proguard, jvm is required"));
          continue;
        }
      for (guint t = 0; t < G_N_ELEMENTS (types); t++)
        {
          if (strcmp (type, types[t]) == 0)
            known = TRUE;
        }
      if (!known)
        ERROR (r, where,
               _("\"%s\" is not accepted in profiles (only macho, symbolic, sourcemap, proguard, jvm)%s"),
               type, strcmp (type, "elf") == 0 ? "; use \"symbolic\" for ELF images" : "");
    }
}

static void
check_measurements (Report    *r,
                    FcProfile *profile,
                    FcFormat   format)
{
  static const char * const units[] = {
    "nanosecond", "ns", "hertz", "hz", "byte", "percent", "nanojoule", "nj",
  };
  JsonNode *node = json_object_get_member (fc_profile_get_meta (profile), "measurements");
  JsonObject *measurements;
  GList *names;
  const char *time_key = format == FC_FORMAT_V1 ? "elapsed_since_start_ns" : "timestamp";

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      ERROR (r, "measurements", _("must be an object"));
      return;
    }

  measurements = json_node_get_object (node);
  names = json_object_get_members (measurements);
  names = g_list_sort (names, (GCompareFunc) strcmp);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonObject *m = fc_json_get_object (measurements, name);
      g_autofree char *where = g_strdup_printf ("measurements.%s", name);
      g_autofree char *unit_where = g_strdup_printf ("measurements.%s.unit", name);
      const char *unit;
      JsonNode *values;
      gboolean known = FALSE;

      if (m == NULL)
        {
          ERROR (r, where, _("must be an object with unit and values"));
          continue;
        }
      unit = fc_json_get_string (m, "unit");
      for (guint u = 0; unit != NULL && u < G_N_ELEMENTS (units); u++)
        {
          if (strcmp (unit, units[u]) == 0)
            known = TRUE;
        }
      if (unit == NULL)
        ERROR (r, unit_where, _("missing; the chunk is invalid without a known unit"));
      else if (!known)
        ERROR (r, unit_where, _("unknown unit \"%s\" (known: nanosecond, ns, hertz, hz, byte, "
               "percent, nanojoule, nj)"), unit);

      values = json_object_get_member (m, "values");
      if (values == NULL || !JSON_NODE_HOLDS_ARRAY (values))
        {
          g_autofree char *vw = g_strdup_printf ("measurements.%s.values", name);

          ERROR (r, vw, _("missing or not an array"));
          continue;
        }
      for (guint i = 0; i < json_array_get_length (json_node_get_array (values)); i++)
        {
          JsonNode *v = json_array_get_element (json_node_get_array (values), i);
          g_autofree char *vw = g_strdup_printf ("measurements.%s.values[%u]", name, i);
          JsonObject *vo;
          JsonNode *value;
          JsonNode *t;

          if (!JSON_NODE_HOLDS_OBJECT (v))
            {
              ERROR (r, vw, _("must be an object with %s and value"), time_key);
              continue;
            }
          vo = json_node_get_object (v);
          value = json_object_get_member (vo, "value");
          t = json_object_get_member (vo, time_key);
          if (value == NULL || !JSON_NODE_HOLDS_VALUE (value) ||
              json_node_get_value_type (value) == G_TYPE_BOOLEAN)
            ERROR (r, vw, _("value missing or not a number"));
          if (t == NULL || !JSON_NODE_HOLDS_VALUE (t) ||
              json_node_get_value_type (t) == G_TYPE_BOOLEAN)
            ERROR (r, vw, _("%s missing or not a number"), time_key);
        }
    }
  g_list_free (names);
}

gboolean
fc_validate_keeps_a_thread (FcProfile *profile)
{
  guint n_threads = fc_profile_get_n_threads (profile);
  guint n_samples = 0;
  const FcSample *samples = fc_profile_get_samples (profile, &n_samples);
  g_autofree guint *non_empty = g_new0 (guint, MAX (n_threads, 1));

  for (guint i = 0; i < n_samples; i++)
    if (samples[i].thread < n_threads && samples[i].stack != FC_STACK_EMPTY &&
        ++non_empty[samples[i].thread] >= 2)
      return TRUE;
  return FALSE;
}

/* Relay drops threads with at most one sample that has a non-empty stack,
 * then rejects the payload when nothing is left. */
static void
check_samples_per_thread (Report    *r,
                          FcProfile *profile)
{
  guint n_threads = fc_profile_get_n_threads (profile);
  guint n_samples = 0;
  const FcSample *samples = fc_profile_get_samples (profile, &n_samples);
  g_autofree guint *non_empty = g_new0 (guint, MAX (n_threads, 1));
  g_autofree guint *all = g_new0 (guint, MAX (n_threads, 1));

  if (n_samples == 0)
    {
      ERROR (r, "profile.samples", _("empty: Relay rejects a profile without samples"));
      return;
    }

  for (guint i = 0; i < n_samples; i++)
    {
      if (samples[i].thread >= n_threads)
        continue;
      all[samples[i].thread]++;
      if (samples[i].stack != FC_STACK_EMPTY)
        non_empty[samples[i].thread]++;
    }

  for (guint t = 0; t < n_threads; t++)
    {
      const FcThread *thread = fc_profile_get_thread (profile, t);
      const char *tid = fc_profile_string (profile, thread->tid);
      g_autofree char *where = g_strdup_printf ("thread %s", tid);

      if (all[t] == 0)
        continue;
      if (non_empty[t] < 2)
        WARNING (r, where, g_dngettext (GETTEXT_PACKAGE, "%u sample with a non-empty stack: Relay drops this thread",
                                        "%u samples with a non-empty stack: Relay drops this thread", non_empty[t]),
                 non_empty[t]);

      /* a named thread gets its thread_metadata entry when written */
      if (!thread->has_metadata && thread->name == FC_STRING_NONE && thread->priority < 0)
        WARNING (r, where, _("has samples but no thread_metadata entry"));
      else if (thread->name == FC_STRING_NONE)
        WARNING (r, where, _("has no name in thread_metadata"));
    }

  if (!fc_validate_keeps_a_thread (profile))
    ERROR (r, "profile.samples",
           _("not enough samples: no thread has two samples with a non-empty stack, "
           "so Relay rejects the payload"));
}

static void
check_frames (Report    *r,
              FcProfile *profile)
{
  guint n_frames = fc_profile_get_n_frames (profile);

  for (guint i = 0; i < n_frames; i++)
    {
      const FcFrame *f = fc_profile_get_frame (profile, i);
      g_autofree char *where = NULL;

      if (f->lineno >= 0 && f->colno >= FC_LINE_NONE)
        continue;
      where = g_strdup_printf ("profile.frames[%u]", i);
      if (f->lineno < FC_LINE_NONE)
        ERROR (r, where, _("lineno %d is negative"), f->lineno);
      if (f->colno < FC_LINE_NONE)
        ERROR (r, where, _("colno %d is negative"), f->colno);
    }
}

static void
check_common_recommended (Report    *r,
                          FcProfile *profile)
{
  if (is_blank (fc_profile_get_environment (profile)))
    RECOMMENDED (r, "environment", _("missing; recommended (for example \"production\")"));
  if (!is_blank (fc_profile_get_release (profile)))
    return;
  /* the V2 format marks it required and every official SDK sends one */
  if (fc_profile_get_format (profile) == FC_FORMAT_V2)
    ERROR (r, "release", _("missing; a profile chunk requires the release (\"NAME@VERSION\")"));
  else
    RECOMMENDED (r, "release", _("missing; the sample format asks for the release"));
}

static void
check_size (Report    *r,
            FcProfile *profile)
{
  gsize size = fc_profile_get_source_size (profile);

  if (size > FC_VALIDATE_MAX_PAYLOAD_SIZE)
    ERROR (r, "profile", "%" G_GSIZE_FORMAT " bytes: above Relay's limit of 50 MiB", size);
}

static void
validate_v2 (Report    *r,
             FcProfile *profile)
{
  JsonObject *meta = fc_profile_get_meta (profile);
  const char *version = fc_json_get_string (meta, "version");
  gint64 first_ns, last_ns;

  if (g_strcmp0 (version, "2") != 0)
    ERROR (r, "version", _("must be the string \"2\" for a profile chunk"));
  check_uuid (r, meta, "chunk_id", "chunk_id");
  check_uuid (r, meta, "profiler_id", "profiler_id");
  check_platform (r, profile);
  check_client_sdk (r, profile);
  check_size (r, profile);
  check_debug_images (r, profile);
  check_measurements (r, profile, FC_FORMAT_V2);
  check_frames (r, profile);
  check_samples_per_thread (r, profile);

  fc_profile_get_time_range (profile, &first_ns, &last_ns);
  if (first_ns <= last_ns && last_ns - first_ns > FC_VALIDATE_MAX_CHUNK_NS)
    ERROR (r, "profile.samples", _("the samples span %.3f s; Relay rejects chunks longer than 66 s"),
           (last_ns - first_ns) / 1e9);

  check_common_recommended (r, profile);
}

static void
check_string_member (Report     *r,
                     JsonObject *object,
                     const char *key,
                     const char *location)
{
  if (is_blank (fc_json_get_string (object, key)))
    ERROR (r, location, _("missing or empty; Relay requires it"));
}

static void
check_v1_transaction (Report    *r,
                      FcProfile *profile)
{
  JsonObject *meta = fc_profile_get_meta (profile);
  JsonObject *txn = fc_profile_get_transaction (profile);
  const char *loc = json_object_has_member (meta, "transaction") ? "transaction" : "transactions[0]";
  g_autofree char *active = NULL;
  gint64 rel_start = 0, rel_end = 0;
  gboolean has_start, has_end;
  const char *segment_id;

#define LOC(key) (g_snprintf (where, sizeof where, "%s.%s", loc, key), where)
  char where[64];

  if (txn == NULL)
    {
      ERROR (r, "transaction", _("missing; a V1 profile needs its transaction "
             "(id, name, trace_id, active_thread_id)"));
      return;
    }

  if (is_blank (fc_json_get_string (txn, "id")))
    ERROR (r, LOC ("id"), _("missing; the id of the transaction event is required"));
  else if (!fc_uuid_is_valid (fc_json_get_string (txn, "id"), NULL))
    ERROR (r, LOC ("id"), _("\"%s\" is not a UUID"), fc_json_get_string (txn, "id"));
  check_string_member (r, txn, "name", LOC ("name"));
  if (is_blank (fc_json_get_string (txn, "trace_id")))
    ERROR (r, LOC ("trace_id"), _("missing; Relay requires it"));
  else if (!fc_uuid_is_valid (fc_json_get_string (txn, "trace_id"), NULL))
    ERROR (r, LOC ("trace_id"), _("\"%s\" is not 32 hex digits"), fc_json_get_string (txn, "trace_id"));

  active = fc_json_dup_id (txn, "active_thread_id");
  if (active == NULL)
    ERROR (r, LOC ("active_thread_id"), _("missing; a decimal thread id is required"));
  else if (!fc_str_is_decimal (active))
    ERROR (r, LOC ("active_thread_id"), _("\"%s\" is not a decimal thread id"), active);
  else if (!fc_profile_lookup_thread (profile, active, NULL))
    WARNING (r, LOC ("active_thread_id"), _("thread %s has no samples in this profile"), active);

  has_start = fc_json_get_int64 (txn, "relative_start_ns", &rel_start);
  has_end = fc_json_get_int64 (txn, "relative_end_ns", &rel_end);
  if (!has_start)
    WARNING (r, LOC ("relative_start_ns"), _("missing; Relay and Sentry use it to place the transaction"));
  if (!has_end)
    WARNING (r, LOC ("relative_end_ns"), _("missing; Relay and Sentry use it to place the transaction"));
  if (has_start && has_end && rel_start >= rel_end)
    WARNING (r, LOC ("relative_end_ns"), "%" G_GINT64_FORMAT " is not after relative_start_ns %"
             G_GINT64_FORMAT, rel_end, rel_start);

  segment_id = fc_json_get_string (txn, "segment_id");
  if (segment_id == NULL)
    RECOMMENDED (r, LOC ("segment_id"), _("missing; should be the transaction's span id"));
  else if (!fc_hex_is_valid (segment_id, 16))
    WARNING (r, LOC ("segment_id"), _("\"%s\" is not a 16-hex-digit span id"), segment_id);
#undef LOC
}

static void
validate_v1 (Report    *r,
             FcProfile *profile)
{
  JsonObject *meta = fc_profile_get_meta (profile);
  JsonObject *device = fc_json_get_object (meta, "device");
  JsonObject *os = fc_json_get_object (meta, "os");
  const char *timestamp = fc_json_get_string (meta, "timestamp");
  guint n_threads = 0;
  g_autofree guint *per_thread = fc_stats_thread_samples (profile, &n_threads);
  guint n_samples = 0;
  const FcSample *samples = fc_profile_get_samples (profile, &n_samples);
  gint64 ts_ns = 0;

  if (g_strcmp0 (fc_json_get_string (meta, "version"), "1") != 0)
    ERROR (r, "version", _("must be the string \"1\" for a transaction profile"));
  check_uuid (r, meta, "event_id", "event_id");
  check_platform (r, profile);

  if (timestamp == NULL)
    ERROR (r, "timestamp", _("missing; Relay requires an RFC 3339 timestamp"));
  else if (!fc_time_parse_rfc3339 (timestamp, &ts_ns))
    ERROR (r, "timestamp", _("\"%s\" is not an RFC 3339 timestamp"), timestamp);

  if (device == NULL)
    ERROR (r, "device", _("missing; Relay requires device.architecture"));
  else
    check_string_member (r, device, "architecture", "device.architecture");
  if (os == NULL)
    {
      ERROR (r, "os", _("missing; Relay requires os.name and os.version"));
    }
  else
    {
      check_string_member (r, os, "name", "os.name");
      check_string_member (r, os, "version", "os.version");
    }

  check_v1_transaction (r, profile);
  check_size (r, profile);
  check_debug_images (r, profile);
  check_measurements (r, profile, FC_FORMAT_V1);
  check_frames (r, profile);

  for (guint t = 0; t < n_threads; t++)
    {
      const char *tid = fc_profile_string (profile, fc_profile_get_thread (profile, t)->tid);

      if (per_thread[t] > 0 && !fc_str_is_decimal (tid))
        {
          g_autofree char *where = g_strdup_printf ("thread %s", tid);

          ERROR (r, where, _("V1 thread ids must be decimal"));
        }
    }

  if (n_samples > 0 && n_samples < 2)
    ERROR (r, "profile.samples", _("%u sample: Relay needs at least 2"), n_samples);
  check_samples_per_thread (r, profile);

  if (n_samples > 0)
    {
      gint64 start_ns = fc_profile_get_start_ns (profile);

      if (samples[0].timestamp_ns < start_ns)
        ERROR (r, "profile.samples", _("a sample lies %.6f s before the profile timestamp; "
               "elapsed_since_start_ns cannot be negative"),
               (start_ns - samples[0].timestamp_ns) / 1e9);
      if (samples[n_samples - 1].timestamp_ns - start_ns > FC_VALIDATE_MAX_V1_NS)
        ERROR (r, "profile.samples", _("the last sample is %.3f s after the start; "
               "Relay rejects V1 profiles longer than 30 s"),
               (samples[n_samples - 1].timestamp_ns - start_ns) / 1e9);
    }

  check_common_recommended (r, profile);
}

static void
validate_profile_into (FcProfile  *profile,
                       const char *prefix,
                       gboolean    strict,
                       GPtrArray  *problems)
{
  Report r = { problems, prefix, strict };

  switch (fc_profile_get_format (profile))
    {
    case FC_FORMAT_V1:
      validate_v1 (&r, profile);
      break;
    case FC_FORMAT_V2:
      validate_v2 (&r, profile);
      break;
    case FC_FORMAT_UNKNOWN:
    default:
      ERROR (&r, "version", _("neither a V1 profile nor a V2 chunk"));
      break;
    }
}

GPtrArray *
fc_validate_profile (FcProfile *profile)
{
  GPtrArray *problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);

  g_return_val_if_fail (FC_IS_PROFILE (profile), problems);

  validate_profile_into (profile, "", FALSE, problems);
  return problems;
}

static gboolean
get_seconds (JsonObject *event,
             const char *key,
             double     *seconds)
{
  JsonNode *node = json_object_get_member (event, key);
  gint64 ns;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_DOUBLE:
      *seconds = json_node_get_double (node);
      return isfinite (*seconds);
    case G_TYPE_INT64:
      *seconds = (double) json_node_get_int (node);
      return TRUE;
    case G_TYPE_STRING:
      /* Relay takes RFC 3339 strings here as well */
      if (!fc_time_parse_rfc3339 (json_node_get_string (node), &ns))
        return FALSE;
      *seconds = fc_time_ns_to_s (ns);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
validate_transaction (JsonObject *event,
                      const char *location,
                      gboolean    strict,
                      GPtrArray  *problems)
{
  g_autofree char *prefix = g_strdup_printf ("%s: ", location);
  Report rr = { problems, prefix, strict };
  Report *r = &rr;
  JsonObject *contexts = fc_json_get_object (event, "contexts");
  JsonObject *trace = fc_json_get_object (contexts, "trace");
  JsonObject *sdk = fc_json_get_object (event, "sdk");
  const char *type = fc_json_get_string (event, "type");
  double start = 0, end = 0;
  gboolean has_start, has_end;

  if (type != NULL && strcmp (type, "transaction") != 0)
    ERROR (r, "type", _("\"%s\" in a transaction item"), type);
  check_uuid (r, event, "event_id", "event_id");

  has_start = get_seconds (event, "start_timestamp", &start);
  has_end = get_seconds (event, "timestamp", &end);
  if (!has_start)
    ERROR (r, "start_timestamp", _("missing or not a timestamp"));
  if (!has_end)
    ERROR (r, "timestamp", _("missing or not a timestamp"));
  if (has_start && has_end && start > end)
    ERROR (r, "timestamp", _("ends %.6f s before start_timestamp"), start - end);

  if (is_blank (fc_json_get_string (event, "transaction")))
    WARNING (r, "transaction", _("missing transaction name"));

  if (trace == NULL)
    {
      ERROR (r, "contexts.trace", _("missing; trace_id and span_id are required"));
    }
  else
    {
      const char *trace_id = fc_json_get_string (trace, "trace_id");
      const char *span_id = fc_json_get_string (trace, "span_id");

      if (trace_id == NULL || !fc_uuid_is_valid (trace_id, NULL))
        ERROR (r, "contexts.trace.trace_id", _("missing or not 32 hex digits"));
      if (span_id == NULL || !fc_hex_is_valid (span_id, 16))
        ERROR (r, "contexts.trace.span_id", _("missing or not 16 hex digits"));
      if (is_blank (fc_json_get_string (trace, "op")))
        RECOMMENDED (r, "contexts.trace.op", _("missing; recommended"));
      if (is_blank (fc_json_get_string (trace, "status")))
        RECOMMENDED (r, "contexts.trace.status", _("missing; recommended"));
    }

  /* Relay copies the profile's client_sdk from here */
  if (sdk == NULL || is_blank (fc_json_get_string (sdk, "name")) ||
      is_blank (fc_json_get_string (sdk, "version")))
    ERROR (r, "sdk", _("sdk.name and sdk.version are required: Relay gives them to the profile"));
  if (is_blank (fc_json_get_string (event, "platform")))
    WARNING (r, "platform", _("missing"));
  if (is_blank (fc_json_get_string (event, "release")))
    RECOMMENDED (r, "release", _("missing; recommended"));
  if (is_blank (fc_json_get_string (event, "environment")))
    RECOMMENDED (r, "environment", _("missing; recommended"));
}

void
fc_validate_transaction (JsonObject *event,
                         const char *location,
                         GPtrArray  *problems)
{
  validate_transaction (event, location, FALSE, problems);
}

static void
check_link (Report     *r,
            FcProfile  *profile,
            JsonObject *event)
{
  JsonObject *txn = fc_profile_get_transaction (profile);
  JsonObject *trace = fc_json_get_object (fc_json_get_object (event, "contexts"), "trace");
  const char *event_id = fc_json_get_string (event, "event_id");

  if (txn == NULL)
    return;
  if (event_id != NULL && g_strcmp0 (fc_json_get_string (txn, "id"), event_id) != 0)
    WARNING (r, "transaction.id", _("does not match the transaction event's event_id %s"), event_id);
  if (trace != NULL && fc_json_get_string (trace, "trace_id") != NULL &&
      g_strcmp0 (fc_json_get_string (txn, "trace_id"), fc_json_get_string (trace, "trace_id")) != 0)
    WARNING (r, "transaction.trace_id", _("does not match the transaction event's trace_id"));
  if (g_strcmp0 (fc_profile_get_event_id (profile), event_id) == 0 && event_id != NULL)
    ERROR (r, "event_id", _("is the transaction's id; a profile needs its own event_id"));
}

static void
validate_envelope (FcDocument *document,
                   gboolean    strict,
                   GPtrArray  *problems)
{
  Report rr = { problems, "", strict };
  Report *r = &rr;
  guint n_profiles = fc_document_get_n_profiles (document);
  guint n_transactions = fc_document_get_n_transactions (document);
  gboolean has_v1 = FALSE;

  fc_envelope_check (document, strict, problems);

  for (guint i = 0; i < n_profiles; i++)
    {
      if (fc_profile_get_format (fc_document_get_profile (document, i)) == FC_FORMAT_V1)
        has_v1 = TRUE;
    }

  for (guint i = 0; i < n_transactions; i++)
    {
      g_autofree char *where = g_strdup_printf ("transaction %u", i);

      validate_transaction (fc_document_get_transaction (document, i), where, strict, problems);
    }

  if (has_v1 && n_transactions == 1)
    {
      for (guint i = 0; i < n_profiles; i++)
        {
          FcProfile *profile = fc_document_get_profile (document, i);

          if (fc_profile_get_format (profile) == FC_FORMAT_V1)
            check_link (r, profile, fc_document_get_transaction (document, 0));
        }
    }
}

GPtrArray *
fc_validate_document (FcDocument *document)
{
  return fc_validate_document_full (document, FC_VALIDATE_FLAGS_NONE);
}

GPtrArray *
fc_validate_document_full (FcDocument      *document,
                           FcValidateFlags  flags)
{
  gboolean strict = (flags & FC_VALIDATE_STRICT) != 0;
  GPtrArray *problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
  GPtrArray *read_problems;
  guint n_profiles;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), problems);

  read_problems = fc_document_get_problems (document);
  for (guint i = 0; read_problems != NULL && i < read_problems->len; i++)
    {
      const FcProblem *p = g_ptr_array_index (read_problems, i);

      g_ptr_array_add (problems, fc_problem_new (p->severity, p->location, "%s", p->message));
    }

  n_profiles = fc_document_get_n_profiles (document);
  if (n_profiles == 0)
    g_ptr_array_add (problems, fc_problem_new (FC_PROBLEM_ERROR, "", _("no profile or chunk in the file")));

  for (guint i = 0; i < n_profiles; i++)
    {
      g_autofree char *prefix = n_profiles > 1 ? g_strdup_printf ("profile %u: ", i) : g_strdup ("");

      validate_profile_into (fc_document_get_profile (document, i), prefix, strict, problems);
    }

  if (fc_document_get_kind (document) == FC_DOCUMENT_ENVELOPE)
    validate_envelope (document, strict, problems);

  return problems;
}

gboolean
fc_problems_has_errors (GPtrArray *problems)
{
  return fc_problems_count (problems, FC_PROBLEM_ERROR) > 0;
}

guint
fc_problems_count (GPtrArray         *problems,
                   FcProblemSeverity  severity)
{
  guint n = 0;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const FcProblem *p = g_ptr_array_index (problems, i);

      if (p->severity == severity)
        n++;
    }
  return n;
}
