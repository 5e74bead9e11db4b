/* fc-pprof.c - pprof's perftools.profiles.Profile (gzip-compressed protobuf)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-chunk-meta.h"
#include "fc-format-error.h"
#include "fc-interop-private.h"
#include "fc-pb-limits-private.h"
#include "fc-pprof.h"
#include "pprof-profile.pb-c.h"

typedef Perftools__Profiles__Profile   PpProfile;
typedef Perftools__Profiles__Sample    PpSample;
typedef Perftools__Profiles__Label     PpLabel;
typedef Perftools__Profiles__Location  PpLocation;
typedef Perftools__Profiles__Line      PpLine;
typedef Perftools__Profiles__Function  PpFunction;
typedef Perftools__Profiles__Mapping   PpMapping;
typedef Perftools__Profiles__ValueType PpValueType;


/* ---- writing ---- */

typedef struct {
  FcArena        bump;         /* messages and their arrays */
  GPtrArray     *arena;
  FcStringTable  strings;
  GPtrArray     *samples, *locations, *functions, *mappings;
  GHashTable    *function_index, *location_index, *mapping_index;   /* content key -> id */
} Writer;

static gpointer
arena_new (Writer                           *w,
           const ProtobufCMessageDescriptor *desc)
{
  ProtobufCMessage *m = fc_arena_alloc0 (&w->bump, desc->sizeof_message);

  protobuf_c_message_init (desc, m);
  return m;
}

static gpointer
arena_keep (Writer   *w,
            gpointer  data)
{
  g_ptr_array_add (w->arena, data);
  return data;
}

static guint64
lookup_id (GHashTable *index,
           GString    *key)
{
  return GPOINTER_TO_SIZE (g_hash_table_lookup (index, key->str));
}

static guint64
add_mapping (Writer     *w,
             FcProfile  *profile,
             const char *path)
{
  g_autoptr(GString) key = g_string_new (path);
  guint64 id = lookup_id (w->mapping_index, key);
  const FcDebugImage *image;
  PpMapping *m;

  if (id != 0)
    return id;
  m = arena_new (w, &perftools__profiles__mapping__descriptor);
  m->id = w->mappings->len + 1;
  m->filename = fc_string_table_add_copy (&w->strings, path);
  image = fc_profile_find_image (profile, path);
  if (image != NULL)
    {
      fc_chunk_meta_image_range (image, &m->memory_start, &m->memory_limit);
      m->build_id = fc_string_table_add_copy (&w->strings, fc_chunk_meta_image_build_id (image));
    }
  m->has_functions = TRUE;
  g_ptr_array_add (w->mappings, m);
  g_hash_table_insert (w->mapping_index, g_strdup (path), GSIZE_TO_POINTER (m->id));
  return m->id;
}

static guint64
add_function (Writer        *w,
              FcProfile     *profile,
              guint32        frame_id)
{
  g_autoptr(GString) key = g_string_new (NULL);
  char buf[256];
  const FcFrame *frame = fc_profile_get_frame (profile, frame_id);
  /* pprof tools show nothing for a nameless function: give them the label */
  const char *name = fc_profile_frame_label (profile, frame_id, buf, sizeof buf);
  const char *file = fc_profile_string (profile, frame->abs_path);
  PpFunction *f;
  guint64 id;

  if (file == NULL || file[0] == '\0')
    file = fc_profile_string (profile, frame->filename);
  g_string_append_printf (key, "%s\x1f%s", name, file ? file : "");
  id = lookup_id (w->function_index, key);
  if (id != 0)
    return id;
  f = arena_new (w, &perftools__profiles__function__descriptor);
  f->id = w->functions->len + 1;
  f->name = fc_string_table_add_copy (&w->strings, name);
  f->system_name = f->name;
  f->filename = fc_string_table_add (&w->strings, file);
  g_ptr_array_add (w->functions, f);
  g_hash_table_insert (w->function_index, g_strdup (key->str), GSIZE_TO_POINTER (f->id));
  return f->id;
}

