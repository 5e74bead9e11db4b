/* fc-speedscope.c - speedscope's file format (https://www.speedscope.app/file-format-schema.json)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <yajl/yajl_parse.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-interop-private.h"
#include "fc-json-stream-private.h"
#include "fc-json-util.h"
#include "fc-read-limits.h"
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
      g_string_append_printf (out, ",\"unit\":\"nanoseconds\",\"startValue\":%" PRId64
                              ",\"endValue\":%" PRId64 ",\"events\":[",
                              all[idx[0]].timestamp_ns - origin, end_at);
      thread_events (&written, s, all, idx, n, origin, period, end_at);
      g_string_append (out, "]}");
      return;
    }

  g_string_append (out, "{\"type\":\"sampled\",\"name\":");
  fc_interop_append_json_string (out, title);
  g_string_append_printf (out, ",\"unit\":\"nanoseconds\",\"startValue\":%" PRId64
                          ",\"endValue\":%" PRId64 ",\"samples\":[",
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

/* ---- reading: yajl events into compact arrays, then the model ---- */

/*
 * Streamed with yajl, no JSON tree (json-glib's took 1.2 GB and 12 s for a
 * 64 MB file) and no recursion: events, samples and weights go into flat
 * arrays, checked for their type on the way. Frame indexes are checked
 * against shared.frames at the end, since "profiles" may come first.
 */

#define FRAME_BAD G_MAXUINT32   /* an index beyond guint32: its value is in bad_frame */

typedef struct {
  double  at;
  guint32 frame;
  guint8  close;
} Event;

typedef enum { SS_OTHER, SS_SAMPLED, SS_EVENTED } SsType;

typedef struct {
  SsType   type;
  gboolean has_type;
  char    *name;
  gint64   scale;        /* unit in ns; 0: none or bytes */
  double   start;
  gboolean has_start;
  GArray  *events;       /* Event */
  GArray  *refs;         /* guint32: the frame indexes of all samples, root first */
  GArray  *starts;       /* guint32: where each sample starts in refs */
  GArray  *weights;      /* double */
  /* the first problem of each array, found while reading it (reported
   * only when the profile's type reads that array) */
  char    *events_error;
  char    *samples_error;
  char    *weights_error;
  double   bad_frame;    /* the first index stored as FRAME_BAD, as written */
  gboolean has_bad_frame;
} SsProfile;

static SsProfile *
ss_profile_new (void)
{
  SsProfile *p = g_new0 (SsProfile, 1);

  p->events = g_array_new (FALSE, FALSE, sizeof (Event));
  p->refs = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->starts = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->weights = g_array_new (FALSE, FALSE, sizeof (double));
  return p;
}

static void
ss_profile_free (SsProfile *p)
{
  g_free (p->name);
  g_clear_pointer (&p->events, g_array_unref);
  g_clear_pointer (&p->refs, g_array_unref);
  g_clear_pointer (&p->starts, g_array_unref);
  g_clear_pointer (&p->weights, g_array_unref);
  g_free (p->events_error);
  g_free (p->samples_error);
  g_free (p->weights_error);
  g_free (p);
}

typedef enum {
  IN_TOP,
  IN_FILE,
  IN_SHARED,
  IN_FRAMES,
  IN_FRAME,
  IN_PROFILES,
  IN_PROFILE,
  IN_EVENTS,
  IN_EVENT,
  IN_SAMPLES,
  IN_SAMPLE,
  IN_WEIGHTS,
} In;

typedef enum {
  K_OTHER,
  K_SHARED, K_PROFILES, K_FRAMES,                       /* file, shared */
  K_NAME, K_FILE, K_LINE, K_COL,                        /* frame */
  K_TYPE, K_UNIT, K_START, K_EVENTS, K_SAMPLES, K_WEIGHTS, /* profile (K_NAME too) */
  K_AT, K_FRAME,                                        /* event (K_TYPE too) */
} SsKey;

typedef struct {
  FcProfile *profile;       /* the model: frames go in as they come */
  GArray    *model_frames;  /* guint32: shared.frames[i] -> frame id */
  GPtrArray *profiles;      /* SsProfile */
  gboolean   has_shared;
  gboolean   has_frames;
  gboolean   has_profiles;

  In         in[FC_READ_MAX_DEPTH + 1];
  guint      index[FC_READ_MAX_DEPTH + 1];   /* of the next element, in arrays */
  guint      depth;
  SsKey      key;            /* of the value that comes next, in objects */
  guint      skip;           /* containers open in a value being skipped */
  gboolean   skip_value;

  /* the object being read */
  FcFrame    frame;
  gboolean   frame_named;
  Event      event;
  guint      event_has;      /* EV_* */
  guint64    n_events;
  guint64    n_refs;
  guint64    n_samples;

  GError    *error;
} Reader;

