/* fc-speedscope.c - speedscope's file format (https://www.speedscope.app/file-format-schema.json)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <string.h>

#include "fc-error.h"
#include "fc-interop-private.h"
#include "fc-json-util.h"
#include "fc-speedscope.h"

#define SCHEMA_URL    "https://www.speedscope.app/file-format-schema.json"
#define COUNT_SPACING G_GINT64_CONSTANT (10000000)

/* ---- writing ---- */

typedef struct {
  GString       *frames;     /* the shared.frames array's text */
  GHashTable    *index;      /* frame content key -> index + 1 */
  guint          n_frames;
} Frames;

static guint
shared_frame (Frames    *f,
              FcProfile *profile,
              guint32    frame_id)
{
  const FcFrame *frame = fc_profile_get_frame (profile, frame_id);
  char buf[256];
  const char *name = fc_profile_frame_label (profile, frame_id, buf, sizeof buf);
  const char *file = fc_profile_string (profile, frame->abs_path);
  g_autofree char *key = NULL;
  gpointer found;

  if (file == NULL || file[0] == '\0')
    file = fc_profile_string (profile, frame->filename);
  key = g_strdup_printf ("%s\x1f%s\x1f%d\x1f%d", name, file ? file : "", frame->lineno, frame->colno);
  found = g_hash_table_lookup (f->index, key);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  g_string_append (f->frames, f->n_frames > 0 ? ",{\"name\":" : "{\"name\":");
  fc_interop_append_json_string (f->frames, name);
  if (file != NULL && file[0] != '\0')
    {
      g_string_append (f->frames, ",\"file\":");
      fc_interop_append_json_string (f->frames, file);
    }
  if (frame->lineno > 0)
    g_string_append_printf (f->frames, ",\"line\":%d", frame->lineno);
  if (frame->colno > 0)
    g_string_append_printf (f->frames, ",\"col\":%d", frame->colno);
  g_string_append_c (f->frames, '}');
  g_hash_table_insert (f->index, g_steal_pointer (&key), GUINT_TO_POINTER (f->n_frames + 1));
  return f->n_frames++;
}

/* ",123" without printf: a 50 MB chunk has millions of them */
static void
append_number (GString  *out,
               gboolean  comma,
               guint64   v)
{
  char buf[24];
  int i = sizeof buf;

  do
    buf[--i] = (char) ('0' + v % 10);
  while ((v /= 10) > 0);
  if (comma)
    buf[--i] = ',';
  g_string_append_len (out, buf + i, sizeof buf - i);
}

/* What one profile's threads share while they are written: the shared
 * frame of each model frame, and each stack as shared frames root first,
 * made once per stack (stacks repeat across samples and threads). */
typedef struct {
  Frames    *f;
  FcProfile *profile;
  GArray    *frame_slot;   /* frame id -> shared frame + 1 */
  GArray    *stack_start;  /* stack id -> index in @data + 1 */
  GArray    *data;         /* guint: depth, then the frames */
  GArray    *scratch;
  /* sampled profiles: each stack's "[1,2,3]" written once, copied for each
   * of its samples (stacks repeat: 50k stacks for 500k samples) */
  GArray    *text_at;      /* stack id -> StackText */
  GString   *text;
} Stacks;

typedef struct {
  gsize start;
  gsize len;               /* 0 until written */
} StackText;

static guint
cached_frame (Stacks  *s,
              guint32  frame_id)
{
  guint *slot = &g_array_index (s->frame_slot, guint, frame_id);

  if (*slot == 0)
    *slot = shared_frame (s->f, s->profile, frame_id) + 1;
  return *slot - 1;
}