static guint64
add_location (Writer        *w,
              FcProfile     *profile,
              const guint32 *frames,
              guint          n)
{
  g_autoptr(GString) key = g_string_new (NULL);
  const FcFrame *leaf = fc_profile_get_frame (profile, frames[0]);
  const FcFrame *outer = fc_profile_get_frame (profile, frames[n - 1]);
  const char *path = fc_profile_string (profile, outer->package);
  guint64 mapping, id;
  PpLine **lines = fc_arena_alloc0 (&w->bump, sizeof (PpLine *) * n);
  PpLocation *loc;

  if ((path == NULL || path[0] == '\0') && outer->has_instruction_addr)
    path = fc_profile_string (profile, outer->module);
  mapping = path != NULL && path[0] != '\0' ? add_mapping (w, profile, path) : 0;
  g_string_append_printf (key, "%" PRIu64 ":%" PRIx64 "", mapping,
                          leaf->has_instruction_addr ? leaf->instruction_addr : 0);
  for (guint i = 0; i < n; i++)
    {
      const FcFrame *frame = fc_profile_get_frame (profile, frames[i]);
      PpLine *line = arena_new (w, &perftools__profiles__line__descriptor);

      line->function_id = add_function (w, profile, frames[i]);
      line->line = frame->lineno > 0 ? frame->lineno : 0;
      line->column = frame->colno > 0 ? frame->colno : 0;
      lines[i] = line;
      g_string_append_printf (key, "|%" PRIu64 ":%" PRId64 ":%" PRId64,
                              line->function_id, line->line, line->column);
    }
  id = lookup_id (w->location_index, key);
  if (id != 0)
    return id;
  loc = arena_new (w, &perftools__profiles__location__descriptor);
  loc->id = w->locations->len + 1;
  loc->mapping_id = mapping;
  loc->address = leaf->has_instruction_addr ? leaf->instruction_addr : 0;
  loc->line = lines;
  loc->n_line = n;
  g_ptr_array_add (w->locations, loc);
  g_hash_table_insert (w->location_index, g_strdup (key->str), GSIZE_TO_POINTER (loc->id));
  return loc->id;
}

static PpLabel *
new_label (Writer     *w,
           const char *key,
           const char *value)
{
  PpLabel *l = arena_new (w, &perftools__profiles__label__descriptor);

  l->key = fc_string_table_add (&w->strings, key);
  l->str = fc_string_table_add_copy (&w->strings, value);
  return l;
}

/* Per stack id: the location of its leaf-side run and the stack above it
 * (see fc_interop_leaf_location), and every location id leaf first, in the
 * arena where samples point, once a sample has the stack */
typedef struct {
  guint64  location;    /* 0 until known */
  guint32  above;
  guint32  n_ids;
  guint64 *ids;
} StackLocations;

static guint64
leaf_location (Writer    *w,
               FcProfile *profile,
               GArray    *by_stack,
               GArray    *frame_location,
               guint32    stack,
               GArray    *frames)
{
  StackLocations *sl = &g_array_index (by_stack, StackLocations, stack);
  guint64 *cached;

  if (sl->location != 0)
    return sl->location;

  sl->above = fc_interop_leaf_location (profile, stack, frames);
  /* most locations are one frame: their ids by frame id, no key to build */
  cached = &g_array_index (frame_location, guint64, g_array_index (frames, guint32, 0));
  if (frames->len == 1 && *cached != 0)
    sl->location = *cached;
  else
    {
      sl->location = add_location (w, profile, (const guint32 *) (gpointer) frames->data, frames->len);
      if (frames->len == 1)
        *cached = sl->location;
    }
  return sl->location;
}

