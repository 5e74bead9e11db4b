/* fc-otlp.c - OpenTelemetry profiles (v1development): ProfilesData in protobuf and OTLP/JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-chunk-meta.h"
#include "fc-format-error.h"
#include "fc-interop-private.h"
#include "fc-json-util.h"
#include "fc-otlp.h"
#include "fc-pb-json-private.h"
#include "fc-pb-limits-private.h"
#include "otel-profiles-service.pb-c.h"
#include "otel-profiles.pb-c.h"
#include "rpc-status.pb-c.h"

typedef Opentelemetry__Proto__Profiles__V1development__ProfilesData       PData;
typedef Opentelemetry__Proto__Profiles__V1development__ProfilesDictionary PDict;
typedef Opentelemetry__Proto__Profiles__V1development__ResourceProfiles   PResourceProfiles;
typedef Opentelemetry__Proto__Profiles__V1development__ScopeProfiles      PScopeProfiles;
typedef Opentelemetry__Proto__Profiles__V1development__Profile            PProfile;
typedef Opentelemetry__Proto__Profiles__V1development__Sample             PSample;
typedef Opentelemetry__Proto__Profiles__V1development__Stack              PStack;
typedef Opentelemetry__Proto__Profiles__V1development__Location           PLocation;
typedef Opentelemetry__Proto__Profiles__V1development__Line               PLine;
typedef Opentelemetry__Proto__Profiles__V1development__Function           PFunction;
typedef Opentelemetry__Proto__Profiles__V1development__Mapping            PMapping;
typedef Opentelemetry__Proto__Profiles__V1development__Link               PLink;
typedef Opentelemetry__Proto__Profiles__V1development__ValueType          PValueType;
typedef Opentelemetry__Proto__Profiles__V1development__KeyValueAndUnit    PKeyValueAndUnit;
typedef Opentelemetry__Proto__Common__V1__AnyValue                        PAnyValue;
typedef Opentelemetry__Proto__Common__V1__KeyValue                        PKeyValue;
typedef Opentelemetry__Proto__Common__V1__InstrumentationScope            PScope;
typedef Opentelemetry__Proto__Resource__V1__Resource                      PResource;
typedef Opentelemetry__Proto__Collector__Profiles__V1development__ExportProfilesServiceResponse PResponse;

#define DESC(name) (&opentelemetry__proto__profiles__v1development__##name##__descriptor)
#define ANY_STRING  OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE
#define ANY_INT     OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE
#define ANY_STRIDX  OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE_STRINDEX

/* ---- writing ---- */

typedef struct {
  FcArena        bump;         /* messages and their arrays */
  GPtrArray     *arena;        /* other allocations, freed at the end */
  FcStringTable  strings;
  GPtrArray     *mappings;     /* PMapping* */
  GPtrArray     *locations;
  GPtrArray     *functions;
  GPtrArray     *links;
  GPtrArray     *attributes;
  GPtrArray     *stacks;
  GHashTable    *mapping_index;   /* path -> index + 1 */
  GHashTable    *function_index;  /* content key -> index + 1 */
  GHashTable    *location_index;
  GHashTable    *attribute_index;
  GHashTable    *stack_index;     /* GBytes of location indices -> index + 1 */
  GPtrArray     *resource_profiles;
  GArray        *frame_location;  /* this profile's frame id -> location index + 1, for one-frame locations */
} Writer;

static gpointer
arena_new (Writer                           *w,
           const ProtobufCMessageDescriptor *desc)
{
  ProtobufCMessage *m = fc_arena_alloc0 (&w->bump, desc->sizeof_message);

  protobuf_c_message_init (desc, m);
  return m;
}

#define arena_array(w, type, n) ((type *) fc_arena_alloc0 (&(w)->bump, sizeof (type) * MAX ((n), 1)))

static gpointer
arena_keep (Writer   *w,
            gpointer  data)
{
  g_ptr_array_add (w->arena, data);
  return data;
}

static gpointer
arena_steal_ptrs (Writer    *w,
                  GPtrArray *array,
                  size_t    *n)
{
  *n = array->len;
  return arena_keep (w, g_ptr_array_steal (array, NULL));
}

/* index in @table of the entry with @key, adding @make()'s result when new */
static guint
dedup (GHashTable *index,
       GPtrArray  *table,
       GString    *key,
       gpointer    entry)
{
  gpointer found = g_hash_table_lookup (index, key->str);

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_ptr_array_add (table, entry);
  g_hash_table_insert (index, g_strdup (key->str), GUINT_TO_POINTER (table->len));
  return table->len - 1;
}

static guint
add_attribute (Writer     *w,
               const char *key,
               const char *str_value,
               gint64      int_value)
{
  g_autoptr(GString) k = g_string_new (key);
  gpointer found;
  PKeyValueAndUnit *kv;

  if (str_value != NULL)
    g_string_append_printf (k, "\x1fs%s", str_value);
  else
    g_string_append_printf (k, "\x1fi%" PRId64, int_value);
  found = g_hash_table_lookup (w->attribute_index, k->str);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  kv = arena_new (w, DESC (key_value_and_unit));
  kv->key_strindex = fc_string_table_add_copy (&w->strings, key);
  kv->value = arena_new (w, &opentelemetry__proto__common__v1__any_value__descriptor);
  if (str_value != NULL)
    {
      kv->value->value_case = ANY_STRING;
      kv->value->string_value = arena_keep (w, g_strdup (str_value));
    }
  else
    {
      kv->value->value_case = ANY_INT;
      kv->value->int_value = int_value;
    }
  return dedup (w->attribute_index, w->attributes, k, kv);
}

