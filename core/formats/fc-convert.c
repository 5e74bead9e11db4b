/* fc-convert.c - V1 transaction profiles <-> V2 continuous chunks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <sys/utsname.h>
#include <glib/gi18n-lib.h>

#include "fc-convert.h"
#include "fc-format-error.h"
#include "fc-json-util.h"
#include "fc-stats.h"
#include "fc-time.h"
#include "fc-transaction.h"
#include "fc-validate.h"

#define UNSET G_MAXUINT32

static void
copy_member (JsonObject *dst,
             JsonObject *src,
             const char *key)
{
  JsonNode *node = json_object_get_member (src, key);

  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    json_object_set_member (dst, key, json_node_copy (node));
}

/* measurements keep their units; only the time of each value changes:
 * V1 counts ns from the profile's timestamp, V2 gives Unix seconds.
 * Values outside [begin_ns, end_ns) are left out (end_ns 0: no end). */
static JsonObject *
retime_measurements (JsonObject *measurements,
                     FcFormat    to,
                     gint64      start_ns,
                     gint64      begin_ns,
                     gint64      end_ns)
{
  JsonObject *out = json_object_new ();
  GList *names = json_object_get_members (measurements);

  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonObject *m = fc_json_get_object (measurements, l->data);
      JsonObject *copy;
      JsonArray *values_out;
      JsonNode *values;

      if (m == NULL)
        continue;
      copy = json_object_new ();
      copy_member (copy, m, "unit");
      values_out = json_array_new ();
      values = json_object_get_member (m, "values");
      for (guint i = 0; values != NULL && JSON_NODE_HOLDS_ARRAY (values) &&
                        i < json_array_get_length (json_node_get_array (values)); i++)
        {
          JsonNode *v = json_array_get_element (json_node_get_array (values), i);
          JsonObject *vo;
          JsonObject *nv;
          JsonNode *value;
          gint64 t_ns;

          if (!JSON_NODE_HOLDS_OBJECT (v))
            continue;
          vo = json_node_get_object (v);
          value = json_object_get_member (vo, "value");
          if (value == NULL)
            continue;

          if (to == FC_FORMAT_V2)
            {
              gint64 elapsed;

              if (!fc_json_get_int64 (vo, "elapsed_since_start_ns", &elapsed))
                continue;
              t_ns = start_ns + elapsed;
            }
          else
            {
              JsonNode *t = json_object_get_member (vo, "timestamp");

              if (t == NULL || !JSON_NODE_HOLDS_VALUE (t) ||
                  (json_node_get_value_type (t) != G_TYPE_DOUBLE &&
                   json_node_get_value_type (t) != G_TYPE_INT64))
                continue;
              t_ns = fc_time_s_to_ns (json_node_get_double (t));
              if (t_ns < begin_ns || (end_ns != 0 && t_ns >= end_ns))
                continue;
            }

          nv = json_object_new ();
          json_object_set_member (nv, "value", json_node_copy (value));
          if (to == FC_FORMAT_V2)
            {
              json_object_set_double_member (nv, "timestamp", fc_time_ns_to_s (t_ns));
            }
          else
            {
              g_autofree char *elapsed = g_strdup_printf ("%" G_GINT64_FORMAT, t_ns - start_ns);

              json_object_set_string_member (nv, "elapsed_since_start_ns", elapsed);
            }
          json_array_add_object_element (values_out, nv);
        }
      json_object_set_array_member (copy, "values", values_out);
      json_object_set_object_member (out, l->data, copy);
    }
  g_list_free (names);
  return out;
}