static const StackLocations *
stack_locations (Writer    *w,
                 FcProfile *profile,
                 GArray    *by_stack,
                 GArray    *frame_location,
                 guint32    stack,
                 GArray    *frames,
                 GArray    *ids)
{
  StackLocations *sl = &g_array_index (by_stack, StackLocations, stack);

  if (sl->ids != NULL)
    return sl;

  g_array_set_size (ids, 0);
  for (guint32 at = stack; at != FC_STACK_EMPTY; at = g_array_index (by_stack, StackLocations, at).above)
    {
      guint64 id = leaf_location (w, profile, by_stack, frame_location, at, frames);

      g_array_append_val (ids, id);
    }
  sl->n_ids = ids->len;
  sl->ids = fc_arena_alloc0 (&w->bump, sizeof (guint64) * MAX (ids->len, 1));
  if (ids->len > 0)    /* an empty GArray's data is NULL, which memcpy may not be given */
    memcpy (sl->ids, ids->data, sizeof (guint64) * ids->len);
  return sl;
}

/* One pprof sample per (thread, stack): the samples of a stack chain through @next */
typedef struct {
  guint32   thread;
  guint32   next;     /* index + 1 in the nodes, 0 at the end */
  PpSample *sample;
} SampleNode;

static void
write_profile (Writer    *w,
               FcProfile *profile,
               gint64     period)
{
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) by_stack = g_array_new (FALSE, TRUE, sizeof (StackLocations));
  g_autoptr(GArray) frame_location = g_array_new (FALSE, TRUE, sizeof (guint64));
  /* stack -> its first node + 1; a chain is as long as the threads that ran the stack */
  g_autoptr(GArray) first_node = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_autoptr(GArray) nodes = g_array_new (FALSE, FALSE, sizeof (SampleNode));
  GArray *thread_labels = g_array_new (FALSE, TRUE, sizeof (PpLabel *));   /* kept by the arena */
  const FcSample *all;
  guint n = 0;

  g_array_set_size (by_stack, fc_profile_get_n_stacks (profile));
  g_array_set_size (first_node, fc_profile_get_n_stacks (profile));
  g_array_set_size (frame_location, fc_profile_get_n_frames (profile));
  g_array_set_size (thread_labels, 2 * fc_profile_get_n_threads (profile));
  all = fc_profile_get_samples (profile, &n);
  for (guint i = 0; i < n; i++)
    {
      guint32 *head = &g_array_index (first_node, guint32, all[i].stack);
      guint32 prev = 0;
      PpSample *s = NULL;

      for (guint32 at = *head; at != 0 && s == NULL; at = g_array_index (nodes, SampleNode, at - 1).next)
        {
          if (g_array_index (nodes, SampleNode, at - 1).thread == all[i].thread)
            s = g_array_index (nodes, SampleNode, at - 1).sample;
          prev = at;
        }

      if (s == NULL)
        {
          const StackLocations *locs = stack_locations (w, profile, by_stack, frame_location, all[i].stack,
                                                        frames, ids);
          SampleNode node = { all[i].thread, 0, NULL };

          s = arena_new (w, &perftools__profiles__sample__descriptor);
          s->location_id = locs->ids;
          s->n_location_id = locs->n_ids;
          s->value = fc_arena_alloc0 (&w->bump, sizeof (gint64) * 2);
          s->n_value = 2;
          /* a thread's labels are the same messages for all its samples */
          if (g_array_index (thread_labels, PpLabel *, 2 * all[i].thread) == NULL)
            {
              const FcThread *thread = fc_profile_get_thread (profile, all[i].thread);
              const char *name = fc_profile_string (profile, thread->name);

              g_array_index (thread_labels, PpLabel *, 2 * all[i].thread) =
                new_label (w, "thread.id", fc_profile_string (profile, thread->tid));
              if (name != NULL && name[0] != '\0')
                g_array_index (thread_labels, PpLabel *, 2 * all[i].thread + 1) = new_label (w, "thread.name", name);
            }
          s->label = &g_array_index (thread_labels, PpLabel *, 2 * all[i].thread);
          s->n_label = s->label[1] != NULL ? 2 : 1;
          g_ptr_array_add (w->samples, s);

          node.sample = s;
          g_array_append_val (nodes, node);
          if (prev == 0)
            *head = nodes->len;
          else
            g_array_index (nodes, SampleNode, prev - 1).next = nodes->len;
        }
      s->value[0] += 1;
      s->value[1] += period;
    }

  arena_keep (w, g_array_free (thread_labels, FALSE));
}