static guint
add_mapping (Writer    *w,
             FcProfile *profile,
             const char *path)
{
  gpointer found = g_hash_table_lookup (w->mapping_index, path);
  const FcDebugImage *image;
  PMapping *m;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  m = arena_new (w, DESC (mapping));
  m->filename_strindex = fc_string_table_add_copy (&w->strings, path);
  image = fc_profile_find_image (profile, path);
  if (image != NULL)
    {
      const char *build_id = fc_chunk_meta_image_build_id (image);

      fc_chunk_meta_image_range (image, &m->memory_start, &m->memory_limit);
      if (build_id != NULL)
        {
          g_autofree char *hex = g_strdelimit (g_ascii_strdown (build_id, -1), "-", '-');
          gint32 *attrs = arena_array (w, gint32, 1);

          /* a debug_id with dashes is not a GNU build id, but the best there is */
          if (strchr (hex, '-') != NULL)
            {
              g_autoptr(GString) s = g_string_new (NULL);
              for (const char *p = hex; *p; p++)
                if (*p != '-')
                  g_string_append_c (s, *p);
              g_free (hex);
              hex = g_string_free (g_steal_pointer (&s), FALSE);
            }
          attrs[0] = add_attribute (w, "process.executable.build_id.gnu", hex, 0);
          m->attribute_indices = attrs;
          m->n_attribute_indices = 1;
        }
    }
  g_ptr_array_add (w->mappings, m);
  g_hash_table_insert (w->mapping_index, g_strdup (path), GUINT_TO_POINTER (w->mappings->len));
  return w->mappings->len - 1;
}

static const char *
frame_file (FcProfile     *profile,
            const FcFrame *frame)
{
  const char *file = fc_profile_string (profile, frame->abs_path);

  return file != NULL && file[0] != '\0' ? file : fc_profile_string (profile, frame->filename);
}

static const char *
frame_mapping_path (FcProfile     *profile,
                    const FcFrame *frame)
{
  const char *path = fc_profile_string (profile, frame->package);

  if ((path == NULL || path[0] == '\0') && frame->has_instruction_addr)
    path = fc_profile_string (profile, frame->module);
  return path != NULL && path[0] != '\0' ? path : NULL;
}

static guint
add_function (Writer        *w,
              FcProfile     *profile,
              const FcFrame *frame)
{
  g_autoptr(GString) key = g_string_new (NULL);
  const char *name = fc_profile_string (profile, frame->function);
  const char *file = frame_file (profile, frame);
  PFunction *f;
  gpointer found;

  g_string_append_printf (key, "%s\x1f%s", name ? name : "", file ? file : "");
  found = g_hash_table_lookup (w->function_index, key->str);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  f = arena_new (w, DESC (function));
  f->name_strindex = fc_string_table_add (&w->strings, name);
  f->system_name_strindex = f->name_strindex;
  f->filename_strindex = fc_string_table_add (&w->strings, file);
  return dedup (w->function_index, w->functions, key, f);
}

/* frames[first..end) at one address: one location, inlined callees first */
static guint
add_location (Writer        *w,
              FcProfile     *profile,
              const guint32 *frames,
              guint          n)
{
  g_autoptr(GString) key = g_string_new (NULL);
  const FcFrame *leaf = fc_profile_get_frame (profile, frames[0]);
  const FcFrame *outer = fc_profile_get_frame (profile, frames[n - 1]);
  const char *path = frame_mapping_path (profile, outer);
  guint mapping = path != NULL ? add_mapping (w, profile, path) : 0;
  guint64 address = leaf->has_instruction_addr ? leaf->instruction_addr : 0;
  PLine **lines = arena_array (w, PLine *, n);
  PLocation *loc;
  gpointer found;

  g_string_append_printf (key, "%u:%" PRIx64 "", mapping, address);
  for (guint i = 0; i < n; i++)
    {
      const FcFrame *frame = fc_profile_get_frame (profile, frames[i]);
      PLine *line = arena_new (w, DESC (line));

      line->function_index = add_function (w, profile, frame);
      line->line = frame->lineno > 0 ? frame->lineno : 0;
      line->column = frame->colno > 0 ? frame->colno : 0;
      lines[i] = line;
      g_string_append_printf (key, "|%d:%" PRId64 ":%" PRId64,
                              line->function_index, line->line, line->column);
    }
  found = g_hash_table_lookup (w->location_index, key->str);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  loc = arena_new (w, DESC (location));
  loc->mapping_index = mapping;
  loc->address = address;
  loc->lines = lines;
  loc->n_lines = n;
  return dedup (w->location_index, w->locations, key, loc);
}

/* Per stack id: the location of its leaf-side run (index + 1, 0 until known)
 * and the stack above it (see fc_interop_leaf_location) */
typedef struct {
  guint32 location;
  guint32 above;
} StackLocation;

static guint32
leaf_location (Writer        *w,
               FcProfile     *profile,
               StackLocation *by_stack,
               guint32        stack,
               GArray        *frames)
{
  StackLocation *sl = &by_stack[stack];
  guint32 *cached;

  if (sl->location != 0)
    return sl->location - 1;

  sl->above = fc_interop_leaf_location (profile, stack, frames);
  /* most locations are one frame: remember them by frame id, no key to build */
  cached = &g_array_index (w->frame_location, guint32, g_array_index (frames, guint32, 0));
  if (frames->len == 1 && *cached != 0)
    sl->location = *cached;
  else
    {
      sl->location = add_location (w, profile, (const guint32 *) (gpointer) frames->data, frames->len) + 1;
      if (frames->len == 1)
        *cached = sl->location;
    }
  return sl->location - 1;
}