/* @stack's shared frames root first; *depth their number */
static const guint *
stack_frames (Stacks  *s,
              guint32  stack,
              guint   *depth)
{
  guint *start = &g_array_index (s->stack_start, guint, stack);

  if (*start == 0)
    {
      const FcStackNode *node = fc_profile_get_stack (s->profile, stack);
      guint at = s->data->len;

      g_array_set_size (s->scratch, node->depth);
      fc_profile_stack_frames (s->profile, stack, (guint32 *) s->scratch->data, node->depth);
      g_array_set_size (s->data, at + 1 + node->depth);
      g_array_index (s->data, guint, at) = node->depth;
      for (guint d = 0; d < node->depth; d++)
        g_array_index (s->data, guint, at + 1 + d) =
          cached_frame (s, g_array_index (s->scratch, guint32, node->depth - 1 - d));
      *start = at + 1;
    }
  *depth = g_array_index (s->data, guint, *start - 1);
  return &g_array_index (s->data, guint, *start);
}

/* @stack's shared frames root first as a JSON array, from the cache */
static void
append_stack_text (GString *out,
                   Stacks  *s,
                   guint32  stack)
{
  StackText *t = &g_array_index (s->text_at, StackText, stack);

  if (t->len == 0)
    {
      guint depth;
      const guint *frames = stack_frames (s, stack, &depth);

      t->start = s->text->len;
      g_string_append_c (s->text, '[');
      for (guint d = 0; d < depth; d++)
        append_number (s->text, d > 0, frames[d]);
      g_string_append_c (s->text, ']');
      t->len = s->text->len - t->start;
    }
  g_string_append_len (out, s->text->str + t->start, t->len);
}

static void
append_event (GString *out,
              gboolean comma,
              char     type,
              guint    frame,
              gint64   at)
{
  g_string_append (out, comma ? ",{\"type\":\"" : "{\"type\":\"");
  g_string_append_c (out, type);
  g_string_append (out, "\",\"frame\":");
  append_number (out, FALSE, frame);
  g_string_append (out, ",\"at\":");
  append_number (out, FALSE, (guint64) MAX (at, 0));
  g_string_append_c (out, '}');
}

typedef struct {
  GString        *out;       /* NULL: count only */
  guint64         n_events;
  guint64         n_frames;  /* of the samples' stacks */
  gboolean        comma;
} Events;

static void
event (Events *e,
       char    type,
       guint   frame,
       gint64  at)
{
  e->n_events++;
  if (e->out != NULL)
    append_event (e->out, e->comma, type, frame, at);
  e->comma = TRUE;
}

/* The events of a thread's samples (see write_thread), written to
 * e->out or only counted. */
static void
thread_events (Events         *e,
               Stacks         *s,
               const FcSample *all,
               const guint32  *idx,
               guint           n,
               gint64          origin,
               gint64          period,
               gint64          end_at)
{
  gsize open_at = 0;   /* where the open stack is in s->data, which moves as it grows */
  guint n_open = 0;

  for (guint i = 0; i < n; i++)
    {
      gint64 at = all[idx[i]].timestamp_ns - origin;
      guint depth, common = 0;
      const guint *next = stack_frames (s, all[idx[i]].stack, &depth);
      const guint *open = &g_array_index (s->data, guint, open_at);

      e->n_frames += depth;
      while (common < n_open && common < depth && open[common] == next[common])
        common++;
      /* the same stack again: a boundary at the leaf */
      if (common == n_open && common == depth && common > 0)
        common--;
      for (guint d = n_open; d > common; d--)
        event (e, 'C', open[d - 1], at);
      for (guint d = common; d < depth; d++)
        event (e, 'O', next[d], at);
      open = next;
      open_at = next - &g_array_index (s->data, guint, 0);
      n_open = depth;

      /* off CPU until the next sample: everything closes after one period */
      if (n_open > 0 && (i + 1 == n || all[idx[i + 1]].timestamp_ns - all[idx[i]].timestamp_ns > 2 * period))
        {
          gint64 close_at = i + 1 == n ? end_at : at + period;

          for (guint d = n_open; d > 0; d--)
            event (e, 'C', open[d - 1], close_at);
          n_open = 0;
        }
    }
}