enum { EV_TYPE = 1, EV_AT = 2, EV_FRAME = 4 };

static SsProfile *
current_profile (Reader *r)
{
  return g_ptr_array_index (r->profiles, r->profiles->len - 1);
}

static int
fail (Reader     *r,
      int         code,
      const char *format,
      ...) G_GNUC_PRINTF (3, 4);

static int
fail (Reader     *r,
      int         code,
      const char *format,
      ...)
{
  va_list args;
  g_autofree char *message = NULL;

  if (r->error != NULL)
    return 0;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  r->error = g_error_new (FC_FORMAT_ERROR, code, _("speedscope %s"), message);
  return 0;
}

/* the first problem of one of a profile's arrays: kept, the array no longer read */
static void
note (char       **slot,
      const char  *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
note (char       **slot,
      const char  *format,
      ...)
{
  va_list args;

  if (*slot != NULL)
    return;
  va_start (args, format);
  *slot = g_strdup_vprintf (format, args);
  va_end (args);
}

static guint
profile_index (Reader *r)
{
  return r->profiles->len - 1;
}

/* a JSON number as a double; FALSE for anything else */
static gboolean
number_of (const char *text,
           gsize       len,
           double     *out)
{
  char buf[64];
  char *end = NULL;

  if (text == NULL || len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, text, len);
  buf[len] = '\0';
  *out = g_ascii_strtod (buf, &end);
  return *end == '\0';
}

/* a frame index: a whole number >= 0; FRAME_BAD for one past guint32 */
static gboolean
frame_of (double   d,
          guint32 *out)
{
  /* compared as a double first: casting one beyond guint's range is undefined */
  if (!(d >= 0) || d != floor (d))
    return FALSE;
  *out = d < (double) FRAME_BAD ? (guint32) d : FRAME_BAD;
  return TRUE;
}

static SsKey
key_of (In          in,
        const char *key,
        gsize       len)
{
  static const struct { In in; const char *name; SsKey key; } keys[] = {
    { IN_FILE, "shared", K_SHARED }, { IN_FILE, "profiles", K_PROFILES },
    { IN_SHARED, "frames", K_FRAMES },
    { IN_FRAME, "name", K_NAME }, { IN_FRAME, "file", K_FILE }, { IN_FRAME, "line", K_LINE },
    { IN_FRAME, "col", K_COL },
    { IN_PROFILE, "type", K_TYPE }, { IN_PROFILE, "name", K_NAME }, { IN_PROFILE, "unit", K_UNIT },
    { IN_PROFILE, "startValue", K_START }, { IN_PROFILE, "events", K_EVENTS },
    { IN_PROFILE, "samples", K_SAMPLES }, { IN_PROFILE, "weights", K_WEIGHTS },
    { IN_EVENT, "type", K_TYPE }, { IN_EVENT, "at", K_AT }, { IN_EVENT, "frame", K_FRAME },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (keys[i].in == in && strlen (keys[i].name) == len && memcmp (keys[i].name, key, len) == 0)
      return keys[i].key;
  return K_OTHER;
}

typedef enum { V_NULL, V_BOOL, V_NUMBER, V_STRING, V_OBJECT, V_ARRAY } Kind;

/* A value where an array of a profile's was expected, or an element of one
 * that is not what it should be: noted for that array. */
static void
wrong_array (Reader *r,
             SsKey   key)
{
  SsProfile *p = current_profile (r);
  const char *name = key == K_EVENTS ? "events" : key == K_SAMPLES ? "samples" : "weights";
  char **slot = key == K_EVENTS ? &p->events_error : key == K_SAMPLES ? &p->samples_error : &p->weights_error;

  note (slot, _("profiles[%u].%s: expected an array"), profile_index (r), name);
}

static int
frame_scalar (Reader     *r,
              Kind        kind,
              const char *text,
              gsize       len)
{
  double d;

  switch (r->key)
    {
    case K_NAME:
      if (kind == V_STRING)
        {
          r->frame.function = fc_profile_intern_len (r->profile, text, len);
          r->frame_named = TRUE;
        }
      break;
    case K_FILE:
      if (kind == V_STRING && len > 0)
        {
          r->frame.filename = fc_profile_intern_len (r->profile, text, len);
          if (text[0] == '/')
            r->frame.abs_path = r->frame.filename;
        }
      break;
    case K_LINE:
    case K_COL:
      /* a JSON integer, an integral double or a decimal string, as elsewhere */
      if ((kind == V_NUMBER || kind == V_STRING) && number_of (text, len, &d) && d == floor (d) &&
          d > 0 && d <= G_MAXINT32)
        {
          if (r->key == K_LINE)
            r->frame.lineno = (gint32) d;
          else
            r->frame.colno = (gint32) d;
        }
      break;
    default:
      break;
    }
  return 1;
}

static int
profile_scalar (Reader     *r,
                Kind        kind,
                const char *text,
                gsize       len)
{
  SsProfile *p = current_profile (r);
  double d;

  switch (r->key)
    {
    case K_TYPE:
      p->has_type = TRUE;
      p->type = SS_OTHER;
      if (kind == V_STRING && len == 7 && memcmp (text, "sampled", 7) == 0)
        p->type = SS_SAMPLED;
      else if (kind == V_STRING && len == 7 && memcmp (text, "evented", 7) == 0)
        p->type = SS_EVENTED;
      break;
    case K_NAME:
      if (kind == V_STRING)
        {
          g_free (p->name);
          p->name = g_strndup (text, len);
        }
      break;
    case K_UNIT:
      {
        g_autofree char *unit = kind == V_STRING ? g_strndup (text, len) : NULL;

        p->scale = unit_to_ns (unit);
      }
      break;
    case K_START:
      if (kind == V_NUMBER && number_of (text, len, &d))
        {
          p->start = d;
          p->has_start = TRUE;
        }
      break;
    case K_EVENTS:
    case K_SAMPLES:
    case K_WEIGHTS:
      wrong_array (r, r->key);
      break;
    default:
      break;
    }
  return 1;
}

static int
event_scalar (Reader     *r,
              Kind        kind,
              const char *text,
              gsize       len)
{
  double d;

  switch (r->key)
    {
    case K_TYPE:
      if (kind == V_STRING && len == 1 && (text[0] == 'O' || text[0] == 'C'))
        {
          r->event.close = text[0] == 'C';
          r->event_has |= EV_TYPE;
        }
      break;
    case K_AT:
      if (kind == V_NUMBER && number_of (text, len, &d))
        {
          r->event.at = d;
          r->event_has |= EV_AT;
        }
      break;
    case K_FRAME:
      if (kind == V_NUMBER && number_of (text, len, &d) && frame_of (d, &r->event.frame))
        {
          SsProfile *p = current_profile (r);

          r->event_has |= EV_FRAME;
          if (r->event.frame == FRAME_BAD && !p->has_bad_frame)
            {
              p->bad_frame = d;
              p->has_bad_frame = TRUE;
            }
        }
      else
        r->event_has |= EV_FRAME << 4;   /* given, but not an index */
      break;
    default:
      break;
    }
  return 1;
}

static int
on_value (Reader     *r,
          Kind        kind,
          const char *text,
          gsize       len)
{
  In in = r->in[r->depth];
  guint i = r->index[r->depth];
  SsProfile *p;
  double d;

  if (r->skip > 0)
    return 1;
  if (r->skip_value)
    {
      r->skip_value = FALSE;
      return 1;
    }

  switch (in)
    {
    case IN_FILE:
      if (r->key == K_SHARED || r->key == K_PROFILES)
        return fail (r, FC_FORMAT_ERROR_TYPE, _("%s: expected %s"), r->key == K_SHARED ? "shared" : "file.profiles",
                     r->key == K_SHARED ? "an object" : "an array");
      return 1;
    case IN_SHARED:
      if (r->key == K_FRAMES)
        return fail (r, FC_FORMAT_ERROR_TYPE, _("shared.frames: expected an array"));
      return 1;
    case IN_FRAMES:
      return fail (r, FC_FORMAT_ERROR_MISSING, _("shared.frames[%u]: expected an object with a \"name\""), i);
    case IN_FRAME:
      return frame_scalar (r, kind, text, len);
    case IN_PROFILES:
      /* not an object: no type, which the end says */
      if (r->profiles->len >= FC_READ_MAX_THREADS)
        return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("profiles[%u]: more than %u profiles, the reader's limit"), i,
                     FC_READ_MAX_THREADS);
      g_ptr_array_add (r->profiles, ss_profile_new ());
      r->index[r->depth]++;
      return 1;
    case IN_PROFILE:
      return profile_scalar (r, kind, text, len);
    case IN_EVENTS:
      p = current_profile (r);
      note (&p->events_error, _("profiles[%u].events[%u]: expected {\"type\": \"O\" or \"C\", \"at\", \"frame\"}"),
            profile_index (r), i);
      r->index[r->depth]++;
      return 1;
    case IN_EVENT:
      return event_scalar (r, kind, text, len);
    case IN_SAMPLES:
      p = current_profile (r);
      note (&p->samples_error, _("profiles[%u].samples[%u]: expected an array"), profile_index (r), i);
      r->index[r->depth]++;
      return 1;
    case IN_SAMPLE:
      {
        guint32 frame;

        p = current_profile (r);
        if (p->samples_error == NULL)
          {
            if (kind != V_NUMBER || !number_of (text, len, &d) || !frame_of (d, &frame))
              note (&p->samples_error, _("profiles[%u].samples[%u][%u]: expected a frame index"), profile_index (r),
                    r->index[r->depth - 1], i);
            else if (++r->n_refs > FC_READ_MAX_STACK_FRAMES)
              return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("profiles[%u].samples[%u][%u]: more than %"
                           PRIu64 " frame indexes in all samples, the reader's limit"), profile_index (r),
                           r->index[r->depth - 1], i, FC_READ_MAX_STACK_FRAMES);
            else
              {
                if (frame == FRAME_BAD && !p->has_bad_frame)
                  {
                    p->bad_frame = d;
                    p->has_bad_frame = TRUE;
                  }
                g_array_append_val (p->refs, frame);
              }
          }
        r->index[r->depth]++;
      }
      return 1;
    case IN_WEIGHTS:
      p = current_profile (r);
      if (p->weights_error == NULL)
        {
          if (kind != V_NUMBER || !number_of (text, len, &d) || !(d >= 0))
            note (&p->weights_error, _("profiles[%u].weights[%u]: expected a number >= 0"), profile_index (r), i);
          else if (p->weights->len >= FC_READ_MAX_SAMPLES)
            return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("profiles[%u].weights[%u]: more than %" PRIu64
                         " weights, the reader's limit"), profile_index (r), i, FC_READ_MAX_SAMPLES);
          else
            g_array_append_val (p->weights, d);
        }
      r->index[r->depth]++;
      return 1;
    case IN_TOP:
    default:
      return 1;
    }
}