static guint
add_stack (Writer        *w,
           FcProfile     *profile,
           StackLocation *by_stack,
           guint32        stack,
           GArray        *frames)
{
  g_autoptr(GBytes) key = NULL;
  const FcStackNode *node = fc_profile_get_stack (profile, stack);
  gint32 *locs = g_new (gint32, MAX (node->depth, 1));
  guint n = 0;
  PStack *s;
  gpointer found;

  for (guint32 at = stack; at != FC_STACK_EMPTY; at = by_stack[at].above)
    locs[n++] = leaf_location (w, profile, by_stack, at, frames);
  key = g_bytes_new_take (locs, n * sizeof (gint32));
  found = g_hash_table_lookup (w->stack_index, key);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  s = arena_new (w, DESC (stack));
  s->location_indices = (gint32 *) g_bytes_get_data (key, NULL);
  s->n_location_indices = n;
  g_ptr_array_add (w->stacks, s);
  g_hash_table_insert (w->stack_index, g_bytes_ref (key), GUINT_TO_POINTER (w->stacks->len));
  return w->stacks->len - 1;
}

static PKeyValue *
resource_attribute (Writer     *w,
                    const char *key,
                    const char *value)
{
  PKeyValue *kv = arena_new (w, &opentelemetry__proto__common__v1__key_value__descriptor);

  kv->key = (char *) key;
  kv->value = arena_new (w, &opentelemetry__proto__common__v1__any_value__descriptor);
  kv->value->value_case = ANY_STRING;
  kv->value->string_value = arena_keep (w, g_strdup (value));
  return kv;
}