/* The samples of a thread in time order, one profile per thread.
 *
 * Evented: each frame opens when a sample first has it and closes when
 * one no longer does, so speedscope's time-ordered view has the true time
 * axis, idle gaps included. A sample lasts until the thread's next one,
 * or one period when the next is more than two periods away (the thread
 * was off CPU). A sample with the same stack as the one before closes and
 * reopens its leaf: each sample stays one box, and reads back as one.
 * Samples without frames open nothing and are not written.
 *
 * Sampled, when the stacks share so little from one sample to the next
 * that the events would be over 64 MB and over 3 times the size of the
 * samples (random stacks: a gigabyte of events for the 50 MB benchmark
 * chunk, more than speedscope opens): each sample's whole stack, weighing
 * the time to the thread's next sample. Same order and durations, no gaps. */
static void
write_thread (GString   *out,
              Stacks    *s,
              guint32    thread_index,
              gint64     origin,
              gint64     period)
{
  FcProfile *profile = s->profile;
  const FcThread *thread = fc_profile_get_thread (profile, thread_index);
  const char *name = fc_profile_string (profile, thread->name);
  const char *tid = fc_profile_string (profile, thread->tid);
  g_autofree char *title = name != NULL && name[0] != '\0' ? g_strdup_printf ("%s (%s)", name, tid)
                                                           : g_strdup_printf ("tid %s", tid);
  const FcSample *all;
  const guint32 *idx;
  guint n_all = 0, n = 0;
  Events counted = { NULL, 0, 0, FALSE };
  gint64 end_at;

  all = fc_profile_get_samples (profile, &n_all);
  idx = fc_profile_get_thread_samples (profile, thread_index, &n);
  if (n == 0)
    return;
  end_at = all[idx[n - 1]].timestamp_ns - origin + period;

  /* ~32 bytes an event against ~6 a frame and ~12 a sample */
  thread_events (&counted, s, all, idx, n, origin, period, end_at);

  if (counted.n_events * 32 <= 64 * 1024 * 1024 ||
      counted.n_events * 32 <= 3 * (counted.n_frames * 6 + (guint64) n * 12))
    {
      Events written = { out, 0, 0, FALSE };

      g_string_append (out, "{\"type\":\"evented\",\"name\":");
      fc_interop_append_json_string (out, title);
      g_string_append_printf (out, ",\"unit\":\"nanoseconds\",\"startValue\":%" G_GINT64_FORMAT
                              ",\"endValue\":%" G_GINT64_FORMAT ",\"events\":[",
                              all[idx[0]].timestamp_ns - origin, end_at);
      thread_events (&written, s, all, idx, n, origin, period, end_at);
      g_string_append (out, "]}");
      return;
    }

  g_string_append (out, "{\"type\":\"sampled\",\"name\":");
  fc_interop_append_json_string (out, title);
  g_string_append_printf (out, ",\"unit\":\"nanoseconds\",\"startValue\":%" G_GINT64_FORMAT
                          ",\"endValue\":%" G_GINT64_FORMAT ",\"samples\":[",
                          all[idx[0]].timestamp_ns - origin, end_at);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      append_stack_text (out, s, all[idx[i]].stack);
    }
  g_string_append (out, "],\"weights\":[");
  for (guint i = 0; i < n; i++)
    {
      gint64 w = i + 1 < n ? all[idx[i + 1]].timestamp_ns - all[idx[i]].timestamp_ns : period;

      append_number (out, i > 0, (guint64) MAX (w, 0));
    }
  g_string_append (out, "]}");
}

static void
stacks_clear (Stacks *s)
{
  g_clear_pointer (&s->frame_slot, g_array_unref);
  g_clear_pointer (&s->stack_start, g_array_unref);
  g_clear_pointer (&s->data, g_array_unref);
  g_clear_pointer (&s->scratch, g_array_unref);
  g_clear_pointer (&s->text_at, g_array_unref);
  if (s->text != NULL)
    g_string_free (g_steal_pointer (&s->text), TRUE);
}