static int
cb_null (void *ctx)
{
  return on_value (ctx, V_NULL, NULL, 0);
}

static int
cb_boolean (void *ctx,
            int   value)
{
  return on_value (ctx, V_BOOL, NULL, 0);
}

static int
cb_number (void       *ctx,
           const char *text,
           size_t      len)
{
  return on_value (ctx, V_NUMBER, text, len);
}

static int
cb_string (void                *ctx,
           const unsigned char *text,
           size_t               len)
{
  return on_value (ctx, V_STRING, (const char *) text, len);
}

static int
cb_map_key (void                *ctx,
            const unsigned char *key,
            size_t               len)
{
  Reader *r = ctx;
  In in = r->in[r->depth];

  if (r->skip > 0)
    return 1;
  r->key = key_of (in, (const char *) key, len);
  /* what this reader does not read is skipped, whatever its shape */
  if (r->key == K_OTHER)
    r->skip_value = TRUE;
  return 1;
}

static int
enter (Reader *r,
       In      in)
{
  if (r->depth + r->skip >= FC_READ_MAX_DEPTH)
    return fail (r, FC_FORMAT_ERROR_SYNTAX, _("file: nested deeper than %d levels"), FC_READ_MAX_DEPTH);
  r->depth++;
  r->in[r->depth] = in;
  r->index[r->depth] = 0;
  r->key = K_OTHER;
  return 1;
}