static gboolean
hex_to_bytes (Writer              *w,
              const char          *hex,
              gsize                want,
              ProtobufCBinaryData *out)
{
  g_autofree guint8 *data = NULL;
  g_autoptr(GString) clean = g_string_new (NULL);

  if (hex == NULL)
    return FALSE;
  for (const char *p = hex; *p; p++)
    if (*p != '-')
      g_string_append_c (clean, *p);
  if (clean->len != want * 2)
    return FALSE;
  data = g_malloc (want);
  for (gsize i = 0; i < want; i++)
    {
      int hi = g_ascii_xdigit_value (clean->str[2 * i]);
      int lo = g_ascii_xdigit_value (clean->str[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return FALSE;
      data[i] = (guint8) (hi << 4 | lo);
    }
  out->data = arena_keep (w, g_steal_pointer (&data));
  out->len = want;
  return TRUE;
}

/* the V1 transaction's trace and the span of its event, if any */
static guint
add_link (Writer    *w,
          FcProfile *profile)
{
  JsonObject *txn = fc_json_get_object (fc_profile_get_meta (profile), "transaction");
  JsonObject *event = fc_profile_get_linked_event (profile);
  JsonObject *trace = NULL;
  PLink *link = NULL;

  if (event != NULL && fc_json_get_object (event, "contexts") != NULL)
    trace = fc_json_get_object (fc_json_get_object (event, "contexts"), "trace");
  link = arena_new (w, DESC (link));
  if (!hex_to_bytes (w, trace ? fc_json_get_string (trace, "trace_id") : NULL, 16, &link->trace_id) &&
      !hex_to_bytes (w, txn ? fc_json_get_string (txn, "trace_id") : NULL, 16, &link->trace_id))
    return 0;
  hex_to_bytes (w, trace ? fc_json_get_string (trace, "span_id") : NULL, 8, &link->span_id);
  g_ptr_array_add (w->links, link);
  return w->links->len - 1;
}

static void
write_profile (Writer    *w,
               FcProfile *profile)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) stack_cache = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_autofree StackLocation *by_stack = g_new0 (StackLocation, MAX (fc_profile_get_n_stacks (profile), 1));
  g_autoptr(GArray) first_sample = g_array_new (FALSE, TRUE, sizeof (guint32));   /* OTLP stack -> sample + 1 */
  g_autoptr(GArray) next_sample = g_array_new (FALSE, FALSE, sizeof (guint32));   /* sample -> sample + 1 */
  g_autoptr(GArray) sample_thread = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GPtrArray) samples = g_ptr_array_new ();
  g_autofree guint32 *identity = NULL;   /* model sample -> OTLP sample */
  g_autoptr(GPtrArray) resource_attrs = g_ptr_array_new ();
  g_autofree gint32 *thread_attrs = NULL;    /* two per thread: id, name (-1 when none) */
  PResourceProfiles *rp = arena_new (w, DESC (resource_profiles));
  PScopeProfiles *sp = arena_new (w, DESC (scope_profiles));
  PProfile *p = arena_new (w, DESC (profile));
  PScopeProfiles **sps = arena_array (w, PScopeProfiles *, 1);
  PProfile **ps = arena_array (w, PProfile *, 1);
  const FcSample *all;
  guint n_samples = 0;
  gint64 first = 0, last = 0;
  guint link = add_link (w, profile);
  const char *active = fc_profile_get_active_thread_id (profile);
  const char *release = fc_profile_get_release (profile);
  const char *environment = fc_profile_get_environment (profile);
  const char *platform = fc_profile_get_platform (profile);
  const char *id_hex;
  JsonObject *txn = fc_json_get_object (fc_profile_get_meta (profile), "transaction");

  /* resource: who produced the samples */
  g_ptr_array_add (resource_attrs, resource_attribute (w, "service.name",
                                                       txn && fc_json_get_string (txn, "name")
                                                       ? fc_json_get_string (txn, "name") : "unknown_service"));
  if (release != NULL)
    g_ptr_array_add (resource_attrs, resource_attribute (w, "service.version", release));
  if (environment != NULL)
    g_ptr_array_add (resource_attrs, resource_attribute (w, "deployment.environment.name", environment));
  if (platform != NULL)
    g_ptr_array_add (resource_attrs, resource_attribute (w, "sentry.platform", platform));
  if (fc_profile_get_profiler_id (profile) != NULL)
    g_ptr_array_add (resource_attrs, resource_attribute (w, "sentry.profiler_id", fc_profile_get_profiler_id (profile)));
  rp->resource = arena_new (w, &opentelemetry__proto__resource__v1__resource__descriptor);
  rp->resource->attributes = arena_steal_ptrs (w, resource_attrs, &rp->resource->n_attributes);

  sp->scope = arena_new (w, &opentelemetry__proto__common__v1__instrumentation_scope__descriptor);
  sp->scope->name = (char *) "flamecast";
  sp->scope->version = (char *) FC_VERSION;
  sps[0] = sp;
  rp->scope_profiles = sps;
  rp->n_scope_profiles = 1;
  ps[0] = p;
  sp->profiles = ps;
  sp->n_profiles = 1;
  g_ptr_array_add (w->resource_profiles, rp);

  p->sample_type = arena_new (w, DESC (value_type));
  p->sample_type->type_strindex = fc_string_table_add (&w->strings, "samples");
  p->sample_type->unit_strindex = fc_string_table_add (&w->strings, "count");
  p->period_type = arena_new (w, DESC (value_type));
  p->period_type->type_strindex = fc_string_table_add (&w->strings, "wall");
  p->period_type->unit_strindex = fc_string_table_add (&w->strings, "nanoseconds");
  p->period = fc_interop_period_ns (profile);
  id_hex = fc_profile_get_chunk_id (profile);
  if (id_hex == NULL)
    id_hex = fc_profile_get_event_id (profile);
  hex_to_bytes (w, id_hex, 16, &p->profile_id);

  thread_attrs = g_new (gint32, 2 * MAX (fc_profile_get_n_threads (profile), 1));
  for (guint t = 0; t < fc_profile_get_n_threads (profile); t++)
    {
      const FcThread *thread = fc_profile_get_thread (profile, t);
      const char *tid = fc_profile_string (profile, thread->tid);
      const char *name = fc_profile_string (profile, thread->name);
      guint64 num = 0;

      /* thread.id is an int by the semantic conventions; "0x1f" style ids too */
      if (tid != NULL && g_ascii_string_to_unsigned (tid, 10, 0, G_MAXINT64, &num, NULL))
        thread_attrs[2 * t] = add_attribute (w, "thread.id", NULL, (gint64) num);
      else if (tid != NULL && g_str_has_prefix (tid, "0x") &&
               g_ascii_string_to_unsigned (tid + 2, 16, 0, G_MAXINT64, &num, NULL))
        thread_attrs[2 * t] = add_attribute (w, "thread.id", NULL, (gint64) num);
      else
        thread_attrs[2 * t] = add_attribute (w, "thread.id", tid ? tid : "", 0);
      thread_attrs[2 * t + 1] = name != NULL && name[0] != '\0' ? (gint32) add_attribute (w, "thread.name", name, 0) : -1;
    }

  g_array_set_size (stack_cache, fc_profile_get_n_stacks (profile));
  /* frame ids are this profile's */
  g_array_set_size (w->frame_location, 0);
  g_array_set_size (w->frame_location, fc_profile_get_n_frames (profile));
  all = fc_profile_get_samples (profile, &n_samples);
  identity = g_new (guint32, MAX (n_samples, 1));
  /* first the OTLP sample of each model sample, then every timestamp in one
   * block; the samples of one OTLP stack (one per thread that ran it) chain
   * from first_sample through next_sample, and their counts are kept apart
   * from the messages, which are scattered in the arena */
  for (guint i = 0; i < n_samples; i++)
    {
      const FcSample *s = &all[i];
      guint32 *cached = &g_array_index (stack_cache, guint32, s->stack);
      guint32 prev = 0, found = 0;

      if (*cached == 0)
        {
          *cached = add_stack (w, profile, by_stack, s->stack, frames) + 1;
          if (*cached > first_sample->len)
            g_array_set_size (first_sample, *cached);
        }
      for (guint32 at = g_array_index (first_sample, guint32, *cached - 1); at != 0 && found == 0;
           at = g_array_index (next_sample, guint32, at - 1))
        {
          if (g_array_index (sample_thread, guint32, at - 1) == s->thread)
            found = at;
          prev = at;
        }
      if (found == 0)
        {
          PSample *ps_ = arena_new (w, DESC (sample));
          const char *tid = fc_profile_string (profile, fc_profile_get_thread (profile, s->thread)->tid);
          gint32 *attrs = arena_array (w, gint32, 2);
          guint32 none = 0;

          ps_->stack_index = *cached - 1;
          attrs[0] = thread_attrs[2 * s->thread];
          ps_->n_attribute_indices = 1;
          if (thread_attrs[2 * s->thread + 1] >= 0)
            attrs[ps_->n_attribute_indices++] = thread_attrs[2 * s->thread + 1];
          ps_->attribute_indices = attrs;
          if (link != 0 && active != NULL && g_strcmp0 (active, tid) == 0)
            ps_->link_index = link;
          g_ptr_array_add (samples, ps_);
          g_array_append_val (sample_thread, s->thread);
          g_array_append_val (next_sample, none);
          g_array_append_val (counts, none);
          found = samples->len;
          if (prev == 0)
            g_array_index (first_sample, guint32, *cached - 1) = found;
          else
            g_array_index (next_sample, guint32, prev - 1) = found;
        }
      identity[i] = found - 1;
      g_array_index (counts, guint32, found - 1)++;
    }
  {
    guint64 *block = arena_array (w, guint64, n_samples);
    guint32 offset = 0;

    /* counts become each sample's next free slot in the block */
    for (guint i = 0; i < samples->len; i++)
      {
        PSample *s = g_ptr_array_index (samples, i);
        guint32 *count = &g_array_index (counts, guint32, i);

        s->timestamps_unix_nano = block + offset;
        s->n_timestamps_unix_nano = *count;
        offset += *count;
        *count = offset - *count;
      }
    for (guint i = 0; i < n_samples; i++)
      block[g_array_index (counts, guint32, identity[i])++] = (guint64) all[i].timestamp_ns;
  }
  p->samples = arena_steal_ptrs (w, samples, &p->n_samples);

  if (n_samples > 0)
    {
      fc_profile_get_time_range (profile, &first, &last);
      p->time_unix_nano = (guint64) first;
      /* the last sample stands for one interval */
      p->duration_nano = (guint64) (last - first + p->period);
    }
}