GBytes *
fc_speedscope_write (FcDocument  *document,
                     GError     **error)
{
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) shared = g_string_new (NULL);
  g_autoptr(GArray) all_stacks = g_array_new (FALSE, TRUE, sizeof (Stacks));
  Frames f = { shared, index, 0 };
  gint64 origin = G_MAXINT64;
  gboolean first_profile = TRUE;
  GString *out;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);

  g_array_set_clear_func (all_stacks, (GDestroyNotify) stacks_clear);
  g_array_set_size (all_stacks, fc_document_get_n_profiles (document));
  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    {
      FcProfile *profile = fc_document_get_profile (document, i);
      Stacks *stacks = &g_array_index (all_stacks, Stacks, i);
      gint64 first = 0, last = 0;

      stacks->f = &f;
      stacks->profile = profile;
      stacks->frame_slot = g_array_new (FALSE, TRUE, sizeof (guint));
      stacks->stack_start = g_array_new (FALSE, TRUE, sizeof (guint));
      stacks->data = g_array_new (FALSE, FALSE, sizeof (guint));
      stacks->scratch = g_array_new (FALSE, FALSE, sizeof (guint32));
      stacks->text_at = g_array_new (FALSE, TRUE, sizeof (StackText));
      stacks->text = g_string_new (NULL);
      g_array_set_size (stacks->frame_slot, fc_profile_get_n_frames (profile));
      g_array_set_size (stacks->stack_start, fc_profile_get_n_stacks (profile));
      g_array_set_size (stacks->text_at, fc_profile_get_n_stacks (profile));

      if (fc_profile_get_n_samples (profile) == 0)
        continue;
      fc_profile_get_time_range (profile, &first, &last);
      origin = MIN (origin, first);

      /* the shared frames go first in the file: number them now, in the
       * order the threads' samples first have them */
      for (guint t = 0; t < fc_profile_get_n_threads (profile); t++)
        {
          const FcSample *all_samples;
          const guint32 *idx;
          guint n_all = 0, n = 0;

          all_samples = fc_profile_get_samples (profile, &n_all);
          idx = fc_profile_get_thread_samples (profile, t, &n);
          for (guint k = 0; k < n; k++)
            {
              guint depth;

              stack_frames (stacks, all_samples[idx[k]].stack, &depth);
            }
        }
    }

  out = g_string_sized_new (shared->len + 1024 * 1024);
  g_string_append (out, "{\"$schema\":\"" SCHEMA_URL "\",\"exporter\":\"flamecast " FC_VERSION "\",");
  g_string_append (out, "\"name\":\"flamecast\",\"activeProfileIndex\":0,\"shared\":{\"frames\":[");
  g_string_append_len (out, shared->str, shared->len);
  g_string_append (out, "]},\"profiles\":[");

  for (guint i = 0; i < fc_document_get_n_profiles (document); i++)
    {
      Stacks *stacks = &g_array_index (all_stacks, Stacks, i);
      FcProfile *profile = stacks->profile;
      gint64 period;

      if (fc_profile_get_n_samples (profile) == 0)
        continue;
      period = fc_interop_period_ns (profile);
      for (guint t = 0; t < fc_profile_get_n_threads (profile); t++)
        {
          guint n = 0;

          fc_profile_get_thread_samples (profile, t, &n);
          if (n == 0)
            continue;
          if (!first_profile)
            g_string_append_c (out, ',');
          first_profile = FALSE;
          write_thread (out, stacks, t, origin, period);
        }
    }

  g_string_append (out, "]}\n");
  return fc_interop_string_to_bytes (out);
}

/* ---- reading ---- */

gboolean
fc_speedscope_sniff (const char *data,
                     gsize       len)
{
  const char *p = data, *end = data + len;

  while (p < end && g_ascii_isspace (*p))
    p++;
  if (p == end || *p != '{')
    return FALSE;
  for (p++; p < end && g_ascii_isspace (*p); p++)
    ;
  /* speedscope writes "$schema" first; others start with "shared" or "profiles" */
  if (end - p >= 9 && memcmp (p, "\"$schema\"", 9) == 0)
    return g_strstr_len (p, MIN (end - p, 256), "speedscope") != NULL;
  return (end - p >= 8 && memcmp (p, "\"shared\"", 8) == 0) ||
         (end - p >= 10 && memcmp (p, "\"profiles\"", 10) == 0) ||
         (end - p >= 10 && memcmp (p, "\"exporter\"", 10) == 0 &&
          g_strstr_len (p, MIN (end - p, 256), "speedscope") != NULL);
}

/* A time in the file, as ns from the document's zero, when it fits the
 * model's 64-bit timestamps with room for the base (about ±146 years) */