static int
skip_open (Reader *r)
{
  if (r->depth + r->skip >= FC_READ_MAX_DEPTH)
    return fail (r, FC_FORMAT_ERROR_SYNTAX, _("file: nested deeper than %d levels"), FC_READ_MAX_DEPTH);
  r->skip_value = FALSE;
  r->skip++;
  return 1;
}

static int
cb_start_map (void *ctx)
{
  Reader *r = ctx;
  In in = r->in[r->depth];
  SsProfile *p;

  if (r->skip > 0 || r->skip_value)
    return skip_open (r);

  switch (in)
    {
    case IN_TOP:
      return enter (r, IN_FILE);
    case IN_FILE:
      if (r->key == K_SHARED)
        {
          r->has_shared = TRUE;
          return enter (r, IN_SHARED);
        }
      return fail (r, FC_FORMAT_ERROR_TYPE, _("file.profiles: expected an array"));
    case IN_SHARED:
      return fail (r, FC_FORMAT_ERROR_TYPE, _("shared.frames: expected an array"));
    case IN_FRAMES:
      if (r->model_frames->len >= FC_READ_MAX_FRAMES)
        return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("shared.frames[%u]: more than %" PRIu64
                     " frames, the reader's limit"), r->index[r->depth], FC_READ_MAX_FRAMES);
      fc_frame_init (&r->frame);
      r->frame_named = FALSE;
      return enter (r, IN_FRAME);
    case IN_PROFILES:
      if (r->profiles->len >= FC_READ_MAX_THREADS)
        return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("profiles[%u]: more than %u profiles, the reader's limit"),
                     r->index[r->depth], FC_READ_MAX_THREADS);
      g_ptr_array_add (r->profiles, ss_profile_new ());
      return enter (r, IN_PROFILE);
    case IN_EVENTS:
      r->event_has = 0;
      memset (&r->event, 0, sizeof r->event);
      return enter (r, IN_EVENT);
    case IN_PROFILE:
      if (r->key == K_EVENTS || r->key == K_SAMPLES || r->key == K_WEIGHTS)
        wrong_array (r, r->key);
      return skip_open (r);
    case IN_SAMPLES:
      p = current_profile (r);
      note (&p->samples_error, _("profiles[%u].samples[%u]: expected an array"), profile_index (r),
            r->index[r->depth]);
      return skip_open (r);
    case IN_WEIGHTS:
      p = current_profile (r);
      note (&p->weights_error, _("profiles[%u].weights[%u]: expected a number >= 0"), profile_index (r),
            r->index[r->depth]);
      return skip_open (r);
    case IN_SAMPLE:
      p = current_profile (r);
      note (&p->samples_error, _("profiles[%u].samples[%u][%u]: expected a frame index"), profile_index (r),
            r->index[r->depth - 1], r->index[r->depth]);
      return skip_open (r);
    case IN_FRAME:
    case IN_EVENT:
    default:
      /* a frame's or an event's member that is an object: not what is read */
      if (in == IN_EVENT && r->key == K_FRAME)
        r->event_has |= EV_FRAME << 4;
      return skip_open (r);
    }
}