/* ---- the samples' wire format, by hand ---- */

static inline gsize
varint_size (guint64 v)
{
  gsize n = 1;

  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

static inline guint8 *
put_varint (guint8  *p,
            guint64  v)
{
  while (v >= 0x80)
    {
      *p++ = (guint8) (v | 0x80);
      v >>= 7;
    }
  *p++ = (guint8) v;
  return p;
}

/* a proto3 int64 field (varint wire type), left out at zero */
static inline gsize
int64_field_size (gint64 v)
{
  return v != 0 ? 1 + varint_size ((guint64) v) : 0;
}

static inline guint8 *
put_int64_field (guint8  *p,
                 guint    number,
                 gint64   v)
{
  if (v == 0)
    return p;
  *p++ = (guint8) (number << 3);
  return put_varint (p, (guint64) v);
}

static gsize
label_size (const PpLabel *l)
{
  return int64_field_size (l->key) + int64_field_size (l->str) +
         int64_field_size (l->num) + int64_field_size (l->num_unit);
}

/* Appends Profile.sample (field 2) for each of @samples to @out, as
 * protobuf_c_message_pack() writes them: packed location_id (1) and value
 * (2), then the labels (3). The samples are most of a profile, and
 * protobuf-c sizes each one twice (for the profile's size, then again for
 * the sample's own length as it packs it). */
static void
append_samples (GByteArray       *out,
                PpSample * const *samples,
                gsize             n)
{
  for (gsize i = 0; i < n; i++)
    {
      const PpSample *sample = samples[i];
      gsize ids_len = 0, values_len = 0, size = 0, bound;
      guint8 *p;

      for (gsize j = 0; j < sample->n_location_id; j++)
        ids_len += varint_size (sample->location_id[j]);
      for (gsize j = 0; j < sample->n_value; j++)
        values_len += varint_size ((guint64) sample->value[j]);
      if (sample->n_location_id > 0)
        size += 1 + varint_size (ids_len) + ids_len;
      if (sample->n_value > 0)
        size += 1 + varint_size (values_len) + values_len;
      for (gsize j = 0; j < sample->n_label; j++)
        {
          gsize label_len = label_size (sample->label[j]);

          size += 1 + varint_size (label_len) + label_len;
        }

      bound = out->len + 1 + varint_size (size) + size;
      g_byte_array_set_size (out, bound);
      p = out->data + bound - (1 + varint_size (size) + size);
      *p++ = 2 << 3 | 2;
      p = put_varint (p, size);
      if (sample->n_location_id > 0)
        {
          *p++ = 1 << 3 | 2;
          p = put_varint (p, ids_len);
          for (gsize j = 0; j < sample->n_location_id; j++)
            p = put_varint (p, sample->location_id[j]);
        }
      if (sample->n_value > 0)
        {
          *p++ = 2 << 3 | 2;
          p = put_varint (p, values_len);
          for (gsize j = 0; j < sample->n_value; j++)
            p = put_varint (p, (guint64) sample->value[j]);
        }
      for (gsize j = 0; j < sample->n_label; j++)
        {
          const PpLabel *l = sample->label[j];

          *p++ = 3 << 3 | 2;
          p = put_varint (p, label_size (l));
          p = put_int64_field (p, 1, l->key);
          p = put_int64_field (p, 2, l->str);
          p = put_int64_field (p, 3, l->num);
          p = put_int64_field (p, 4, l->num_unit);
        }
      g_assert (p == out->data + out->len);
    }
}

/* @message packed at the end of @out */
static void
append_packed (GByteArray             *out,
               const ProtobufCMessage *message)
{
  gsize at = out->len;
  gsize size = protobuf_c_message_get_packed_size (message);

  g_byte_array_set_size (out, at + size);
  protobuf_c_message_pack (message, out->data + at);
}

GBytes *
fc_pprof_write (FcDocument  *document,
                GError     **error)
{
  Writer w = { 0 };
  PpProfile p = PERFTOOLS__PROFILES__PROFILE__INIT;
  PpValueType *types[2];
  PpValueType period_type = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
  gint64 first = G_MAXINT64, last = G_MININT64;
  gint64 period = 0;
  g_autoptr(GByteArray) buf = NULL;
  GBytes *out;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  w.arena = g_ptr_array_new_with_free_func (g_free);
  fc_arena_init (&w.bump);
  fc_string_table_init (&w.strings);
  w.samples = g_ptr_array_new ();
  w.locations = g_ptr_array_new ();
  w.functions = g_ptr_array_new ();
  w.mappings = g_ptr_array_new ();
  w.function_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w.location_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w.mapping_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    {
      FcProfile *profile = fc_document_get_profile (document, i);
      gint64 a, b;

      if (period == 0)
        period = fc_interop_period_ns (profile);
      if (fc_profile_get_n_samples (profile) > 0)
        {
          fc_profile_get_time_range (profile, &a, &b);
          first = MIN (first, a);
          last = MAX (last, b);
        }
      write_profile (&w, profile, period);
    }
  if (period == 0)
    period = G_GINT64_CONSTANT (1000000000) / 101;

  for (guint i = 0; i < 2; i++)
    {
      types[i] = arena_new (&w, &perftools__profiles__value_type__descriptor);
      types[i]->type = fc_string_table_add (&w.strings, i == 0 ? "samples" : "wall");
      types[i]->unit = fc_string_table_add (&w.strings, i == 0 ? "count" : "nanoseconds");
    }
  p.sample_type = types;
  p.n_sample_type = 2;
  period_type.type = fc_string_table_add (&w.strings, "wall");
  period_type.unit = fc_string_table_add (&w.strings, "nanoseconds");
  p.period_type = &period_type;
  p.period = period;
  if (first <= last)
    {
      p.time_nanos = first;
      p.duration_nanos = last - first + period;
    }
  p.sample = (PpSample **) w.samples->pdata;
  p.n_sample = w.samples->len;
  p.location = (PpLocation **) w.locations->pdata;
  p.n_location = w.locations->len;
  p.function = (PpFunction **) w.functions->pdata;
  p.n_function = w.functions->len;
  p.mapping = (PpMapping **) w.mappings->pdata;
  p.n_mapping = w.mappings->len;
  p.string_table = (char **) w.strings.strings->pdata;
  p.n_string_table = w.strings.strings->len;

  /* Fields in number order, as protobuf-c writes a whole Profile: the
   * sample types (1), the samples (2) by hand, then everything else. */
  {
    PpProfile head = PERFTOOLS__PROFILES__PROFILE__INIT;

    head.sample_type = p.sample_type;
    head.n_sample_type = p.n_sample_type;
    p.sample_type = NULL;
    p.n_sample_type = 0;
    p.sample = NULL;
    p.n_sample = 0;
    buf = g_byte_array_sized_new (w.samples->len * 64 + 4096);
    append_packed (buf, &head.base);
    append_samples (buf, (PpSample * const *) w.samples->pdata, w.samples->len);
    append_packed (buf, &p.base);
  }
  out = fc_interop_gzip (buf->data, buf->len, error);

  g_hash_table_unref (w.function_index);
  g_hash_table_unref (w.location_index);
  g_hash_table_unref (w.mapping_index);
  g_ptr_array_unref (w.samples);
  g_ptr_array_unref (w.locations);
  g_ptr_array_unref (w.functions);
  g_ptr_array_unref (w.mappings);
  fc_string_table_clear (&w.strings);
  g_ptr_array_unref (w.arena);
  fc_arena_clear (&w.bump);
  return out;
}

/* ---- reading ---- */

static const char *
str (const PpProfile *p,
     gint64           index)
{
  return index > 0 && (guint64) index < p->n_string_table ? p->string_table[index] : NULL;
}

static gboolean
check_str (const PpProfile *p,
           gint64           index,
           const char      *where,
           GError         **error)
{
  if (index >= 0 && (guint64) index < p->n_string_table)
    return TRUE;
  g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
               _("pprof %s: string %" PRId64 " but the string_table has %zu entries"),
               where, index, p->n_string_table);
  return FALSE;
}