static gboolean
time_ns (double   value,
         gint64   scale,
         double   origin,
         gint64  *out)
{
  double ns = value * scale - origin;

  if (!(ns > -4.6e18 && ns < 4.6e18))
    return FALSE;
  *out = (gint64) ns;
  return TRUE;
}

static gint64
unit_to_ns (const char *unit)
{
  if (g_strcmp0 (unit, "nanoseconds") == 0)
    return 1;
  if (g_strcmp0 (unit, "microseconds") == 0)
    return 1000;
  if (g_strcmp0 (unit, "milliseconds") == 0)
    return 1000000;
  if (g_strcmp0 (unit, "seconds") == 0)
    return 1000000000;
  return 0;   /* none, bytes: counts */
}

static gboolean
get_number (JsonNode  *node,
            double    *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) != G_TYPE_INT64 && json_node_get_value_type (node) != G_TYPE_DOUBLE)
    return FALSE;
  *out = json_node_get_double (node);
  return TRUE;
}

static gboolean
frame_index (JsonNode    *node,
             guint        n_frames,
             guint       *out,
             const char  *where,
             GError     **error)
{
  double d;

  /* compared as a double first: casting one beyond guint's range is undefined */
  if (!get_number (node, &d) || d < 0 || d != floor (d))
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, "speedscope %s: expected a frame index", where);
      return FALSE;
    }
  if (d >= n_frames)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                   "speedscope %s: frame %.0f but shared.frames has %u", where, d, n_frames);
      return FALSE;
    }
  *out = (guint) d;
  return TRUE;
}

static JsonArray *
get_array (JsonObject  *object,
           const char  *key,
           const char  *where,
           GError     **error)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, FC_FORMAT_ERROR, node == NULL ? FC_FORMAT_ERROR_MISSING : FC_FORMAT_ERROR_TYPE,
                   "speedscope %s.%s: expected an array", where, key);
      return NULL;
    }
  return json_node_get_array (node);
}

static guint32
stack_of (FcProfile    *profile,
          const guint32 *model_frames,
          GArray       *ids_root_first)
{
  g_autoptr(GArray) leaf_first = g_array_sized_new (FALSE, FALSE, sizeof (guint32), ids_root_first->len);

  for (guint i = ids_root_first->len; i > 0; i--)
    g_array_append_val (leaf_first, model_frames[g_array_index (ids_root_first, guint, i - 1)]);
  return fc_profile_intern_stack_frames (profile, (guint32 *) leaf_first->data, leaf_first->len);
}

static gboolean
read_sampled (FcProfile     *profile,
              JsonObject    *p,
              const guint32 *model_frames,
              guint          n_frames,
              guint32        thread,
              gint64         base_ns,
              double         origin,   /* ns: the earliest startValue of all profiles */
              guint64       *total,    /* samples made from weights, in all profiles */
              const char    *where,
              GError       **error)
{
  JsonArray *samples = get_array (p, "samples", where, error);
  JsonArray *weights = samples ? get_array (p, "weights", where, error) : NULL;
  gint64 scale = unit_to_ns (fc_json_get_string (p, "unit"));
  double start = 0, at;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint));

  if (weights == NULL)
    return FALSE;
  if (json_array_get_length (weights) != json_array_get_length (samples))
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE, "speedscope %s: %u samples but %u weights",
                   where, json_array_get_length (samples), json_array_get_length (weights));
      return FALSE;
    }
  get_number (json_object_get_member (p, "startValue"), &start);
  at = start;
  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonNode *sample = json_array_get_element (samples, i);
      double w = 0;
      char place[160];
      guint32 stack;

      g_snprintf (place, sizeof place, "%s.samples[%u]", where, i);
      if (!JSON_NODE_HOLDS_ARRAY (sample))
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, "speedscope %s: expected an array", place);
          return FALSE;
        }
      g_array_set_size (ids, 0);
      for (guint j = 0; j < json_array_get_length (json_node_get_array (sample)); j++)
        {
          guint id;
          char fplace[192];

          g_snprintf (fplace, sizeof fplace, "%s[%u]", place, j);
          if (!frame_index (json_array_get_element (json_node_get_array (sample), j), n_frames, &id, fplace, error))
            return FALSE;
          g_array_append_val (ids, id);
        }
      if (!get_number (json_array_get_element (weights, i), &w) || w < 0)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE,
                       "speedscope %s.weights[%u]: expected a number >= 0", where, i);
          return FALSE;
        }
      stack = stack_of (profile, model_frames, ids);
      if (scale > 0)
        {
          gint64 ns;

          if (!time_ns (at, scale, origin, &ns))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           "speedscope %s.weights[%u]: the sample's time (%g) is out of range", where, i, at);
              return FALSE;
            }
          fc_profile_append_sample (profile, base_ns + ns, thread, stack, 0);
          at += w;
        }
      else
        {
          /* compared as a double first: casting 1e300 to an integer is undefined */
          if (w > (double) (fc_interop_max_expanded_samples () - *total))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           "speedscope %s.weights[%u]: more than %" G_GUINT64_FORMAT " samples in all", where, i,
                           fc_interop_max_expanded_samples ());
              return FALSE;
            }
          *total += (guint64) w;
          for (guint64 c = 0; c < (guint64) w; c++, at += 1)
            fc_profile_append_sample (profile, base_ns + (gint64) (at - start) * COUNT_SPACING, thread, stack, 0);
        }
    }
  return TRUE;
}