static int
cb_start_array (void *ctx)
{
  Reader *r = ctx;
  In in = r->in[r->depth];
  SsProfile *p;

  if (r->skip > 0 || r->skip_value)
    return skip_open (r);

  switch (in)
    {
    case IN_FILE:
      if (r->key == K_PROFILES)
        {
          r->has_profiles = TRUE;
          return enter (r, IN_PROFILES);
        }
      return fail (r, FC_FORMAT_ERROR_TYPE, _("shared: expected an object"));
    case IN_SHARED:
      r->has_frames = TRUE;
      return enter (r, IN_FRAMES);
    case IN_PROFILE:
      p = current_profile (r);
      switch (r->key)
        {
        case K_EVENTS:
          return enter (r, IN_EVENTS);
        case K_SAMPLES:
          return enter (r, IN_SAMPLES);
        case K_WEIGHTS:
          return enter (r, IN_WEIGHTS);
        default:
          return skip_open (r);
        }
    case IN_SAMPLES:
      p = current_profile (r);
      if (p->samples_error == NULL)
        {
          guint32 at = p->refs->len;

          if (++r->n_samples > FC_READ_MAX_SAMPLES)
            return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("profiles[%u].samples[%u]: more than %" PRIu64
                         " samples, the reader's limit"), profile_index (r), r->index[r->depth], FC_READ_MAX_SAMPLES);
          g_array_append_val (p->starts, at);
        }
      return enter (r, IN_SAMPLE);
    case IN_FRAMES:
      return fail (r, FC_FORMAT_ERROR_MISSING, _("shared.frames[%u]: expected an object with a \"name\""),
                   r->index[r->depth]);
    case IN_EVENTS:
      p = current_profile (r);
      note (&p->events_error, _("profiles[%u].events[%u]: expected {\"type\": \"O\" or \"C\", \"at\", \"frame\"}"),
            profile_index (r), r->index[r->depth]);
      return skip_open (r);
    case IN_WEIGHTS:
      p = current_profile (r);
      note (&p->weights_error, _("profiles[%u].weights[%u]: expected a number >= 0"), profile_index (r),
            r->index[r->depth]);
      return skip_open (r);
    case IN_SAMPLE:
      p = current_profile (r);
      note (&p->samples_error, _("profiles[%u].samples[%u][%u]: expected a frame index"), profile_index (r),
            r->index[r->depth - 1], r->index[r->depth]);
      return skip_open (r);
    case IN_PROFILES:
      /* not an object: a profile without a type, which the end says */
      if (r->profiles->len >= FC_READ_MAX_THREADS)
        return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("profiles[%u]: more than %u profiles, the reader's limit"),
                     r->index[r->depth], FC_READ_MAX_THREADS);
      g_ptr_array_add (r->profiles, ss_profile_new ());
      r->index[r->depth]++;
      return skip_open (r);
    case IN_TOP:
    case IN_FRAME:
    case IN_EVENT:
    default:
      if (in == IN_EVENT && r->key == K_FRAME)
        r->event_has |= EV_FRAME << 4;
      return skip_open (r);
    }
}