static void
writer_init (Writer *w)
{
  w->arena = g_ptr_array_new_with_free_func (g_free);
  fc_arena_init (&w->bump);
  fc_string_table_init (&w->strings);
  w->mappings = g_ptr_array_new ();
  w->locations = g_ptr_array_new ();
  w->functions = g_ptr_array_new ();
  w->links = g_ptr_array_new ();
  w->attributes = g_ptr_array_new ();
  w->stacks = g_ptr_array_new ();
  w->resource_profiles = g_ptr_array_new ();
  w->mapping_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->function_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->location_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->attribute_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* the keys own the location index arrays the stacks point to */
  w->stack_index = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  w->frame_location = g_array_new (FALSE, TRUE, sizeof (guint32));

  /* the zero entries: index 0 means "unset" everywhere */
  g_ptr_array_add (w->mappings, arena_new (w, DESC (mapping)));
  g_ptr_array_add (w->locations, arena_new (w, DESC (location)));
  g_ptr_array_add (w->functions, arena_new (w, DESC (function)));
  g_ptr_array_add (w->links, arena_new (w, DESC (link)));
  g_ptr_array_add (w->attributes, arena_new (w, DESC (key_value_and_unit)));
  g_ptr_array_add (w->stacks, arena_new (w, DESC (stack)));
}

static void
writer_clear (Writer *w)
{
  g_clear_pointer (&w->mapping_index, g_hash_table_unref);
  g_clear_pointer (&w->function_index, g_hash_table_unref);
  g_clear_pointer (&w->location_index, g_hash_table_unref);
  g_clear_pointer (&w->attribute_index, g_hash_table_unref);
  g_clear_pointer (&w->mappings, g_ptr_array_unref);
  g_clear_pointer (&w->locations, g_ptr_array_unref);
  g_clear_pointer (&w->functions, g_ptr_array_unref);
  g_clear_pointer (&w->links, g_ptr_array_unref);
  g_clear_pointer (&w->attributes, g_ptr_array_unref);
  g_clear_pointer (&w->stacks, g_ptr_array_unref);
  g_clear_pointer (&w->resource_profiles, g_ptr_array_unref);
  fc_string_table_clear (&w->strings);
  g_clear_pointer (&w->arena, g_ptr_array_unref);
  fc_arena_clear (&w->bump);
  g_clear_pointer (&w->stack_index, g_hash_table_unref);
  g_clear_pointer (&w->frame_location, g_array_unref);
}

/* the whole ProfilesData, owned by @w */
static PData *
build (Writer     *w,
       FcDocument *document)
{
  PData *data = arena_new (w, DESC (profiles_data));
  PDict *dict = arena_new (w, DESC (profiles_dictionary));

  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    write_profile (w, fc_document_get_profile (document, i));

  data->resource_profiles = arena_steal_ptrs (w, w->resource_profiles, &data->n_resource_profiles);
  dict->mapping_table = arena_steal_ptrs (w, w->mappings, &dict->n_mapping_table);
  dict->location_table = arena_steal_ptrs (w, w->locations, &dict->n_location_table);
  dict->function_table = arena_steal_ptrs (w, w->functions, &dict->n_function_table);
  dict->link_table = arena_steal_ptrs (w, w->links, &dict->n_link_table);
  dict->attribute_table = arena_steal_ptrs (w, w->attributes, &dict->n_attribute_table);
  dict->stack_table = arena_steal_ptrs (w, w->stacks, &dict->n_stack_table);
  dict->n_string_table = w->strings.strings->len;
  dict->string_table = (char **) w->strings.strings->pdata;
  data->dictionary = dict;
  return data;
}

GBytes *
fc_otlp_write (FcDocument  *document,
               GError     **error)
{
  Writer w = { 0 };
  PData *data;
  gsize size;
  guint8 *buf;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  writer_init (&w);
  data = build (&w, document);
  size = protobuf_c_message_get_packed_size (&data->base);
  buf = g_malloc (MAX (size, 1));
  protobuf_c_message_pack (&data->base, buf);
  writer_clear (&w);
  return g_bytes_new_take (buf, size);
}

GBytes *
fc_otlp_write_json (FcDocument  *document,
                    GError     **error)
{
  Writer w = { 0 };
  GString *out = g_string_sized_new (1 << 20);

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  writer_init (&w);
  fc_pb_json_write (out, &build (&w, document)->base);
  g_string_append_c (out, '\n');
  writer_clear (&w);
  return fc_interop_string_to_bytes (out);
}

/* ---- reading ---- */

typedef struct {
  const PDict  *dict;
  FcProfile    *profile;
  GString      *where;       /* "resource_profiles[0].scope_profiles[0].profiles[1]" */
  GArray       *stack_cache; /* OTLP stack index -> model stack id + 1 */
  GHashTable   *images;      /* mapping indices recorded as debug images */
  guint64      *expanded;    /* samples made from counts, in all profiles */
} Reader;

static const char *
dict_string (const PDict *dict,
             gint32       index)
{
  return index > 0 && (gsize) index < dict->n_string_table ? dict->string_table[index] : NULL;
}

static gboolean
check_index (Reader      *r,
             gint64       index,
             gsize        n,
             const char  *field,
             const char  *table,
             GError     **error)
{
  if (index >= 0 && (guint64) index < n)
    return TRUE;
  g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
               _("%s.%s: %" PRId64 " but the dictionary's %s has %zu entries"),
               r->where->str, field, index, table, n);
  return FALSE;
}