/* what a pprof may hold, checked on the wire data before protobuf-c unpacks it */
static const FcPbCap pprof_caps[] = {
  { &perftools__profiles__profile__descriptor, "sample", FC_READ_MAX_SAMPLES, N_("samples") },
  { &perftools__profiles__profile__descriptor, "location", FC_READ_MAX_FRAMES, N_("locations") },
  { &perftools__profiles__profile__descriptor, "function", FC_READ_MAX_FRAMES, N_("functions") },
  { &perftools__profiles__profile__descriptor, "mapping", FC_READ_MAX_FRAMES, N_("mappings") },
  { &perftools__profiles__profile__descriptor, "string_table", FC_READ_MAX_STRINGS, N_("strings") },
  { &perftools__profiles__location__descriptor, "line", FC_READ_MAX_FRAMES, N_("lines") },
  { &perftools__profiles__sample__descriptor, "location_id", FC_READ_MAX_STACK_FRAMES, N_("location references") },
  { &perftools__profiles__sample__descriptor, "label", FC_READ_MAX_SAMPLES, N_("labels") },
};

/* NULL with @error set when a limit is passed, without when it is no Profile */
static PpProfile *
unpack (GBytes  *bytes,
        GError **error)
{
  FcPbLimits limits;
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  fc_pb_limits_init (&limits, pprof_caps, G_N_ELEMENTS (pprof_caps));
  if (!fc_pb_scan (&perftools__profiles__profile__descriptor, data, len, &limits, "pprof", error))
    return NULL;
  return perftools__profiles__profile__unpack (NULL, len, data);
}