static int
end_event (Reader *r)
{
  SsProfile *p = current_profile (r);
  guint i = r->index[r->depth];

  if (p->events_error != NULL)
    return 1;
  if ((r->event_has & (EV_TYPE | EV_AT)) != (EV_TYPE | EV_AT))
    note (&p->events_error, _("profiles[%u].events[%u]: expected {\"type\": \"O\" or \"C\", \"at\", \"frame\"}"),
          profile_index (r), i);
  else if ((r->event_has & EV_FRAME) == 0)
    note (&p->events_error, _("profiles[%u].events[%u].frame: expected a frame index"), profile_index (r), i);
  else if (++r->n_events > FC_READ_MAX_SAMPLES)
    return fail (r, FC_FORMAT_ERROR_TOO_LARGE, _("profiles[%u].events[%u]: more than %" PRIu64
                 " events in all, the reader's limit"), profile_index (r), i, FC_READ_MAX_SAMPLES);
  else
    g_array_append_val (p->events, r->event);
  return 1;
}

static int
cb_end (void *ctx)
{
  Reader *r = ctx;
  In in;

  if (r->skip > 0)
    {
      r->skip--;
      return 1;
    }

  in = r->in[r->depth];
  switch (in)
    {
    case IN_FRAME:
      if (!r->frame_named)
        return fail (r, FC_FORMAT_ERROR_MISSING, _("shared.frames[%u]: expected an object with a \"name\""),
                     r->index[r->depth - 1]);
      {
        guint32 id = fc_profile_intern_frame (r->profile, &r->frame);

        g_array_append_val (r->model_frames, id);
      }
      break;
    case IN_EVENT:
      if (!end_event (r))
        return 0;
      break;
    default:
      break;
    }

  r->depth--;
  r->key = K_OTHER;
  if (r->depth > 0)
    {
      In parent = r->in[r->depth];

      if (parent == IN_FRAMES || parent == IN_PROFILES || parent == IN_EVENTS || parent == IN_SAMPLES ||
          parent == IN_WEIGHTS || parent == IN_SAMPLE)
        r->index[r->depth]++;
    }
  return 1;
}

static const yajl_callbacks callbacks = {
  .yajl_null = cb_null,
  .yajl_boolean = cb_boolean,
  .yajl_number = cb_number,
  .yajl_string = cb_string,
  .yajl_start_map = cb_start_map,
  .yajl_map_key = cb_map_key,
  .yajl_end_map = cb_end,
  .yajl_start_array = cb_start_array,
  .yajl_end_array = cb_end,
};