static gboolean
read_evented (FcProfile     *profile,
              JsonObject    *p,
              const guint32 *model_frames,
              guint          n_frames,
              guint32        thread,
              gint64         base_ns,
              double         origin,   /* ns: the earliest startValue of all profiles */
              const char    *where,
              GError       **error)
{
  JsonArray *events = get_array (p, "events", where, error);
  gint64 scale = unit_to_ns (fc_json_get_string (p, "unit"));
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (guint));
  double prev_at = -G_MAXDOUBLE;

  if (events == NULL)
    return FALSE;
  if (scale == 0)
    scale = 1;
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonNode *node = json_array_get_element (events, i);
      JsonObject *e = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = e ? fc_json_get_string (e, "type") : NULL;
      char place[160];
      double at = 0;
      guint frame;

      g_snprintf (place, sizeof place, "%s.events[%u]", where, i);
      if (e == NULL || type == NULL || (strcmp (type, "O") != 0 && strcmp (type, "C") != 0) ||
          !get_number (json_object_get_member (e, "at"), &at))
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE,
                       "speedscope %s: expected {\"type\": \"O\" or \"C\", \"at\", \"frame\"}", place);
          return FALSE;
        }
      g_strlcat (place, ".frame", sizeof place);
      if (!frame_index (json_object_get_member (e, "frame"), n_frames, &frame, place, error))
        return FALSE;
      if (at < prev_at)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                       "speedscope %s.events[%u].at: %g is before the previous event (%g)", where, i, at, prev_at);
          return FALSE;
        }
      /* the stack as it was since the previous time is a sample there */
      if (at > prev_at && prev_at != -G_MAXDOUBLE && open->len > 0)
        {
          gint64 ns;

          if (!time_ns (prev_at, scale, origin, &ns))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           "speedscope %s.events[%u].at: %g is out of range", where, i - 1, prev_at);
              return FALSE;
            }
          fc_profile_append_sample (profile, base_ns + ns, thread, stack_of (profile, model_frames, open), 0);
        }
      prev_at = at;
      if (type[0] == 'O')
        g_array_append_val (open, frame);
      else
        {
          if (open->len == 0 || g_array_index (open, guint, open->len - 1) != frame)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           "speedscope %s.events[%u]: closes frame %u, which is not the innermost open frame",
                           where, i, frame);
              return FALSE;
            }
          g_array_set_size (open, open->len - 1);
        }
    }
  if (open->len > 0)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                   "speedscope %s.events: %u frames are never closed", where, open->len);
      return FALSE;
    }
  return TRUE;
}