static const char *
any_string (const PDict     *dict,
            const PAnyValue *value)
{
  if (value == NULL)
    return NULL;
  if (value->value_case == ANY_STRING)
    return value->string_value;
  if (value->value_case == ANY_STRIDX)
    return dict_string (dict, value->string_value_strindex);
  return NULL;
}

static guint32
read_stack (Reader      *r,
            gint32       stack_index,
            GError     **error)
{
  const PDict *dict = r->dict;
  const PStack *stack;
  g_autoptr(GArray) frames = NULL;
  guint32 *cached;

  if (!check_index (r, stack_index, dict->n_stack_table, "stack_index", "stack_table", error))
    return G_MAXUINT32;
  if ((guint) stack_index >= r->stack_cache->len)
    g_array_set_size (r->stack_cache, stack_index + 1);
  cached = &g_array_index (r->stack_cache, guint32, stack_index);
  if (*cached != 0)
    return *cached - 1;

  frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  stack = dict->stack_table[stack_index];
  for (gsize i = 0; i < stack->n_location_indices; i++)
    {
      gint32 li = stack->location_indices[i];
      const PLocation *loc;
      const char *path = NULL;

      if (!check_index (r, li, dict->n_location_table, "stack.location_indices", "location_table", error))
        return G_MAXUINT32;
      loc = dict->location_table[li];
      if (loc->mapping_index != 0)
        {
          const PMapping *m;

          if (!check_index (r, loc->mapping_index, dict->n_mapping_table, "location.mapping_index",
                            "mapping_table", error))
            return G_MAXUINT32;
          m = dict->mapping_table[loc->mapping_index];
          path = dict_string (dict, m->filename_strindex);
          if (path != NULL && g_hash_table_add (r->images, GINT_TO_POINTER (loc->mapping_index)))
            {
              const char *build_id = NULL;

              for (gsize a = 0; a < m->n_attribute_indices; a++)
                {
                  gint32 ai = m->attribute_indices[a];

                  if (ai > 0 && (gsize) ai < dict->n_attribute_table &&
                      g_strcmp0 (dict_string (dict, dict->attribute_table[ai]->key_strindex),
                                 "process.executable.build_id.gnu") == 0)
                    build_id = any_string (dict, dict->attribute_table[ai]->value);
                }
              fc_profile_add_image (r->profile,
                                    fc_chunk_meta_new_elf_image (path, build_id, m->memory_start,
                                                                 m->memory_limit > m->memory_start
                                                                 ? m->memory_limit - m->memory_start
                                                                 : FC_DEBUG_IMAGE_UNKNOWN,
                                                                 FC_DEBUG_IMAGE_UNKNOWN));
            }
        }
      for (gsize l = 0; l < loc->n_lines; l++)
        {
          const PLine *line = loc->lines[l];
          const PFunction *fn;
          const char *file;
          FcFrame frame;
          guint32 id;

          if (!check_index (r, line->function_index, dict->n_function_table, "line.function_index",
                            "function_table", error))
            return G_MAXUINT32;
          fn = dict->function_table[line->function_index];
          fc_frame_init (&frame);
          frame.function = fc_profile_intern (r->profile, dict_string (dict, fn->name_strindex));
          file = dict_string (dict, fn->filename_strindex);
          if (file != NULL)
            {
              frame.filename = fc_profile_intern (r->profile, file);
              if (file[0] == '/')
                frame.abs_path = frame.filename;
            }
          frame.lineno = line->line > 0 && line->line <= G_MAXINT32 ? (gint32) line->line : FC_LINE_NONE;
          frame.colno = line->column > 0 && line->column <= G_MAXINT32 ? (gint32) line->column : FC_LINE_NONE;
          if (path != NULL)
            {
              frame.package = fc_profile_intern (r->profile, path);
              frame.module = frame.package;
            }
          if (loc->address != 0 || path != NULL)
            {
              frame.has_instruction_addr = TRUE;
              frame.instruction_addr = loc->address;
            }
          if (frames->len >= FC_READ_MAX_STACK_DEPTH)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           _("OTLP profiles: stack_table[%d]: more than %u frames, the reader's limit"), stack_index,
                           FC_READ_MAX_STACK_DEPTH);
              return G_MAXUINT32;
            }
          id = fc_profile_intern_frame (r->profile, &frame);
          g_array_append_val (frames, id);
        }
    }

  *cached = fc_profile_intern_stack_frames (r->profile, (guint32 *) frames->data, frames->len) + 1;
  if (!fc_interop_check_stacks (r->profile, "OTLP profiles", error))
    return G_MAXUINT32;
  return *cached - 1;
}

static guint32
read_thread (Reader        *r,
             const PSample *s,
             GError       **error)
{
  const PDict *dict = r->dict;
  g_autofree char *tid = NULL;
  const char *name = NULL;
  guint32 thread;

  for (gsize a = 0; a < s->n_attribute_indices; a++)
    {
      gint32 ai = s->attribute_indices[a];
      const PKeyValueAndUnit *kv;
      const char *key;

      if (!check_index (r, ai, dict->n_attribute_table, "attribute_indices", "attribute_table", error))
        return G_MAXUINT32;
      kv = dict->attribute_table[ai];
      key = dict_string (dict, kv->key_strindex);
      if (g_strcmp0 (key, "thread.id") == 0 && kv->value != NULL)
        {
          g_free (tid);
          if (kv->value->value_case == ANY_INT)
            tid = g_strdup_printf ("%" PRId64, kv->value->int_value);
          else
            tid = g_strdup (any_string (dict, kv->value));
        }
      else if (g_strcmp0 (key, "thread.name") == 0)
        name = any_string (dict, kv->value);
    }

  thread = fc_profile_ensure_thread (r->profile, tid != NULL && tid[0] != '\0' ? tid : "0");
  if (fc_profile_get_n_threads (r->profile) > FC_READ_MAX_THREADS)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   _("OTLP profiles: more than %u threads, the reader's limit"), FC_READ_MAX_THREADS);
      return G_MAXUINT32;
    }
  if (name != NULL && fc_profile_get_thread (r->profile, thread)->name == FC_STRING_NONE)
    fc_profile_set_thread_name (r->profile, thread, name);
  fc_profile_get_thread_mut (r->profile, thread)->has_metadata = TRUE;
  return thread;
}