/* the frame ids of one sample, leaf first, from indexes root first */
static gboolean
sample_stack (FcProfile     *profile,
              const guint32 *model_frames,
              guint          n_frames,
              SsProfile     *p,
              guint          sample,
              GArray        *ids,
              guint32       *stack,
              guint          profile_i,
              GError       **error)
{
  guint begin = g_array_index (p->starts, guint32, sample);
  guint end = sample + 1 < p->starts->len ? g_array_index (p->starts, guint32, sample + 1) : p->refs->len;

  g_array_set_size (ids, 0);
  for (guint j = end; j > begin; j--)
    {
      guint32 f = g_array_index (p->refs, guint32, j - 1);

      if (f >= n_frames)
        {
          /* the first index in the file that is too large, reported as written */
          for (guint k = begin; k < end; k++)
            {
              guint32 g = g_array_index (p->refs, guint32, k);

              if (g >= n_frames)
                {
                  g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                               _("speedscope profiles[%u].samples[%u][%u]: frame %.0f but shared.frames has %u"),
                               profile_i, sample, k - begin, g == FRAME_BAD ? p->bad_frame : (double) g, n_frames);
                  return FALSE;
                }
            }
        }
      g_array_append_val (ids, model_frames[f]);
    }
  if (ids->len > FC_READ_MAX_STACK_DEPTH)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                   _("speedscope profiles[%u].samples[%u]: more than %u frames, the reader's limit"), profile_i,
                   sample, FC_READ_MAX_STACK_DEPTH);
      return FALSE;
    }
  *stack = fc_profile_intern_stack_frames (profile, (guint32 *) ids->data, ids->len);
  return fc_interop_check_stacks (profile, "speedscope", error);
}

static gboolean
read_sampled (FcProfile     *profile,
              SsProfile     *p,
              const guint32 *model_frames,
              guint          n_frames,
              guint32        thread,
              gint64         base_ns,
              double         origin,   /* ns: the earliest startValue of all profiles */
              guint64       *total,    /* samples made from weights, in all profiles */
              guint          profile_i,
              GError       **error)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  double start = p->has_start ? p->start : 0;
  double at = start;

  if (p->samples_error != NULL || p->weights_error != NULL)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, _("speedscope %s"),
                   p->samples_error != NULL ? p->samples_error : p->weights_error);
      return FALSE;
    }
  if (p->weights->len != p->starts->len)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE, _("speedscope profiles[%u]: %u samples but %u weights"),
                   profile_i, p->starts->len, p->weights->len);
      return FALSE;
    }
  for (guint i = 0; i < p->starts->len; i++)
    {
      double w = g_array_index (p->weights, double, i);
      guint32 stack;

      if (!sample_stack (profile, model_frames, n_frames, p, i, ids, &stack, profile_i, error))
        return FALSE;
      if (p->scale > 0)
        {
          gint64 ns;

          if (!time_ns (at, p->scale, origin, &ns))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("speedscope profiles[%u].weights[%u]: the sample's time (%g) is out of range"), profile_i,
                           i, at);
              return FALSE;
            }
          if (++*total > fc_interop_max_expanded_samples ())
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           _("speedscope profiles[%u].weights[%u]: more than %" PRIu64 " samples in all"),
                           profile_i, i, fc_interop_max_expanded_samples ());
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
                           _("speedscope profiles[%u].weights[%u]: more than %" PRIu64 " samples in all"),
                           profile_i, i, fc_interop_max_expanded_samples ());
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
              SsProfile     *p,
              const guint32 *model_frames,
              guint          n_frames,
              guint32        thread,
              gint64         base_ns,
              double         origin,   /* ns: the earliest startValue of all profiles */
              guint          profile_i,
              GError       **error)
{
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) leaf_first = g_array_new (FALSE, FALSE, sizeof (guint32));
  gint64 scale = p->scale > 0 ? p->scale : 1;
  double prev_at = -G_MAXDOUBLE;

  if (p->events_error != NULL)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, _("speedscope %s"), p->events_error);
      return FALSE;
    }
  for (guint i = 0; i < p->events->len; i++)
    {
      const Event *e = &g_array_index (p->events, Event, i);

      if (e->frame >= n_frames)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                       _("speedscope profiles[%u].events[%u].frame: frame %.0f but shared.frames has %u"), profile_i, i,
                       e->frame == FRAME_BAD ? p->bad_frame : (double) e->frame, n_frames);
          return FALSE;
        }
      if (e->at < prev_at)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                       _("speedscope profiles[%u].events[%u].at: %g is before the previous event (%g)"), profile_i, i,
                       e->at, prev_at);
          return FALSE;
        }
      /* the stack as it was since the previous time is a sample there */
      if (e->at > prev_at && prev_at != -G_MAXDOUBLE && open->len > 0)
        {
          gint64 ns;

          if (!time_ns (prev_at, scale, origin, &ns))
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("speedscope profiles[%u].events[%u].at: %g is out of range"), profile_i, i - 1, prev_at);
              return FALSE;
            }
          g_array_set_size (leaf_first, 0);
          for (guint j = open->len; j > 0; j--)
            g_array_append_val (leaf_first, model_frames[g_array_index (open, guint32, j - 1)]);
          fc_profile_append_sample (profile, base_ns + ns, thread,
                                    fc_profile_intern_stack_frames (profile, (guint32 *) leaf_first->data,
                                                                    leaf_first->len), 0);
          if (!fc_interop_check_stacks (profile, "speedscope", error))
            return FALSE;
        }
      prev_at = e->at;
      if (!e->close)
        {
          if (open->len >= FC_READ_MAX_STACK_DEPTH)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                           _("speedscope profiles[%u].events[%u]: more than %u frames open, the reader's limit"),
                           profile_i, i, FC_READ_MAX_STACK_DEPTH);
              return FALSE;
            }
          g_array_append_val (open, e->frame);
        }
      else
        {
          if (open->len == 0 || g_array_index (open, guint32, open->len - 1) != e->frame)
            {
              g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                           _("speedscope profiles[%u].events[%u]: closes frame %u, which is not the innermost open frame"),
                           profile_i, i, e->frame);
              return FALSE;
            }
          g_array_set_size (open, open->len - 1);
        }
    }
  if (open->len > 0)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                   _("speedscope profiles[%u].events: %u frames are never closed"), profile_i, open->len);
      return FALSE;
    }
  return TRUE;
}