FcProfile *
fc_convert_v1_to_v2 (FcProfile  *v1,
                     GError    **error)
{
  g_autoptr(FcProfile) v2 = NULL;
  JsonObject *src = NULL;
  JsonObject *dst = NULL;
  JsonObject *measurements;
  g_autofree char *chunk_id = fc_uuid_hex_new ();
  g_autofree char *profiler_id = fc_uuid_hex_new ();

  g_return_val_if_fail (FC_IS_PROFILE (v1), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (fc_profile_get_format (v1) != FC_FORMAT_V1)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED,
                   _("conversion to V2 needs a V1 profile; this is already a V2 chunk"));
      return NULL;
    }

  v2 = fc_profile_new (FC_FORMAT_V2);
  fc_profile_import (v2, v1, 0, 0);

  src = fc_profile_get_meta (v1);
  dst = fc_profile_get_meta (v2);
  json_object_set_string_member (dst, "version", "2");
  json_object_set_string_member (dst, "chunk_id", chunk_id);
  json_object_set_string_member (dst, "profiler_id", profiler_id);
  copy_member (dst, src, "platform");
  copy_member (dst, src, "release");
  copy_member (dst, src, "environment");
  fc_profile_copy_sdk_and_images (v2, v1);

  measurements = fc_json_get_object (src, "measurements");
  if (measurements != NULL)
    json_object_set_object_member (dst, "measurements",
                                   retime_measurements (measurements, FC_FORMAT_V2,
                                                        fc_profile_get_start_ns (v1), 0, 0));

  return g_steal_pointer (&v2);
}

/* ---- V2 -> V1 ---- */

typedef struct {
  FcProfile *src;
  FcProfile *dst;
  guint32   *frames;      /* src frame -> dst frame */
  guint32   *stacks;      /* src stack -> dst stack */
  guint32   *threads;     /* src thread -> dst thread */
  GArray    *chain;
} Copier;

static guint32
copy_string (Copier  *c,
             guint32  id)
{
  if (id == FC_STRING_NONE)
    return FC_STRING_NONE;
  return fc_profile_intern (c->dst, fc_profile_string (c->src, id));
}

static guint32
copy_frame (Copier  *c,
            guint32  frame_id)
{
  if (c->frames[frame_id] == UNSET)
    {
      FcFrame f = *fc_profile_get_frame (c->src, frame_id);

      f.function = copy_string (c, f.function);
      f.module = copy_string (c, f.module);
      f.package = copy_string (c, f.package);
      f.filename = copy_string (c, f.filename);
      f.abs_path = copy_string (c, f.abs_path);
      f.platform = copy_string (c, f.platform);
      f.extra = copy_string (c, f.extra);
      c->frames[frame_id] = fc_profile_intern_frame (c->dst, &f);
    }
  return c->frames[frame_id];
}

static guint32
copy_stack (Copier  *c,
            guint32  stack_id)
{
  guint32 parent;

  /* walk up to the first ancestor already copied, then intern downwards:
   * no recursion, however deep the stack */
  g_array_set_size (c->chain, 0);
  while (stack_id != FC_STACK_EMPTY && c->stacks[stack_id] == UNSET)
    {
      g_array_append_val (c->chain, stack_id);
      stack_id = fc_profile_get_stack (c->src, stack_id)->parent;
    }
  parent = stack_id == FC_STACK_EMPTY ? FC_STACK_EMPTY : c->stacks[stack_id];

  for (guint i = c->chain->len; i > 0; i--)
    {
      guint32 s = g_array_index (c->chain, guint32, i - 1);

      parent = fc_profile_intern_stack (c->dst, parent,
                                        copy_frame (c, fc_profile_get_stack (c->src, s)->frame));
      c->stacks[s] = parent;
    }
  return parent;
}

/* V1 wants decimal thread ids: "0x1f" -> "31"; other names get their
 * table position (offset so that they do not clash with small real ids) */
static char *
decimal_thread_id (const char *tid,
                   guint       index)
{
  if (fc_str_is_decimal (tid))
    return g_strdup (tid);
  if (g_str_has_prefix (tid, "0x") || g_str_has_prefix (tid, "0X"))
    {
      guint64 value = 0;

      if (g_ascii_string_to_unsigned (tid + 2, 16, 0, G_MAXUINT64, &value, NULL))
        return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
    }
  return g_strdup_printf ("%u", 1000000000u + index);
}