FcDocument *
fc_speedscope_read (GBytes  *bytes,
                    GError **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) profile = fc_interop_new_profile ("native");
  g_autofree guint32 *model_frames = NULL;
  JsonObject *file, *shared;
  JsonArray *frames, *profiles;
  gint64 base_ns = g_get_real_time () / 1000 * 1000000;
  gsize len = 0;
  const char *text = g_bytes_get_data (bytes, &len);
  double origin = G_MAXDOUBLE;
  guint64 total = 0;
  guint n_frames;

  file = fc_json_load_object (parser, text, len, "speedscope", error);
  if (file == NULL)
    return NULL;
  shared = fc_json_get_object (file, "shared");
  if (shared == NULL)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING, "speedscope: no \"shared\" object");
      return NULL;
    }
  frames = get_array (shared, "frames", "shared", error);
  profiles = frames ? get_array (file, "profiles", "file", error) : NULL;
  if (profiles == NULL)
    return NULL;

  n_frames = json_array_get_length (frames);
  model_frames = g_new (guint32, MAX (n_frames, 1));
  for (guint i = 0; i < n_frames; i++)
    {
      JsonNode *node = json_array_get_element (frames, i);
      JsonObject *f = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *file_name = f ? fc_json_get_string (f, "file") : NULL;
      gint64 line = 0, col = 0;
      FcFrame frame;

      if (f == NULL || fc_json_get_string (f, "name") == NULL)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING,
                       "speedscope shared.frames[%u]: expected an object with a \"name\"", i);
          return NULL;
        }
      fc_frame_init (&frame);
      frame.function = fc_profile_intern (profile, fc_json_get_string (f, "name"));
      if (file_name != NULL && file_name[0] != '\0')
        {
          frame.filename = fc_profile_intern (profile, file_name);
          if (file_name[0] == '/')
            frame.abs_path = frame.filename;
        }
      if (fc_json_get_int64 (f, "line", &line) && line > 0 && line <= G_MAXINT32)
        frame.lineno = (gint32) line;
      if (fc_json_get_int64 (f, "col", &col) && col > 0 && col <= G_MAXINT32)
        frame.colno = (gint32) col;
      model_frames[i] = fc_profile_intern_frame (profile, &frame);
    }

  /* Times are on one axis for all profiles (threads): the earliest
   * startValue is the document's zero, so threads keep their offsets. */
  for (guint i = 0; i < json_array_get_length (profiles); i++)
    {
      JsonNode *node = json_array_get_element (profiles, i);
      JsonObject *p = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      gint64 scale = p ? unit_to_ns (fc_json_get_string (p, "unit")) : 0;
      double start = 0;

      if (scale > 0 && get_number (json_object_get_member (p, "startValue"), &start))
        origin = MIN (origin, start * scale);
    }
  if (origin == G_MAXDOUBLE)
    origin = 0;

  for (guint i = 0; i < json_array_get_length (profiles); i++)
    {
      JsonNode *node = json_array_get_element (profiles, i);
      JsonObject *p = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = p ? fc_json_get_string (p, "type") : NULL;
      const char *name = p ? fc_json_get_string (p, "name") : NULL;
      char where[64], tid[16];
      guint32 thread;
      gboolean ok;

      g_snprintf (where, sizeof where, "profiles[%u]", i);
      g_snprintf (tid, sizeof tid, "%u", i + 1);
      thread = fc_profile_ensure_thread (profile, tid);
      fc_profile_get_thread_mut (profile, thread)->has_metadata = TRUE;
      if (name != NULL && name[0] != '\0')
        fc_profile_set_thread_name (profile, thread, name);
      if (g_strcmp0 (type, "sampled") == 0)
        ok = read_sampled (profile, p, model_frames, n_frames, thread, base_ns, origin, &total, where, error);
      else if (g_strcmp0 (type, "evented") == 0)
        ok = read_evented (profile, p, model_frames, n_frames, thread, base_ns, origin, where, error);
      else
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED,
                       "speedscope %s.type: expected \"sampled\" or \"evented\"", where);
          ok = FALSE;
        }
      if (!ok)
        return NULL;
    }

  if (!fc_interop_finish_profile (doc, profile, "speedscope", error))
    return NULL;
  return g_steal_pointer (&doc);
}