FcDocument *
fc_speedscope_read (GBytes  *bytes,
                    GError **error)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) profile = fc_interop_new_profile ("native");
  g_autoptr(GArray) model_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) ss_profile_free);
  gint64 base_ns = g_get_real_time () / 1000 * 1000000;
  gsize len = 0;
  const char *text = g_bytes_get_data (bytes, &len);
  double origin = G_MAXDOUBLE;
  guint64 total = 0;
  Reader r = { 0 };

  if (!fc_json_check_object_text (text, len, "speedscope", error))
    return NULL;

  r.profile = profile;
  r.model_frames = model_frames;
  r.profiles = profiles;
  r.in[0] = IN_TOP;

  /* all of the text in one call: linear in every token's length */
  if (!fc_json_run (&callbacks, &r, text, len, "speedscope", r.error == NULL ? &r.error : NULL) && r.error == NULL)
    r.error = g_error_new_literal (FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("speedscope: parsing stopped"));
  if (r.error != NULL)
    {
      g_propagate_error (error, r.error);
      return NULL;
    }

  if (!r.has_shared)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING, _("speedscope: no \"shared\" object"));
      return NULL;
    }
  if (!r.has_frames || !r.has_profiles)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING, _("speedscope %s: expected an array"),
                   !r.has_frames ? "shared.frames" : "file.profiles");
      return NULL;
    }

  /* Times are on one axis for all profiles (threads): the earliest
   * startValue is the document's zero, so threads keep their offsets. */
  for (guint i = 0; i < profiles->len; i++)
    {
      SsProfile *p = g_ptr_array_index (profiles, i);

      if (p->scale > 0 && p->has_start)
        origin = MIN (origin, p->start * p->scale);
    }
  if (origin == G_MAXDOUBLE)
    origin = 0;

  for (guint i = 0; i < profiles->len; i++)
    {
      SsProfile *p = g_ptr_array_index (profiles, i);
      const guint32 *frames = (const guint32 *) model_frames->data;
      char tid[16];
      guint32 thread;
      gboolean ok;

      g_snprintf (tid, sizeof tid, "%u", i + 1);
      thread = fc_profile_ensure_thread (profile, tid);
      fc_profile_get_thread_mut (profile, thread)->has_metadata = TRUE;
      if (p->name != NULL && p->name[0] != '\0')
        fc_profile_set_thread_name (profile, thread, p->name);
      if (p->type == SS_SAMPLED)
        ok = read_sampled (profile, p, frames, model_frames->len, thread, base_ns, origin, &total, i, error);
      else if (p->type == SS_EVENTED)
        ok = read_evented (profile, p, frames, model_frames->len, thread, base_ns, origin, i, error);
      else
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED,
                       _("speedscope profiles[%u].type: expected \"sampled\" or \"evented\""), i);
          ok = FALSE;
        }
      if (!ok)
        return NULL;
    }

  if (!fc_interop_finish_profile (doc, profile, "speedscope", error))
    return NULL;
  return g_steal_pointer (&doc);
}