static void
read_resource (FcProfile       *profile,
               const PResource *resource,
               const PDict     *dict)
{
  for (gsize i = 0; resource != NULL && i < resource->n_attributes; i++)
    {
      const PKeyValue *kv = resource->attributes[i];
      const char *key = kv->key != NULL && kv->key[0] != '\0' ? kv->key : dict_string (dict, kv->key_strindex);
      const char *value = any_string (dict, kv->value);

      if (value == NULL || key == NULL)
        continue;
      if (strcmp (key, "service.version") == 0)
        fc_profile_set_meta_string (profile, "release", value);
      else if (strcmp (key, "deployment.environment.name") == 0 || strcmp (key, "deployment.environment") == 0)
        fc_profile_set_meta_string (profile, "environment", value);
      else if (strcmp (key, "sentry.platform") == 0)
        fc_profile_set_meta_string (profile, "platform", value);
      else if (strcmp (key, "sentry.profiler_id") == 0 && strlen (value) == 32)
        fc_profile_set_meta_string (profile, "profiler_id", value);
    }
}

static gboolean
read_profile (Reader          *r,
              const PProfile  *p,
              GError         **error)
{
  gint64 period = p->period > 0 ? p->period : G_GINT64_CONSTANT (10000000);
  g_autoptr(GHashTable) cursors = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  gsize where_len = r->where->len;

  for (gsize i = 0; i < p->n_samples; i++)
    {
      const PSample *s = p->samples[i];
      guint32 stack, thread;

      g_string_append_printf (r->where, ".samples[%zu]", i);
      stack = read_stack (r, s->stack_index, error);
      if (stack == G_MAXUINT32)
        return FALSE;
      thread = read_thread (r, s, error);
      if (thread == G_MAXUINT32)
        return FALSE;

      if (s->n_timestamps_unix_nano > 0)
        for (gsize t = 0; t < s->n_timestamps_unix_nano; t++)
          fc_profile_append_sample (r->profile, (gint64) s->timestamps_unix_nano[t], thread, stack, 0);
      else
        {
          /* counts only: one sample per count, a period apart on their thread */
          gint64 count = s->n_values > 0 ? s->values[0] : 1;
          gint64 *cursor = g_hash_table_lookup (cursors, GUINT_TO_POINTER (thread + 1));

          if (count < 0)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("%s.values[0]: %" PRId64 " is negative"), r->where->str, count);
              return FALSE;
            }
          *r->expanded += count;
          if (*r->expanded > fc_interop_max_expanded_samples ())
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           _("%s.values[0]: more than %" PRIu64 " samples in all"), r->where->str,
                           fc_interop_max_expanded_samples ());
              return FALSE;
            }
          if (cursor == NULL)
            {
              cursor = g_new (gint64, 1);
              *cursor = (gint64) p->time_unix_nano;
              g_hash_table_insert (cursors, GUINT_TO_POINTER (thread + 1), cursor);
            }
          /* saturating: a time past 2200 is refused when the profile is finished */
          for (gint64 c = 0; c < count; c++, *cursor = *cursor > G_MAXINT64 - period ? G_MAXINT64 : *cursor + period)
            fc_profile_append_sample (r->profile, *cursor, thread, stack, 0);
        }
      g_string_truncate (r->where, where_len);
    }
  return TRUE;
}

static FcDocument *
read_data (const PData  *data,
           GError      **error)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(GString) where = g_string_new (NULL);
  static const PDict empty_dict = OPENTELEMETRY__PROTO__PROFILES__V1DEVELOPMENT__PROFILES_DICTIONARY__INIT;
  const PDict *dict = data->dictionary != NULL ? data->dictionary : &empty_dict;
  guint64 expanded = 0;

  for (gsize i = 0; i < data->n_resource_profiles; i++)
    {
      const PResourceProfiles *rp = data->resource_profiles[i];

      for (gsize j = 0; j < rp->n_scope_profiles; j++)
        for (gsize k = 0; k < rp->scope_profiles[j]->n_profiles; k++)
          {
            g_autoptr(FcProfile) profile = fc_interop_new_profile ("native");
            g_autoptr(GArray) cache = g_array_new (FALSE, TRUE, sizeof (guint32));
            g_autoptr(GHashTable) images = g_hash_table_new (g_direct_hash, g_direct_equal);
            Reader r = { dict, profile, where, cache, images, &expanded };

            g_string_printf (where, "resource_profiles[%zu].scope_profiles[%zu].profiles[%zu]", i, j, k);
            read_resource (profile, rp->resource, dict);
            if (!read_profile (&r, rp->scope_profiles[j]->profiles[k], error))
              return NULL;
            if (!fc_interop_finish_profile (doc, profile, where->str, error))
              return NULL;
          }
    }

  if (fc_document_get_n_profiles (doc) == 0)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING,
                           _("OTLP profiles: resource_profiles holds no profile"));
      return NULL;
    }
  return g_steal_pointer (&doc);
}