static guint32
copy_thread (Copier  *c,
             guint32  thread)
{
  if (c->threads[thread] == UNSET)
    {
      const FcThread *t = fc_profile_get_thread (c->src, thread);
      const char *tid = fc_profile_string (c->src, t->tid);
      g_autofree char *decimal = decimal_thread_id (tid, thread);
      guint32 index = fc_profile_ensure_thread (c->dst, decimal);
      FcThread *dst = fc_profile_get_thread_mut (c->dst, index);

      dst->name = copy_string (c, t->name);
      /* keep a non-numeric id recognisable as the thread's name */
      if (dst->name == FC_STRING_NONE && strcmp (decimal, tid) != 0 && !g_str_has_prefix (tid, "0x"))
        dst->name = fc_profile_intern (c->dst, tid);
      dst->priority = t->priority;
      dst->extra = copy_string (c, t->extra);
      dst->has_metadata = t->has_metadata || dst->name != FC_STRING_NONE;
      c->threads[thread] = index;
    }
  return c->threads[thread];
}

static void
describe_machine (JsonObject *meta,
                  JsonObject *src)
{
  struct utsname u;
  JsonObject *device;
  JsonObject *os;

  if (uname (&u) != 0)
    {
      g_strlcpy (u.machine, "unknown", sizeof u.machine);
      g_strlcpy (u.sysname, "Linux", sizeof u.sysname);
      g_strlcpy (u.release, "unknown", sizeof u.release);
    }

  if (fc_json_get_object (src, "device") != NULL)
    copy_member (meta, src, "device");
  else
    {
      device = json_object_new ();
      json_object_set_string_member (device, "architecture", u.machine);
      json_object_set_object_member (meta, "device", device);
    }

  if (fc_json_get_object (src, "os") != NULL)
    copy_member (meta, src, "os");
  else
    {
      os = json_object_new ();
      json_object_set_string_member (os, "name", u.sysname);
      json_object_set_string_member (os, "version", u.release);
      json_object_set_object_member (meta, "os", os);
    }
  copy_member (meta, src, "runtime");
}