static gboolean
sniff_field (guint32       tag,
             guint         wire_type,
             const guint8 *payload,
             gsize         len,
             gpointer      user_data)
{
  gboolean *found = user_data;

  /* string_table (6), whose first entry is "" */
  if (tag == 6 && !*found)
    {
      if (wire_type != 2 || len != 0)
        return FALSE;
      *found = TRUE;
    }
  return TRUE;
}

gboolean
fc_pprof_sniff (GBytes *bytes)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  gboolean found = FALSE;

  /* the top level only: decoding is for the read, within its limits */
  return fc_pb_walk_top (data, len, sniff_field, &found) && found;
}

static FcDocument *
read_profile (const PpProfile  *p,
              GError          **error)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) profile = fc_interop_new_profile ("native");
  g_autoptr(GHashTable) functions = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) mappings = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) locations = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                                           (GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) cursors = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  gint64 period = p->period > 0 ? p->period : G_GINT64_CONSTANT (10000000);
  guint64 expanded = 0;
  char where[128];

  if (p->n_string_table == 0 || p->string_table[0][0] != '\0')
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("pprof string_table: entry 0 must be the empty string"));
      return NULL;
    }
  for (gsize i = 0; i < p->n_function; i++)
    {
      g_snprintf (where, sizeof where, "function[%zu]", i);
      if (!check_str (p, p->function[i]->name, where, error) || !check_str (p, p->function[i]->filename, where, error))
        return NULL;
      g_hash_table_insert (functions, &p->function[i]->id, p->function[i]);
    }
  for (gsize i = 0; i < p->n_mapping; i++)
    {
      const PpMapping *m = p->mapping[i];

      g_snprintf (where, sizeof where, "mapping[%zu]", i);
      if (!check_str (p, m->filename, where, error) || !check_str (p, m->build_id, where, error))
        return NULL;
      g_hash_table_insert (mappings, &p->mapping[i]->id, p->mapping[i]);
      if (str (p, m->filename) != NULL)
        fc_profile_add_image (profile, fc_chunk_meta_new_elf_image (str (p, m->filename), str (p, m->build_id),
                                                                    m->memory_start,
                                                                    m->memory_limit > m->memory_start
                                                                    ? m->memory_limit - m->memory_start
                                                                    : FC_DEBUG_IMAGE_UNKNOWN,
                                                                    FC_DEBUG_IMAGE_UNKNOWN));
    }
  /* each location as its frames, inlined callees first */
  for (gsize i = 0; i < p->n_location; i++)
    {
      const PpLocation *loc = p->location[i];
      const PpMapping *m = NULL;
      GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));

      g_hash_table_insert (locations, &p->location[i]->id, ids);
      if (loc->mapping_id != 0 && (m = g_hash_table_lookup (mappings, &loc->mapping_id)) == NULL)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                       _("pprof location[%zu].mapping_id: %" PRIu64 " is not a mapping id"),
                       i, loc->mapping_id);
          return NULL;
        }
      for (gsize l = 0; l < loc->n_line; l++)
        {
          const PpFunction *fn = g_hash_table_lookup (functions, &loc->line[l]->function_id);
          const char *file;
          FcFrame frame;
          guint32 id;

          if (fn == NULL)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("pprof location[%zu].line[%zu].function_id: %"
                           PRIu64 " is not a function id"), i, l, loc->line[l]->function_id);
              return NULL;
            }
          fc_frame_init (&frame);
          frame.function = fc_profile_intern (profile, str (p, fn->name));
          file = str (p, fn->filename);
          if (file != NULL)
            {
              frame.filename = fc_profile_intern (profile, file);
              if (file[0] == '/')
                frame.abs_path = frame.filename;
            }
          frame.lineno = loc->line[l]->line > 0 && loc->line[l]->line <= G_MAXINT32 ? (gint32) loc->line[l]->line : FC_LINE_NONE;
          frame.colno = loc->line[l]->column > 0 && loc->line[l]->column <= G_MAXINT32 ? (gint32) loc->line[l]->column : FC_LINE_NONE;
          if (m != NULL && str (p, m->filename) != NULL)
            {
              frame.package = fc_profile_intern (profile, str (p, m->filename));
              frame.module = frame.package;
            }
          if (loc->address != 0 || m != NULL)
            {
              frame.has_instruction_addr = TRUE;
              frame.instruction_addr = loc->address;
            }
          id = fc_profile_intern_frame (profile, &frame);
          g_array_append_val (ids, id);
        }
      /* a location without lines still names its address */
      if (loc->n_line == 0)
        {
          FcFrame frame;
          guint32 id;

          fc_frame_init (&frame);
          frame.has_instruction_addr = TRUE;
          frame.instruction_addr = loc->address;
          if (m != NULL && str (p, m->filename) != NULL)
            frame.package = frame.module = fc_profile_intern (profile, str (p, m->filename));
          id = fc_profile_intern_frame (profile, &frame);
          g_array_append_val (ids, id);
        }
    }

  for (gsize i = 0; i < p->n_sample; i++)
    {
      const PpSample *s = p->sample[i];
      const char *tid = NULL, *name = NULL;
      char num_tid[32];
      guint32 stack, thread;
      gint64 count = s->n_value > 0 ? s->value[0] : 1;
      gint64 *cursor;

      g_array_set_size (frames, 0);
      for (gsize l = 0; l < s->n_location_id; l++)
        {
          GArray *ids = g_hash_table_lookup (locations, &s->location_id[l]);

          if (ids == NULL)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("pprof sample[%zu].location_id[%zu]: %" PRIu64
                           " is not a location id"), i, l, s->location_id[l]);
              return NULL;
            }
          if (frames->len + ids->len > FC_READ_MAX_STACK_DEPTH)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           _("pprof sample[%zu]: more than %u frames, the reader's limit"), i,
                           FC_READ_MAX_STACK_DEPTH);
              return NULL;
            }
          g_array_append_vals (frames, ids->data, ids->len);
        }
      stack = fc_profile_intern_stack_frames (profile, (guint32 *) frames->data, frames->len);
      if (!fc_interop_check_stacks (profile, "pprof", error))
        return NULL;

      for (gsize l = 0; l < s->n_label; l++)
        {
          const char *key = str (p, s->label[l]->key);

          g_snprintf (where, sizeof where, "sample[%zu].label[%zu]", i, l);
          if (!check_str (p, s->label[l]->key, where, error) || !check_str (p, s->label[l]->str, where, error))
            return NULL;
          if (g_strcmp0 (key, "thread.id") == 0 || g_strcmp0 (key, "thread_id") == 0 || g_strcmp0 (key, "tid") == 0)
            {
              tid = str (p, s->label[l]->str);
              /* a string with a NUL first reads as "": fall back to the number, as a missing one */
              if (tid == NULL || tid[0] == '\0')
                {
                  g_snprintf (num_tid, sizeof num_tid, "%" PRId64, s->label[l]->num);
                  tid = num_tid;
                }
            }
          else if (g_strcmp0 (key, "thread.name") == 0 || g_strcmp0 (key, "thread_name") == 0)
            name = str (p, s->label[l]->str);
        }
      thread = fc_profile_ensure_thread (profile, tid != NULL ? tid : "0");
      if (fc_profile_get_n_threads (profile) > FC_READ_MAX_THREADS)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                       _("pprof sample[%zu]: more than %u threads, the reader's limit"), i,
                       FC_READ_MAX_THREADS);
          return NULL;
        }
      fc_profile_get_thread_mut (profile, thread)->has_metadata = TRUE;
      if (name != NULL && fc_profile_get_thread (profile, thread)->name == FC_STRING_NONE)
        fc_profile_set_thread_name (profile, thread, name);

      if (count < 0)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                       _("pprof sample[%zu].value[0]: %" PRId64 " is negative"), i, count);
          return NULL;
        }
      expanded += count;
      if (expanded > fc_interop_max_expanded_samples ())
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                       _("pprof sample[%zu].value[0]: more than %" PRIu64 " samples in all"),
                       i, fc_interop_max_expanded_samples ());
          return NULL;
        }
      cursor = g_hash_table_lookup (cursors, GUINT_TO_POINTER (thread + 1));
      if (cursor == NULL)
        {
          cursor = g_new (gint64, 1);
          *cursor = p->time_nanos > 0 ? p->time_nanos : g_get_real_time () * 1000;
          g_hash_table_insert (cursors, GUINT_TO_POINTER (thread + 1), cursor);
        }
      /* saturating: a time past 2200 is refused when the profile is finished */
      for (gint64 c = 0; c < count; c++, *cursor = *cursor > G_MAXINT64 - period ? G_MAXINT64 : *cursor + period)
        fc_profile_append_sample (profile, *cursor, thread, stack, 0);
    }

  if (!fc_interop_finish_profile (doc, profile, "pprof", error))
    return NULL;
  return g_steal_pointer (&doc);
}

FcDocument *
fc_pprof_read (GBytes  *bytes,
               GError **error)
{
  PpProfile *p;
  FcDocument *doc;

  g_return_val_if_fail (bytes != NULL, NULL);

  p = unpack (bytes, error);
  if (p == NULL)
    {
      if (error != NULL && *error != NULL)
        return NULL;
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("pprof: %zu bytes that are not a perftools.profiles.Profile protobuf message"),
                   g_bytes_get_size (bytes));
      return NULL;
    }
  doc = read_profile (p, error);
  perftools__profiles__profile__free_unpacked (p, NULL);
  return doc;
}