/* what OTLP may hold, checked before anything is decoded (protobuf and JSON) */
static const FcPbCap otlp_caps[] = {
  { DESC (profile), "samples", FC_READ_MAX_SAMPLES, N_("samples") },
  { DESC (profiles_dictionary), "location_table", FC_READ_MAX_FRAMES, N_("locations") },
  { DESC (profiles_dictionary), "function_table", FC_READ_MAX_FRAMES, N_("functions") },
  { DESC (profiles_dictionary), "mapping_table", FC_READ_MAX_FRAMES, N_("mappings") },
  { DESC (profiles_dictionary), "string_table", FC_READ_MAX_STRINGS, N_("strings") },
  { DESC (profiles_dictionary), "stack_table", FC_READ_MAX_STACKS, N_("stacks") },
  { DESC (profiles_dictionary), "attribute_table", FC_READ_MAX_STRINGS, N_("attributes") },
  { DESC (profiles_dictionary), "link_table", FC_READ_MAX_SAMPLES, N_("links") },
  { DESC (location), "lines", FC_READ_MAX_FRAMES, N_("lines") },
  { DESC (stack), "location_indices", FC_READ_MAX_STACK_FRAMES, N_("location references") },
  { DESC (sample), "timestamps_unix_nano", FC_READ_MAX_SAMPLES, N_("timestamps") },
};

/* NULL with @error set when a limit is passed, without when it is no ProfilesData */
static PData *
unpack (GBytes  *bytes,
        GError **error)
{
  FcPbLimits limits;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  fc_pb_limits_init (&limits, otlp_caps, G_N_ELEMENTS (otlp_caps));
  if (!fc_pb_scan (DESC (profiles_data), data, len, &limits, "OTLP profiles", error))
    return NULL;
  return (PData *) protobuf_c_message_unpack (DESC (profiles_data), NULL, len, data);
}

static gboolean
sniff_field (guint32       tag,
             guint         wire_type,
             const guint8 *payload,
             gsize         len,
             gpointer      user_data)
{
  gboolean *found = user_data;

  /* resource_profiles (1), dictionary (2): messages, and nothing else */
  if ((tag != 1 && tag != 2) || wire_type != 2)
    return FALSE;
  if (tag == 1 || len > 0)
    *found = TRUE;
  return TRUE;
}

gboolean
fc_otlp_sniff (GBytes *bytes)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gboolean found = FALSE;

  /* the top level only: decoding is for the read, within its limits */
  return fc_pb_walk_top (data, len, sniff_field, &found) && found;
}

FcDocument *
fc_otlp_read (GBytes  *bytes,
              GError **error)
{
  PData *data;
  FcDocument *doc;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = unpack (bytes, error);
  if (data == NULL)
    {
      if (error != NULL && *error != NULL)
        return NULL;
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("OTLP profiles: %zu bytes that are not a ProfilesData protobuf message"),
                   g_bytes_get_size (bytes));
      return NULL;
    }
  doc = read_data (data, error);
  protobuf_c_message_free_unpacked (&data->base, NULL);
  return doc;
}

FcDocument *
fc_otlp_read_json (GBytes  *bytes,
                   GError **error)
{
  ProtobufCMessage *data;
  FcDocument *doc;
  FcPbLimits limits;
  gsize len = 0;
  const char *text = g_bytes_get_data (bytes, &len);

  fc_pb_limits_init (&limits, otlp_caps, G_N_ELEMENTS (otlp_caps));
  data = fc_pb_json_read (DESC (profiles_data), text, len, &limits, "OTLP/JSON", error);
  if (data == NULL)
    return NULL;
  doc = read_data ((PData *) data, error);
  protobuf_c_message_free_unpacked (data, NULL);
  return doc;
}

gboolean
fc_otlp_parse_response (GBytes  *body,
                        gint64  *rejected,
                        char   **message,
                        GError **error)
{
  gsize len = 0;
  const guint8 *data = body != NULL ? g_bytes_get_data (body, &len) : NULL;
  PResponse *response;

  *rejected = 0;
  *message = NULL;
  if (len == 0)
    return TRUE;
  response = opentelemetry__proto__collector__profiles__v1development__export_profiles_service_response__unpack (NULL, len, data);
  if (response == NULL)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("the %zu-byte answer is not an ExportProfilesServiceResponse"), len);
      return FALSE;
    }
  if (response->partial_success != NULL)
    {
      *rejected = response->partial_success->rejected_profiles;
      if (response->partial_success->error_message != NULL && response->partial_success->error_message[0] != '\0')
        *message = g_strdup (response->partial_success->error_message);
    }
  protobuf_c_message_free_unpacked (&response->base, NULL);
  return TRUE;
}

char *
fc_otlp_dup_status_message (GBytes *body)
{
  gsize len = 0;
  const guint8 *data = body != NULL ? g_bytes_get_data (body, &len) : NULL;
  g_autoptr(JsonObject) object = NULL;
  Google__Rpc__Status *status;
  char *message = NULL;

  if (len == 0)
    return NULL;
  if ((object = fc_json_parse_object ((const char *) data, len, "the answer", NULL)) != NULL)
    {
      const char *m = fc_json_get_string (object, "message");

      return m != NULL && m[0] != '\0' ? g_strdup (m) : NULL;
    }
  status = google__rpc__status__unpack (NULL, len, data);
  if (status != NULL)
    {
      if (status->message != NULL && status->message[0] != '\0' && g_utf8_validate (status->message, -1, NULL))
        message = g_strdup (status->message);
      google__rpc__status__free_unpacked (status, NULL);
      return message;
    }
  /* plain text, as some proxies answer */
  for (gsize i = 0; i < MIN (len, 300); i++)
    if (data[i] < 0x20 && data[i] != '\n' && data[i] != '\r' && data[i] != '\t')
      return NULL;
  if (g_utf8_validate ((const char *) data, MIN (len, 300), NULL))
    {
      message = g_strndup ((const char *) data, MIN (len, 300));
      g_strdelimit (message, "\r\n\t", ' ');
      g_strstrip (message);
    }
  return message;
}