static FcProfile *
build_v1_window (FcProfile      *v2,
                 const FcSample *samples,
                 guint           begin,
                 guint           end,
                 gint64          window_end_ns,
                 const char     *transaction_name)
{
  FcProfile *v1 = fc_profile_new (FC_FORMAT_V1);
  JsonObject *src = fc_profile_get_meta (v2);
  JsonObject *meta = fc_profile_get_meta (v1);
  JsonObject *txn;
  JsonObject *measurements;
  Copier c;
  gint64 start_ns = samples[begin].timestamp_ns;
  gint64 last_ns = samples[end - 1].timestamp_ns;
  g_autofree char *event_id = fc_uuid_hex_new ();
  g_autofree char *txn_id = fc_uuid_hex_new ();
  g_autofree char *trace_id = fc_uuid_hex_new ();
  g_autofree char *segment_id = fc_span_id_hex_new ();
  g_autofree char *timestamp = fc_time_format_rfc3339 (start_ns);
  g_autofree char *rel_end = NULL;
  g_autoptr(JsonObject) event = NULL;
  gint busiest;

  c.src = v2;
  c.dst = v1;
  c.frames = g_new (guint32, MAX (fc_profile_get_n_frames (v2), 1));
  c.stacks = g_new (guint32, MAX (fc_profile_get_n_stacks (v2), 1));
  c.threads = g_new (guint32, MAX (fc_profile_get_n_threads (v2), 1));
  memset (c.frames, 0xff, sizeof (guint32) * MAX (fc_profile_get_n_frames (v2), 1));
  memset (c.stacks, 0xff, sizeof (guint32) * MAX (fc_profile_get_n_stacks (v2), 1));
  memset (c.threads, 0xff, sizeof (guint32) * MAX (fc_profile_get_n_threads (v2), 1));
  c.chain = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = begin; i < end; i++)
    fc_profile_append_sample (v1, samples[i].timestamp_ns,
                              copy_thread (&c, samples[i].thread),
                              copy_stack (&c, samples[i].stack),
                              copy_string (&c, samples[i].extra));

  g_free (c.frames);
  g_free (c.stacks);
  g_free (c.threads);
  g_array_unref (c.chain);

  fc_profile_set_start_ns (v1, start_ns);
  json_object_set_string_member (meta, "version", "1");
  json_object_set_string_member (meta, "event_id", event_id);
  json_object_set_string_member (meta, "timestamp", timestamp);
  copy_member (meta, src, "platform");
  copy_member (meta, src, "release");
  copy_member (meta, src, "environment");
  fc_profile_copy_sdk_and_images (v1, v2);
  describe_machine (meta, src);

  measurements = fc_json_get_object (src, "measurements");
  if (measurements != NULL)
    json_object_set_object_member (meta, "measurements",
                                   retime_measurements (measurements, FC_FORMAT_V1,
                                                        start_ns, start_ns, window_end_ns));

  txn = json_object_new ();
  json_object_set_string_member (txn, "id", txn_id);
  json_object_set_string_member (txn, "name", transaction_name != NULL ? transaction_name : "flamecast");
  json_object_set_string_member (txn, "trace_id", trace_id);
  busiest = fc_stats_busiest_thread (v1);
  json_object_set_string_member (txn, "active_thread_id",
                                 fc_profile_string (v1, fc_profile_get_thread (v1, MAX (busiest, 0))->tid));
  json_object_set_string_member (txn, "relative_start_ns", "0");
  /* relative_end_ns must lie after relative_start_ns, even for one sample */
  rel_end = g_strdup_printf ("%" G_GINT64_FORMAT, MAX (last_ns - start_ns, 1));
  json_object_set_string_member (txn, "relative_end_ns", rel_end);
  json_object_set_string_member (txn, "segment_id", segment_id);
  json_object_set_object_member (meta, "transaction", txn);

  event = fc_transaction_event_new_for_profile (v1);
  fc_profile_set_linked_event (v1, event);

  return v1;
}

GPtrArray *
fc_convert_v2_to_v1 (FcProfile   *v2,
                     const char  *transaction_name,
                     gboolean     split,
                     GError     **error)
{
  g_autoptr(GPtrArray) out = NULL;
  const FcSample *samples;
  guint n_samples = 0;
  guint begin = 0;

  g_return_val_if_fail (FC_IS_PROFILE (v2), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (fc_profile_get_format (v2) != FC_FORMAT_V2)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED,
                   _("conversion to V1 needs a V2 chunk; this is already a V1 profile"));
      return NULL;
    }

  samples = fc_profile_get_samples (v2, &n_samples);
  if (n_samples == 0)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING,
                   _("the chunk has no samples to make a V1 profile of"));
      return NULL;
    }

  if (!split && samples[n_samples - 1].timestamp_ns - samples[0].timestamp_ns > FC_VALIDATE_MAX_V1_NS)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   _("the samples span %.3f s, but a V1 profile may cover at most 30 s "
                   "(Relay rejects longer ones); split it into several transaction+profile pairs"),
                   (samples[n_samples - 1].timestamp_ns - samples[0].timestamp_ns) / 1e9);
      return NULL;
    }

  out = g_ptr_array_new_with_free_func (g_object_unref);
  while (begin < n_samples)
    {
      /* [start, start + 30 s): the last sample lies less than 30 s after the
       * profile's timestamp, which is the first sample of the window */
      gint64 window_end = samples[begin].timestamp_ns + FC_VALIDATE_MAX_V1_NS;
      guint end = begin;

      if (!split)
        window_end = samples[n_samples - 1].timestamp_ns + 1;
      while (end < n_samples && samples[end].timestamp_ns < window_end)
        end++;
      if (end == n_samples && !split)
        window_end = 0;

      g_ptr_array_add (out, build_v1_window (v2, samples, begin, end, window_end, transaction_name));
      begin = end;
    }

  return g_steal_pointer (&out);
}
