/* fc-payload-parser.c - push parser for one V1/V2 JSON payload (yajl events -> FcProfile)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <glib/gi18n-lib.h>

#include "fc-big-alloc.h"
#include "fc-chunk-meta.h"
#include "fc-format-error.h"
#include "fc-json-stream-private.h"
#include "fc-payload-parser-private.h"
#include "fc-problem.h"
#include "fc-time.h"

/*
 * The payload is tokenized by yajl and interpreted on the fly: strings,
 * frames and threads go straight into the FcProfile, so memory stays close to
 * the size of the model. Stacks and samples refer to frames and stacks by
 * index, and key order is free in JSON ("samples" may come before "stacks",
 * "version" after "profile"), so they are kept as file indexes and resolved
 * once the payload is complete.
 *
 * Values the model does not interpret are captured: top-level keys and
 * unknown keys of "profile" become JsonNodes (JsonBuilder) in the meta and
 * profile-extra objects; unknown keys of samples, frames and thread_metadata
 * entries are regenerated with yajl_gen as compact JSON object text.
 */

#define MAX_PROBLEMS      100
#define MAX_ELAPSED_NS    (G_GINT64_CONSTANT (1) << 62)
#define MAX_LEVELS        8

typedef enum {
  CTX_TOP,
  CTX_ROOT,
  CTX_PROFILE,
  CTX_SAMPLES,
  CTX_SAMPLE,
  CTX_STACKS,
  CTX_STACK,
  CTX_FRAMES,
  CTX_FRAME,
  CTX_THREADS,
  CTX_THREAD,
} Ctx;

typedef enum {
  KEY_OTHER = 0,
  KEY_PROFILE,
  KEY_SAMPLES,
  KEY_STACKS,
  KEY_FRAMES,
  KEY_THREAD_METADATA,
  KEY_STACK_ID,
  KEY_THREAD_ID,
  KEY_TIMESTAMP,
  KEY_ELAPSED,
  KEY_FUNCTION,
  KEY_MODULE,
  KEY_PACKAGE,
  KEY_FILENAME,
  KEY_ABS_PATH,
  KEY_PLATFORM,
  KEY_LINENO,
  KEY_COLNO,
  KEY_IN_APP,
  KEY_INSTRUCTION_ADDR,
  KEY_NAME,
  KEY_PRIORITY,
} Key;

typedef enum {
  VAL_NULL,
  VAL_BOOL,
  VAL_NUMBER,
  VAL_STRING,
  VAL_OBJECT,
  VAL_ARRAY,
} ValKind;

typedef enum {
  CAP_META,
  CAP_PROFILE_EXTRA,
  CAP_EXTRA,
} CapDest;

enum {
  SEEN_PROFILE  = 1 << 0,
  SEEN_SAMPLES  = 1 << 1,
  SEEN_STACKS   = 1 << 2,
  SEEN_FRAMES   = 1 << 3,
  SEEN_THREADS  = 1 << 4,
  SEEN_ROOT     = 1 << 5,
};

enum {
  SAMPLE_HAS_STACK   = 1 << 0,
  SAMPLE_HAS_THREAD  = 1 << 1,
  SAMPLE_HAS_TS      = 1 << 2,
  SAMPLE_HAS_ELAPSED = 1 << 3,
};

typedef struct {
  Ctx         ctx;
  Key         key;        /* in objects: the key whose value comes next */
  guint32     index;      /* in arrays: the index of the next element */
  const char *name;       /* in objects: that key, for messages: key_names[key] or @other */
  char        other[40];  /* a key the parser does not interpret (truncated) */
  guint32     keys_seen;  /* in objects: 1 << Key of the interpreted keys so far */
  GHashTable *others;     /* in objects: the other keys so far, made at the first */
} Level;

/* the text of each interpreted key, which match_key() matched exactly: no
 * copy for each of the millions of keys of a big payload */
static const char * const key_names[] = {
  [KEY_OTHER] = "",
  [KEY_PROFILE] = "profile",
  [KEY_SAMPLES] = "samples",
  [KEY_STACKS] = "stacks",
  [KEY_FRAMES] = "frames",
  [KEY_THREAD_METADATA] = "thread_metadata",
  [KEY_STACK_ID] = "stack_id",
  [KEY_THREAD_ID] = "thread_id",
  [KEY_TIMESTAMP] = "timestamp",
  [KEY_ELAPSED] = "elapsed_since_start_ns",
  [KEY_FUNCTION] = "function",
  [KEY_MODULE] = "module",
  [KEY_PACKAGE] = "package",
  [KEY_FILENAME] = "filename",
  [KEY_ABS_PATH] = "abs_path",
  [KEY_PLATFORM] = "platform",
  [KEY_LINENO] = "lineno",
  [KEY_COLNO] = "colno",
  [KEY_IN_APP] = "in_app",
  [KEY_INSTRUCTION_ADDR] = "instruction_addr",
  [KEY_NAME] = "name",
  [KEY_PRIORITY] = "priority",
};

G_STATIC_ASSERT (G_N_ELEMENTS (key_names) == KEY_PRIORITY + 1);
/* Level.keys_seen has a bit for each */
G_STATIC_ASSERT (KEY_PRIORITY < 32);

typedef struct {
  gint64  ts_ns;
  gint64  elapsed_ns;
  guint32 thread;
  guint32 stack;      /* index into the file's stacks */
  guint32 extra;
  guint32 has;
} TempSample;

/* resolve() makes the model's samples in the same array */
G_STATIC_ASSERT (sizeof (FcSample) <= sizeof (TempSample));

typedef struct {
  char    tid[40];
  gsize   len;
  guint32 index;
} TidCache;

typedef enum {
  LEGACY_NONE,
  LEGACY_NAME,
  LEGACY_SYMBOL,
  LEGACY_FILE,
  LEGACY_LINE,
} Legacy;

/* A growing array for the millions of small appends of a big payload
 * (frame indexes of stacks, samples): g_array_append_val() is a call and
 * a memcpy() for each 4-byte index, a tenth of the load. */
typedef struct {
  guint8 *data;
  gsize   len;
  gsize   capacity;
  gsize   elt_size;
} Vec;

static void
vec_init (Vec   *v,
          gsize  elt_size)
{
  v->data = NULL;
  v->len = v->capacity = 0;
  v->elt_size = elt_size;
}

static void
vec_clear (Vec *v)
{
  fc_big_free (v->data, v->capacity * v->elt_size);
  v->data = NULL;
  v->len = v->capacity = 0;
}

/* Past this size the room a doubling adds is faulted in at once: it will be
 * filled (a payload's samples and frame indexes take half a million and 1.6
 * million elements), and a fault a page, each a trap through the hypervisor
 * on a VM, was a tenth of reading a deep chunk. From FC_BIG_MIN on the
 * array is in huge pages (fc-big-alloc.h): a fault maps 2 MiB. */
#define VEC_POPULATE_MIN (256 * 1024)

static void
vec_grow (Vec *v)
{
  gsize old = v->capacity * v->elt_size;

  v->capacity = MAX (1024, v->capacity * 2);
  v->data = fc_big_realloc (v->data, old, v->capacity * v->elt_size);
  if (old >= VEC_POPULATE_MIN)
    fc_big_populate (v->data, old, v->capacity * v->elt_size);
}

/* room for one more element at the end */
static inline gpointer
vec_push (Vec *v)
{
  if (G_UNLIKELY (v->len == v->capacity))
    vec_grow (v);
  return v->data + v->len++ * v->elt_size;
}

#define vec_index(v, type, i) (((type *) (gpointer) (v)->data)[i])

struct _FcPayloadParser
{
  FcReadFlags  flags;
  char        *where;
  yajl_handle  yajl;
  FcProfile   *profile;
  GError      *error;
  guint64      n_bytes;
  guint32      seen;

  /* the document's limits (fc-read-limits.h) */
  FcReadBudget *budget;
  FcReadBudget  own_budget;

  /* blocks held back while yajl is inside a long token (see feed()) */
  guint64      n_events;
  GByteArray  *held;
  gsize        next_feed;
  guint64      quiet;         /* bytes fed since the last block that gave an event */
  guint64      quiet_from;    /* ... from this byte on */

  Level        levels[MAX_LEVELS];
  guint        n_levels;
  guint        depth;

  /* an uninterpreted value being captured */
  gboolean     capturing;
  guint        capture_depth;
  CapDest      capture_dest;
  JsonBuilder *builder;
  yajl_gen     extra_gen;
  gboolean     extra_open;

  /* the object being read */
  TempSample   sample;
  FcFrame      frame;
  guint32      thread_index;

  /* file indexes, resolved in finish */
  Vec          samples;       /* TempSample */
  GArray      *frame_ids;     /* file frame -> model frame id */
  Vec          stack_frames;  /* guint32: file frame indexes of every stack, leaf first */
  GArray      *stack_starts;  /* offset of each stack in stack_frames */

  gboolean     profile_is_string;
  guint        n_numeric_tids;
  guint        first_numeric_tid;
  gboolean     any_elapsed;

  GString     *last_tid;
  TidCache     tid_cache[8];
  guint        tid_cache_next;
  GString     *scratch;

  GPtrArray   *problems;
  guint        n_suppressed;

  /* other spellings of a frame's name, file and line: the older Python SDK's
   * "name", "file", "line" and cocoa's "symbol", kept in the frame's extra
   * and read into the model where the usual key is missing */
  Legacy       capture_legacy;
  guint32      legacy_name;
  guint32      legacy_symbol;
  guint32      legacy_file;
  gint32       legacy_line;
  guint        n_nameless;
  guint        first_nameless;
};

/* ---- numbers ---- */

typedef enum {
  INT_OK,
  INT_NOT_INTEGER,
  INT_NEGATIVE,
  INT_TOO_LARGE,
} IntStatus;

static IntStatus
parse_uint (const char *s,
            gsize       len,
            guint64     max,
            guint64    *out)
{
  guint64 v = 0;
  gboolean negative = FALSE;
  gsize i = 0;

  if (len > 0 && s[0] == '-')
    {
      negative = TRUE;
      i = 1;
    }
  if (i == len)
    return INT_NOT_INTEGER;

  for (; i < len; i++)
    {
      guint d;

      if (!g_ascii_isdigit (s[i]))
        return negative ? INT_NEGATIVE : INT_NOT_INTEGER;
      d = s[i] - '0';
      if (v > (max - d) / 10)
        return negative ? INT_NEGATIVE : INT_TOO_LARGE;
      v = v * 10 + d;
    }

  if (negative && v != 0)
    return INT_NEGATIVE;

  *out = v;
  return INT_OK;
}

/* ---- errors and problems ---- */

static const char *
kind_name (ValKind kind)
{
  switch (kind)
    {
    case VAL_NULL: return "null";
    case VAL_BOOL: return _("a boolean");
    case VAL_NUMBER: return _("a number");
    case VAL_STRING: return _("a string");
    case VAL_OBJECT: return _("an object");
    case VAL_ARRAY: return _("an array");
    default: return _("a value");
    }
}

static void
append_path (FcPayloadParser *self,
             GString         *s)
{
  gsize base = s->len;

  for (guint i = 1; i < self->n_levels; i++)
    {
      const Level *l = &self->levels[i];

      switch (l->ctx)
        {
        case CTX_SAMPLES:
        case CTX_STACKS:
        case CTX_STACK:
        case CTX_FRAMES:
          g_string_append_printf (s, "[%u]", l->index);
          break;

        case CTX_TOP:
        case CTX_ROOT:
        case CTX_PROFILE:
        case CTX_SAMPLE:
        case CTX_FRAME:
        case CTX_THREADS:
        case CTX_THREAD:
        default:
          if (l->name[0] != '\0')
            {
              if (s->len > base)
                g_string_append_c (s, '.');
              g_string_append (s, l->name);
            }
          break;
        }
    }
}

static char *
current_path (FcPayloadParser *self)
{
  GString *s = g_string_new (NULL);

  append_path (self, s);
  return g_string_free (s, FALSE);
}

static int fail (FcPayloadParser *self,
                 FcFormatError    code,
                 const char      *format,
                 ...) G_GNUC_PRINTF (3, 4);

/* Returns 0 so that yajl callbacks can `return fail (...)` to stop. */
static int
fail (FcPayloadParser *self,
      FcFormatError    code,
      const char      *format,
      ...)
{
  g_autoptr(GString) s = NULL;
  va_list args;

  if (self->error != NULL)
    return 0;

  s = g_string_new (self->where);
  {
    gsize before = s->len;

    append_path (self, s);
    if (s->len > before)
      g_string_append (s, ": ");
  }
  va_start (args, format);
  g_string_append_vprintf (s, format, args);
  va_end (args);

  self->error = g_error_new_literal (FC_FORMAT_ERROR, code, s->str);
  return 0;
}

static void fail_at (FcPayloadParser *self,
                     FcFormatError    code,
                     const char      *location,
                     const char      *format,
                     ...) G_GNUC_PRINTF (4, 5);

static void
fail_at (FcPayloadParser *self,
         FcFormatError    code,
         const char      *location,
         const char      *format,
         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (self->error != NULL)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  self->error = g_error_new (FC_FORMAT_ERROR, code, "%s%s%s%s",
                             self->where ? self->where : "",
                             location ? location : "",
                             location ? ": " : "",
                             message);
}

static void add_problem (FcPayloadParser   *self,
                         FcProblemSeverity  severity,
                         const char        *location,
                         const char        *format,
                         ...) G_GNUC_PRINTF (4, 5);

static void
add_problem (FcPayloadParser   *self,
             FcProblemSeverity  severity,
             const char        *location,
             const char        *format,
             ...)
{
  g_autofree char *message = NULL;
  g_autofree char *full_location = NULL;
  va_list args;

  if (self->problems->len >= MAX_PROBLEMS)
    {
      self->n_suppressed++;
      return;
    }

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  full_location = g_strconcat (self->where ? self->where : "", location, NULL);
  g_ptr_array_add (self->problems, fc_problem_new (severity, full_location, "%s", message));
}

/* ---- capture of uninterpreted values ---- */

static gboolean
is_key (const unsigned char *key,
        size_t               len,
        const char          *literal)
{
  return strlen (literal) == len && memcmp (key, literal, len) == 0;
}

static void
begin_capture (FcPayloadParser     *self,
               CapDest              dest,
               const unsigned char *key,
               size_t               len)
{
  self->capturing = TRUE;
  self->capture_depth = 0;
  self->capture_dest = dest;

  if (dest == CAP_EXTRA)
    {
      if (!self->extra_open)
        {
          yajl_gen_map_open (self->extra_gen);
          self->extra_open = TRUE;
        }
      yajl_gen_string (self->extra_gen, key, len);
    }
  else
    {
      g_autofree char *name = g_strndup ((const char *)key, len);

      json_builder_reset (self->builder);
      json_builder_begin_object (self->builder);
      json_builder_set_member_name (self->builder, name);
    }
}

static void
end_capture (FcPayloadParser *self)
{
  self->capturing = FALSE;
  self->capture_legacy = LEGACY_NONE;

  if (self->capture_dest != CAP_EXTRA)
    {
      g_autoptr(JsonNode) root = NULL;
      JsonObject *dest;
      JsonObject *object;
      g_autoptr(GList) members = NULL;

      json_builder_end_object (self->builder);
      root = json_builder_get_root (self->builder);
      object = json_node_get_object (root);
      members = json_object_get_members (object);

      dest = self->capture_dest == CAP_META
        ? fc_profile_get_meta (self->profile)
        : fc_profile_get_profile_extra (self->profile);

      for (const GList *l = members; l != NULL; l = l->next)
        json_object_set_member (dest, l->data, json_node_copy (json_object_get_member (object, l->data)));

      json_builder_reset (self->builder);
    }
}

static guint32
take_extra (FcPayloadParser *self)
{
  const unsigned char *buf = NULL;
  size_t len = 0;
  guint32 id;

  if (!self->extra_open)
    return FC_STRING_NONE;

  yajl_gen_map_close (self->extra_gen);
  yajl_gen_get_buf (self->extra_gen, &buf, &len);
  id = fc_profile_intern_len (self->profile, (const char *)buf, len);
  yajl_gen_clear (self->extra_gen);
  yajl_gen_reset (self->extra_gen, NULL);
  self->extra_open = FALSE;

  return id;
}

/* A known key with a null value is kept verbatim, so `"in_app": null` survives a round trip. */
static void
extra_put_null (FcPayloadParser *self,
                const char      *key)
{
  if (!self->extra_open)
    {
      yajl_gen_map_open (self->extra_gen);
      self->extra_open = TRUE;
    }
  yajl_gen_string (self->extra_gen, (const unsigned char *)key, strlen (key));
  yajl_gen_null (self->extra_gen);
}

static void
capture_legacy (FcPayloadParser *self,
                ValKind          kind,
                const char      *text,
                gsize            len)
{
  guint64 v = 0;

  switch (self->capture_legacy)
    {
    case LEGACY_NAME:
    case LEGACY_SYMBOL:
    case LEGACY_FILE:
      if (kind == VAL_STRING && len > 0)
        {
          guint32 id = fc_profile_intern_len (self->profile, text, len);

          if (self->capture_legacy == LEGACY_NAME)
            self->legacy_name = id;
          else if (self->capture_legacy == LEGACY_SYMBOL)
            self->legacy_symbol = id;
          else
            self->legacy_file = id;
        }
      break;
    case LEGACY_LINE:
      if (kind == VAL_NUMBER && parse_uint (text, len, G_MAXINT32, &v) == INT_OK)
        self->legacy_line = (gint32) v;
      break;
    case LEGACY_NONE:
    default:
      break;
    }
  self->capture_legacy = LEGACY_NONE;
}

/* A value kept as it is, counted against the document's limits: JSON
 * values (nodes of the metadata), or bytes of compact JSON text (the
 * uninterpreted keys of samples, frames and threads). */
static int
count_captured (FcPayloadParser *self,
                gsize            len)
{
  if (self->capture_dest == CAP_EXTRA)
    {
      self->budget->extra_bytes += len + 8;
      if (self->budget->extra_bytes > FC_READ_MAX_EXTRA_BYTES)
        return fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %" PRIu64 " MiB of keys of samples, "
                     "frames and threads that the reader keeps as they are, the reader's limit"),
                     FC_READ_MAX_EXTRA_BYTES >> 20);
    }
  else if (++self->budget->json_values > FC_READ_MAX_JSON_VALUES)
    return fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %" PRIu64 " JSON values kept as they are "
                 "(metadata and keys the reader does not interpret), the reader's limit"), FC_READ_MAX_JSON_VALUES);
  return 1;
}

static int
capture_scalar (FcPayloadParser *self,
                ValKind          kind,
                const char      *text,
                gsize            len,
                gboolean         boolean)
{
  if (!count_captured (self, len))
    return 0;
  if (self->capture_legacy != LEGACY_NONE && self->capture_depth == 0)
    capture_legacy (self, kind, text, len);

  if (self->capture_dest == CAP_EXTRA)
    {
      yajl_gen g = self->extra_gen;

      switch (kind)
        {
        case VAL_NULL: yajl_gen_null (g); break;
        case VAL_BOOL: yajl_gen_bool (g, boolean); break;
        case VAL_NUMBER: yajl_gen_number (g, text, len); break;
        case VAL_STRING: yajl_gen_string (g, (const unsigned char *)text, len); break;
        case VAL_OBJECT:
        case VAL_ARRAY:
        default: g_assert_not_reached ();
        }
    }
  else
    {
      JsonBuilder *b = self->builder;

      switch (kind)
        {
        case VAL_NULL: json_builder_add_null_value (b); break;
        case VAL_BOOL: json_builder_add_boolean_value (b, boolean); break;
        case VAL_NUMBER: fc_json_builder_add_number (b, text, len); break;
        case VAL_STRING:
          {
            g_autofree char *str = g_strndup (text, len);
            json_builder_add_string_value (b, str);
          }
          break;
        case VAL_OBJECT:
        case VAL_ARRAY:
        default: g_assert_not_reached ();
        }
    }

  if (self->capture_depth == 0)
    end_capture (self);
  return 1;
}

/* ---- levels ---- */

static Level *
top (FcPayloadParser *self)
{
  return &self->levels[self->n_levels - 1];
}

static void
push (FcPayloadParser *self,
      Ctx              ctx)
{
  Level *l;

  g_assert (self->n_levels < MAX_LEVELS);
  l = &self->levels[self->n_levels++];
  l->ctx = ctx;
  l->key = KEY_OTHER;
  l->index = 0;
  l->name = "";
  l->keys_seen = 0;
  l->others = NULL;
}

static void
pop (FcPayloadParser *self)
{
  g_clear_pointer (&self->levels[self->n_levels - 1].others, g_hash_table_unref);
  self->n_levels--;
}

static void
after_value (FcPayloadParser *self)
{
  Level *l = top (self);

  switch (l->ctx)
    {
    case CTX_SAMPLES:
    case CTX_STACKS:
    case CTX_STACK:
    case CTX_FRAMES:
      l->index++;
      break;
    case CTX_TOP:
    case CTX_ROOT:
    case CTX_PROFILE:
    case CTX_SAMPLE:
    case CTX_FRAME:
    case CTX_THREADS:
    case CTX_THREAD:
    default:
      break;
    }
}

static const char *
expected_of (Ctx ctx,
             Key key)
{
  switch (ctx)
    {
    case CTX_TOP: return _("a JSON object at the top level");
    case CTX_ROOT: return _("an object");
    case CTX_PROFILE:
      return key == KEY_THREAD_METADATA ? _("an object") : _("an array");
    case CTX_SAMPLES: return _("an object (a sample)");
    case CTX_STACKS: return _("an array of frame indexes (a stack)");
    case CTX_STACK: return _("a frame index (an integer)");
    case CTX_FRAMES: return _("an object (a frame)");
    case CTX_THREADS: return _("an object (thread metadata)");
    case CTX_SAMPLE:
    case CTX_FRAME:
    case CTX_THREAD:
    default:
      return _("a scalar");
    }
}

/* ---- interpreted scalars ---- */

/* Samples of a few threads interleave: a tiny cache of recent thread ids
 * saves two hash lookups per sample. */
static guint32
ensure_thread_len (FcPayloadParser *self,
                   const char      *tid,
                   gsize            len)
{
  TidCache *slot;
  guint32 index;

  for (guint i = 0; i < G_N_ELEMENTS (self->tid_cache); i++)
    {
      slot = &self->tid_cache[i];
      /* thread ids differ most at the end: look there before memcmp() */
      if (slot->len == len && len > 0 && slot->tid[len - 1] == tid[len - 1] && memcmp (slot->tid, tid, len) == 0)
        return slot->index;
    }

  g_string_truncate (self->last_tid, 0);
  g_string_append_len (self->last_tid, tid, len);
  index = fc_profile_ensure_thread (self->profile, self->last_tid->str);
  if (fc_profile_get_n_threads (self->profile) > FC_READ_MAX_THREADS)
    {
      fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %u threads, the reader's limit"), FC_READ_MAX_THREADS);
      return index;
    }

  if (len < sizeof slot->tid)
    {
      slot = &self->tid_cache[self->tid_cache_next++ % G_N_ELEMENTS (self->tid_cache)];
      memcpy (slot->tid, tid, len);
      slot->len = len;
      slot->index = index;
    }

  return index;
}

static int
int_error (FcPayloadParser *self,
           IntStatus        status,
           const char      *text,
           gsize            len,
           guint64          max)
{
  switch (status)
    {
    case INT_NOT_INTEGER:
      return fail (self, FC_FORMAT_ERROR_TYPE, _("expected an integer, got %.*s"), (int)MIN (len, 40), text);
    case INT_NEGATIVE:
      return fail (self, FC_FORMAT_ERROR_RANGE, _("negative value %.*s"), (int)MIN (len, 40), text);
    case INT_TOO_LARGE:
      return fail (self, FC_FORMAT_ERROR_RANGE, _("%.*s is out of range (at most %" PRIu64 ")"),
                   (int)MIN (len, 40), text, max);
    case INT_OK:
    default:
      return 1;
    }
}

/* "1710805788.123456": whole seconds and at most nine decimals, as SDKs
 * write them, with the result fc_time_parse_seconds() gives; FALSE for
 * anything else, which that general parser then reads or rejects */
static gboolean
parse_seconds_fast (const char *text,
                    gsize       len,
                    gint64     *out_ns)
{
  guint64 seconds = 0, fraction = 0;
  gsize i = 0, n_decimals = 0;

  for (; i < len && i < 10 && g_ascii_isdigit (text[i]); i++)
    seconds = seconds * 10 + (guint) (text[i] - '0');
  if (i == 0)
    return FALSE;
  if (i < len)
    {
      if (text[i] != '.')
        return FALSE;
      for (i++; i < len && n_decimals < 9 && g_ascii_isdigit (text[i]); i++, n_decimals++)
        fraction = fraction * 10 + (guint) (text[i] - '0');
      if (i != len)
        return FALSE;
    }
  for (; n_decimals < 9; n_decimals++)
    fraction *= 10;
  if (seconds >= (guint64) FC_TIME_MAX_S)
    return FALSE;
  *out_ns = (gint64) (seconds * FC_TIME_NS_PER_S + fraction);
  return TRUE;
}

static int
sample_scalar (FcPayloadParser *self,
               Key              key,
               ValKind          kind,
               const char      *text,
               gsize            len)
{
  TempSample *s = &self->sample;
  guint64 v = 0;
  IntStatus st;

  switch (key)
    {
    case KEY_STACK_ID:
      if (kind != VAL_NUMBER)
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected an integer, got %s"), kind_name (kind));
      st = parse_uint (text, len, G_MAXUINT32 - 1, &v);
      if (st != INT_OK)
        return int_error (self, st, text, len, G_MAXUINT32 - 1);
      s->stack = (guint32)v;
      s->has |= SAMPLE_HAS_STACK;
      return 1;

    case KEY_THREAD_ID:
      if (kind == VAL_STRING)
        {
          if (len == 0)
            return fail (self, FC_FORMAT_ERROR_RANGE, _("empty thread id"));
          s->thread = ensure_thread_len (self, text, len);
          if (self->error != NULL)
            return 0;
        }
      else if (kind == VAL_NUMBER)
        {
          st = parse_uint (text, len, G_MAXUINT64, &v);
          if (st != INT_OK)
            return int_error (self, st, text, len, G_MAXUINT64);
          if (self->n_numeric_tids++ == 0)
            self->first_numeric_tid = self->samples.len;
          /* -0 is thread 0 */
          s->thread = text[0] == '-' ? ensure_thread_len (self, "0", 1) : ensure_thread_len (self, text, len);
          if (self->error != NULL)
            return 0;
        }
      else
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a string, got %s"), kind_name (kind));
      s->has |= SAMPLE_HAS_THREAD;
      return 1;

    case KEY_TIMESTAMP:
      if (kind != VAL_NUMBER)
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a number of seconds, got %s"), kind_name (kind));
      if (!parse_seconds_fast (text, len, &s->ts_ns) && !fc_time_parse_seconds (text, len, &s->ts_ns))
        return fail (self, FC_FORMAT_ERROR_RANGE, _("absurd timestamp %.*s (seconds since 1970, before 2200)"),
                     (int)MIN (len, 40), text);
      s->has |= SAMPLE_HAS_TS;
      return 1;

    case KEY_ELAPSED:
      if (kind != VAL_NUMBER && kind != VAL_STRING)
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a decimal string, got %s"), kind_name (kind));
      st = parse_uint (text, len, MAX_ELAPSED_NS, &v);
      if (st != INT_OK)
        return int_error (self, st, text, len, MAX_ELAPSED_NS);
      s->elapsed_ns = (gint64)v;
      s->has |= SAMPLE_HAS_ELAPSED;
      self->any_elapsed = TRUE;
      return 1;

    case KEY_OTHER:
    default:
      g_assert_not_reached ();
      return 0;
    }
}

static gboolean
parse_hex_addr (const char *text,
                gsize       len,
                guint64    *out)
{
  guint64 v = 0;

  if (len < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
    return FALSE;
  if (len - 2 > 16)
    {
      /* Leading zeros are fine ("0x0000000102adc700" is 18 characters). */
      gsize extra = len - 2 - 16;
      for (gsize i = 0; i < extra; i++)
        if (text[2 + i] != '0')
          return FALSE;
      text += extra;
      len -= extra;
    }

  for (gsize i = 2; i < len; i++)
    {
      int d = g_ascii_xdigit_value (text[i]);

      if (d < 0)
        return FALSE;
      v = (v << 4) | (guint)d;
    }

  *out = v;
  return TRUE;
}

static int
frame_scalar (FcPayloadParser *self,
              Key              key,
              const char      *name,
              ValKind          kind,
              const char      *text,
              gsize            len,
              gboolean         boolean)
{
  FcFrame *f = &self->frame;
  guint32 *str_field = NULL;
  guint64 v = 0;
  IntStatus st;

  if (kind == VAL_NULL)
    {
      extra_put_null (self, name);
      return 1;
    }

  switch (key)
    {
    case KEY_FUNCTION: str_field = &f->function; break;
    case KEY_MODULE: str_field = &f->module; break;
    case KEY_PACKAGE: str_field = &f->package; break;
    case KEY_FILENAME: str_field = &f->filename; break;
    case KEY_ABS_PATH: str_field = &f->abs_path; break;
    case KEY_PLATFORM: str_field = &f->platform; break;

    case KEY_LINENO:
    case KEY_COLNO:
      if (kind != VAL_NUMBER)
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected an integer, got %s"), kind_name (kind));
      st = parse_uint (text, len, G_MAXINT32, &v);
      if (st != INT_OK)
        return int_error (self, st, text, len, G_MAXINT32);
      if (key == KEY_LINENO)
        f->lineno = (gint32)v;
      else
        f->colno = (gint32)v;
      return 1;

    case KEY_IN_APP:
      if (kind != VAL_BOOL)
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a boolean, got %s"), kind_name (kind));
      f->in_app = boolean ? FC_IN_APP_YES : FC_IN_APP_NO;
      return 1;

    case KEY_INSTRUCTION_ADDR:
      if (kind == VAL_STRING)
        {
          if (!parse_hex_addr (text, len, &v))
            return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a hex address \"0x...\", got \"%.*s\""),
                         (int)MIN (len, 40), text);
        }
      else if (kind == VAL_NUMBER)
        {
          st = parse_uint (text, len, G_MAXUINT64, &v);
          if (st != INT_OK)
            return int_error (self, st, text, len, G_MAXUINT64);
        }
      else
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a hex address string, got %s"), kind_name (kind));
      f->instruction_addr = v;
      f->has_instruction_addr = TRUE;
      return 1;

    case KEY_OTHER:
    default:
      g_assert_not_reached ();
      return 0;
    }

  if (kind != VAL_STRING)
    return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a string, got %s"), kind_name (kind));
  *str_field = fc_profile_intern_len (self->profile, text, len);
  return 1;
}

static int
thread_scalar (FcPayloadParser *self,
               Key              key,
               const char      *name,
               ValKind          kind,
               const char      *text,
               gsize            len)
{
  FcThread *thread = fc_profile_get_thread_mut (self->profile, self->thread_index);
  guint64 v = 0;
  IntStatus st;

  if (kind == VAL_NULL)
    {
      extra_put_null (self, name);
      return 1;
    }

  if (key == KEY_NAME)
    {
      if (kind != VAL_STRING)
        return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a string, got %s"), kind_name (kind));
      thread->name = fc_profile_intern_len (self->profile, text, len);
      return 1;
    }

  g_assert (key == KEY_PRIORITY);
  if (kind != VAL_NUMBER)
    return fail (self, FC_FORMAT_ERROR_TYPE, _("expected an integer, got %s"), kind_name (kind));
  st = parse_uint (text, len, G_MAXINT32, &v);
  if (st != INT_OK)
    return int_error (self, st, text, len, G_MAXINT32);
  thread->priority = (gint32)v;
  return 1;
}

static int
on_scalar (FcPayloadParser *self,
           ValKind          kind,
           const char      *text,
           gsize            len,
           gboolean         boolean)
{
  Level *l;
  int ret = 1;

  self->n_events++;
  if (self->capturing)
    return capture_scalar (self, kind, text, len, boolean);

  l = top (self);
  switch (l->ctx)
    {
    case CTX_ROOT:
      g_assert (l->key == KEY_PROFILE);
      if (kind == VAL_STRING)
        {
          /* The legacy (pre-V1) format; reported once the version is known. */
          self->profile_is_string = TRUE;
          self->seen |= SEEN_PROFILE;
          return 1;
        }
      return fail (self, FC_FORMAT_ERROR_TYPE, _("expected an object, got %s"), kind_name (kind));

    case CTX_PROFILE:
      if (l->key == KEY_THREAD_METADATA && kind == VAL_NULL)
        return 1;
      return fail (self, FC_FORMAT_ERROR_TYPE, _("expected %s, got %s"), expected_of (l->ctx, l->key), kind_name (kind));

    case CTX_STACK:
      {
        guint64 v = 0;
        IntStatus st;
        guint32 frame;

        if (kind != VAL_NUMBER)
          return fail (self, FC_FORMAT_ERROR_TYPE, _("expected a frame index (an integer), got %s"), kind_name (kind));
        st = parse_uint (text, len, G_MAXUINT32 - 1, &v);
        if (st != INT_OK)
          return int_error (self, st, text, len, G_MAXUINT32 - 1);
        frame = (guint32)v;
        if (self->stack_frames.len >= FC_READ_MAX_STACK_FRAMES)
          return fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %" PRIu64 " frame indexes in all "
                       "stacks, the reader's limit"), FC_READ_MAX_STACK_FRAMES);
        if (self->stack_frames.len - g_array_index (self->stack_starts, guint32, self->stack_starts->len - 1) >=
            FC_READ_MAX_STACK_DEPTH)
          return fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %u frames in a stack, the reader's limit"),
                       FC_READ_MAX_STACK_DEPTH);
        *(guint32 *) vec_push (&self->stack_frames) = frame;
      }
      break;

    case CTX_SAMPLE:
      ret = sample_scalar (self, l->key, kind, text, len);
      break;

    case CTX_FRAME:
      ret = frame_scalar (self, l->key, l->name, kind, text, len, boolean);
      break;

    case CTX_THREAD:
      ret = thread_scalar (self, l->key, l->name, kind, text, len);
      break;

    case CTX_TOP:
    case CTX_SAMPLES:
    case CTX_STACKS:
    case CTX_FRAMES:
    case CTX_THREADS:
    default:
      return fail (self, FC_FORMAT_ERROR_TYPE, _("expected %s, got %s"), expected_of (l->ctx, l->key), kind_name (kind));
    }

  if (ret)
    after_value (self);
  return ret;
}

/* ---- yajl callbacks ---- */

static int
cb_null (void *ctx)
{
  return on_scalar (ctx, VAL_NULL, NULL, 0, FALSE);
}

static int
cb_boolean (void *ctx,
            int   value)
{
  return on_scalar (ctx, VAL_BOOL, NULL, 0, value != 0);
}

static int
cb_number (void       *ctx,
           const char *text,
           size_t      len)
{
  return on_scalar (ctx, VAL_NUMBER, text, len, FALSE);
}

static int
cb_string (void                *ctx,
           const unsigned char *text,
           size_t               len)
{
  return on_scalar (ctx, VAL_STRING, (const char *)text, len, FALSE);
}

static int
enter (FcPayloadParser *self)
{
  if (++self->depth > FC_JSON_MAX_DEPTH)
    return fail (self, FC_FORMAT_ERROR_SYNTAX, _("nested deeper than %d levels"), FC_JSON_MAX_DEPTH);
  return 1;
}

static int
cb_start_map (void *ctx)
{
  FcPayloadParser *self = ctx;
  Level *l;

  self->n_events++;
  if (!enter (self))
    return 0;

  if (self->capturing)
    {
      if (!count_captured (self, 0))
        return 0;
      if (self->capture_dest == CAP_EXTRA)
        yajl_gen_map_open (self->extra_gen);
      else
        json_builder_begin_object (self->builder);
      self->capture_depth++;
      return 1;
    }

  l = top (self);
  switch (l->ctx)
    {
    case CTX_TOP:
      if (self->seen & SEEN_ROOT)
        return fail (self, FC_FORMAT_ERROR_SYNTAX, _("more than one JSON value"));
      self->seen |= SEEN_ROOT;
      push (self, CTX_ROOT);
      return 1;

    case CTX_ROOT:
      g_assert (l->key == KEY_PROFILE);
      push (self, CTX_PROFILE);
      return 1;

    case CTX_PROFILE:
      if (l->key != KEY_THREAD_METADATA)
        break;
      push (self, CTX_THREADS);
      return 1;

    case CTX_SAMPLES:
      memset (&self->sample, 0, sizeof self->sample);
      push (self, CTX_SAMPLE);
      return 1;

    case CTX_FRAMES:
      if (self->frame_ids->len >= FC_READ_MAX_FRAMES)
        return fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %" PRIu64 " frames, the reader's limit"),
                     FC_READ_MAX_FRAMES);
      fc_frame_init (&self->frame);
      self->legacy_name = self->legacy_symbol = self->legacy_file = FC_STRING_NONE;
      self->legacy_line = FC_LINE_NONE;
      push (self, CTX_FRAME);
      return 1;

    case CTX_THREADS:
      push (self, CTX_THREAD);
      return 1;

    case CTX_SAMPLE:
    case CTX_FRAME:
    case CTX_THREAD:
    case CTX_STACKS:
    case CTX_STACK:
    default:
      break;
    }

  return fail (self, FC_FORMAT_ERROR_TYPE, _("expected %s, got an object"), expected_of (l->ctx, l->key));
}

static int
cb_start_array (void *ctx)
{
  FcPayloadParser *self = ctx;
  Level *l;

  self->n_events++;
  if (!enter (self))
    return 0;

  if (self->capturing)
    {
      if (!count_captured (self, 0))
        return 0;
      if (self->capture_dest == CAP_EXTRA)
        yajl_gen_array_open (self->extra_gen);
      else
        json_builder_begin_array (self->builder);
      self->capture_depth++;
      return 1;
    }

  l = top (self);
  switch (l->ctx)
    {
    case CTX_PROFILE:
      if (l->key == KEY_SAMPLES)
        push (self, CTX_SAMPLES);
      else if (l->key == KEY_STACKS)
        push (self, CTX_STACKS);
      else if (l->key == KEY_FRAMES)
        push (self, CTX_FRAMES);
      else
        break;
      return 1;

    case CTX_STACKS:
      {
        guint32 start = self->stack_frames.len;

        if (self->stack_starts->len >= FC_READ_MAX_STACKS)
          return fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %" PRIu64 " stacks, the reader's limit"),
                       FC_READ_MAX_STACKS);
        g_array_append_val (self->stack_starts, start);
        push (self, CTX_STACK);
      }
      return 1;

    case CTX_TOP:
    case CTX_ROOT:
    case CTX_SAMPLES:
    case CTX_SAMPLE:
    case CTX_STACK:
    case CTX_FRAMES:
    case CTX_FRAME:
    case CTX_THREADS:
    case CTX_THREAD:
    default:
      break;
    }

  return fail (self, FC_FORMAT_ERROR_TYPE, _("expected %s, got an array"), expected_of (l->ctx, l->key));
}

static int
end_sample (FcPayloadParser *self)
{
  TempSample *s = &self->sample;

  if (!(s->has & SAMPLE_HAS_STACK))
    return fail (self, FC_FORMAT_ERROR_MISSING, _("missing \"stack_id\""));
  if (!(s->has & SAMPLE_HAS_THREAD))
    return fail (self, FC_FORMAT_ERROR_MISSING, _("missing \"thread_id\""));
  if (!(s->has & (SAMPLE_HAS_TS | SAMPLE_HAS_ELAPSED)))
    return fail (self, FC_FORMAT_ERROR_MISSING, _("missing \"timestamp\" (V2) or \"elapsed_since_start_ns\" (V1)"));

  if (++self->budget->samples > FC_READ_MAX_SAMPLES)
    return fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %" PRIu64 " samples in the document, "
                 "the reader's limit"), FC_READ_MAX_SAMPLES);
  s->extra = take_extra (self);
  *(TempSample *) vec_push (&self->samples) = *s;
  return 1;
}

/* Where "function", "filename" or "lineno" is missing, another spelling
 * fills in; a frame with nothing to call it by is counted for a problem. */
static void
end_frame_names (FcPayloadParser *self)
{
  FcFrame *f = &self->frame;
  const char *function = fc_profile_string (self->profile, f->function);

  if (function == NULL || function[0] == '\0')
    {
      if (self->legacy_name != FC_STRING_NONE)
        f->function = self->legacy_name;
      else if (self->legacy_symbol != FC_STRING_NONE)
        f->function = self->legacy_symbol;
    }
  if (f->filename == FC_STRING_NONE && self->legacy_file != FC_STRING_NONE)
    f->filename = self->legacy_file;
  if (f->lineno == FC_LINE_NONE && self->legacy_line != FC_LINE_NONE)
    f->lineno = self->legacy_line;

  function = fc_profile_string (self->profile, f->function);
  if ((function == NULL || function[0] == '\0') && !f->has_instruction_addr &&
      f->filename == FC_STRING_NONE && f->abs_path == FC_STRING_NONE &&
      f->module == FC_STRING_NONE && f->package == FC_STRING_NONE)
    {
      if (self->n_nameless++ == 0)
        self->first_nameless = self->frame_ids->len;
    }
}

static int
cb_end_container (void *ctx)
{
  FcPayloadParser *self = ctx;
  Ctx ctx_done;

  self->depth--;

  ctx_done = top (self)->ctx;
  pop (self);

  switch (ctx_done)
    {
    case CTX_SAMPLE:
      if (!end_sample (self))
        return 0;
      break;

    case CTX_FRAME:
      {
        guint32 id;

        self->frame.extra = take_extra (self);
        end_frame_names (self);
        id = fc_profile_intern_frame (self->profile, &self->frame);
        g_array_append_val (self->frame_ids, id);
      }
      break;

    case CTX_THREAD:
      {
        FcThread *thread = fc_profile_get_thread_mut (self->profile, self->thread_index);

        thread->extra = take_extra (self);
        thread->has_metadata = TRUE;
      }
      break;

    case CTX_TOP:
    case CTX_ROOT:
    case CTX_PROFILE:
    case CTX_SAMPLES:
    case CTX_STACKS:
    case CTX_STACK:
    case CTX_FRAMES:
    case CTX_THREADS:
    default:
      break;
    }

  after_value (self);
  return 1;
}

/* Containers inside a capture close here, with the matching closing token. */
static int
cb_end_map (void *ctx)
{
  FcPayloadParser *self = ctx;

  self->n_events++;
  if (self->capturing)
    {
      self->depth--;
      if (self->capture_dest == CAP_EXTRA)
        yajl_gen_map_close (self->extra_gen);
      else
        json_builder_end_object (self->builder);
      if (--self->capture_depth == 0)
        end_capture (self);
      return 1;
    }

  return cb_end_container (ctx);
}

static int
cb_end_array (void *ctx)
{
  FcPayloadParser *self = ctx;

  self->n_events++;
  if (self->capturing)
    {
      self->depth--;
      if (self->capture_dest == CAP_EXTRA)
        yajl_gen_array_close (self->extra_gen);
      else
        json_builder_end_array (self->builder);
      if (--self->capture_depth == 0)
        end_capture (self);
      return 1;
    }

  return cb_end_container (ctx);
}

static Key
match_key (Ctx                  ctx,
           const unsigned char *key,
           size_t               len)
{
  switch (ctx)
    {
    case CTX_ROOT:
      if (is_key (key, len, "profile")) return KEY_PROFILE;
      break;

    case CTX_PROFILE:
      if (is_key (key, len, "samples")) return KEY_SAMPLES;
      if (is_key (key, len, "stacks")) return KEY_STACKS;
      if (is_key (key, len, "frames")) return KEY_FRAMES;
      if (is_key (key, len, "thread_metadata")) return KEY_THREAD_METADATA;
      break;

    case CTX_SAMPLE:
      if (is_key (key, len, "stack_id")) return KEY_STACK_ID;
      if (is_key (key, len, "thread_id")) return KEY_THREAD_ID;
      if (is_key (key, len, "timestamp")) return KEY_TIMESTAMP;
      if (is_key (key, len, "elapsed_since_start_ns")) return KEY_ELAPSED;
      break;

    case CTX_FRAME:
      if (len < 3)
        break;
      switch (key[0])
        {
        case 'f':
          if (is_key (key, len, "function")) return KEY_FUNCTION;
          if (is_key (key, len, "filename")) return KEY_FILENAME;
          break;
        case 'm':
          if (is_key (key, len, "module")) return KEY_MODULE;
          break;
        case 'p':
          if (is_key (key, len, "package")) return KEY_PACKAGE;
          if (is_key (key, len, "platform")) return KEY_PLATFORM;
          break;
        case 'a':
          if (is_key (key, len, "abs_path")) return KEY_ABS_PATH;
          break;
        case 'l':
          if (is_key (key, len, "lineno")) return KEY_LINENO;
          break;
        case 'c':
          if (is_key (key, len, "colno")) return KEY_COLNO;
          break;
        case 'i':
          if (is_key (key, len, "in_app")) return KEY_IN_APP;
          if (is_key (key, len, "instruction_addr")) return KEY_INSTRUCTION_ADDR;
          break;
        default:
          break;
        }
      break;

    case CTX_THREAD:
      if (is_key (key, len, "name")) return KEY_NAME;
      if (is_key (key, len, "priority")) return KEY_PRIORITY;
      break;

    case CTX_TOP:
    case CTX_SAMPLES:
    case CTX_STACKS:
    case CTX_STACK:
    case CTX_FRAMES:
    case CTX_THREADS:
    default:
      break;
    }

  return KEY_OTHER;
}

/* A key given twice in an object that Relay reads into a struct: Relay
 * refuses the payload. The lenient reader keeps the last value and says so. */
static int
check_duplicate (FcPayloadParser     *self,
                 Level               *l,
                 const unsigned char *key,
                 size_t               len)
{
  gboolean twice;

  if (l->key != KEY_OTHER)
    {
      twice = (l->keys_seen & (1u << l->key)) != 0;
      l->keys_seen |= 1u << l->key;
    }
  else
    {
      /* GBytes: keys may hold NUL bytes */
      if (l->others == NULL)
        l->others = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
      twice = !g_hash_table_add (l->others, g_bytes_new (key, len));
    }
  if (!twice)
    return 1;

  if (!(self->flags & FC_READ_LENIENT))
    return fail (self, FC_FORMAT_ERROR_SYNTAX, _("the key is given twice (Relay refuses that)"));
  {
    g_autofree char *path = current_path (self);

    add_problem (self, FC_PROBLEM_ERROR, path, _("the key is given twice (Relay refuses that); the last value is kept"));
  }
  return 1;
}

static int
cb_map_key (void                *ctx,
            const unsigned char *key,
            size_t               len)
{
  FcPayloadParser *self = ctx;
  Level *l;
  gsize n;

  self->n_events++;
  if (self->capturing)
    {
      if (!count_captured (self, len))
        return 0;
      if (self->capture_dest == CAP_EXTRA)
        yajl_gen_string (self->extra_gen, key, len);
      else
        {
          g_autofree char *name = g_strndup ((const char *)key, len);
          json_builder_set_member_name (self->builder, name);
        }
      return 1;
    }

  l = top (self);
  l->key = match_key (l->ctx, key, len);
  if (l->key != KEY_OTHER)
    l->name = key_names[l->key];
  else
    {
      n = MIN (len, sizeof l->other - 1);
      memcpy (l->other, key, n);
      l->other[n] = '\0';
      l->name = l->other;
    }

  if (l->ctx == CTX_SAMPLE || l->ctx == CTX_FRAME || l->ctx == CTX_THREAD ||
      (l->ctx == CTX_ROOT && l->key != KEY_PROFILE) || (l->ctx == CTX_PROFILE && l->key == KEY_OTHER))
    {
      if (!check_duplicate (self, l, key, len))
        return 0;
    }

  switch (l->ctx)
    {
    case CTX_ROOT:
      if (l->key == KEY_PROFILE)
        {
          if (self->seen & SEEN_PROFILE)
            return fail (self, FC_FORMAT_ERROR_SYNTAX, _("duplicate key"));
          self->seen |= SEEN_PROFILE;
        }
      else
        begin_capture (self, CAP_META, key, len);
      break;

    case CTX_PROFILE:
      {
        guint32 bit = 0;

        switch (l->key)
          {
          case KEY_SAMPLES: bit = SEEN_SAMPLES; break;
          case KEY_STACKS: bit = SEEN_STACKS; break;
          case KEY_FRAMES: bit = SEEN_FRAMES; break;
          case KEY_THREAD_METADATA: bit = SEEN_THREADS; break;
          default:
            begin_capture (self, CAP_PROFILE_EXTRA, key, len);
            break;
          }
        if (bit != 0)
          {
            if (self->seen & bit)
              return fail (self, FC_FORMAT_ERROR_SYNTAX, _("duplicate key"));
            self->seen |= bit;
          }
      }
      break;

    case CTX_SAMPLE:
    case CTX_FRAME:
    case CTX_THREAD:
      if (l->key == KEY_OTHER)
        {
          begin_capture (self, CAP_EXTRA, key, len);
          if (l->ctx == CTX_FRAME)
            self->capture_legacy = is_key (key, len, "name") ? LEGACY_NAME :
                                   is_key (key, len, "symbol") ? LEGACY_SYMBOL :
                                   is_key (key, len, "file") ? LEGACY_FILE :
                                   is_key (key, len, "line") ? LEGACY_LINE : LEGACY_NONE;
        }
      break;

    case CTX_THREADS:
      if (len == 0)
        return fail (self, FC_FORMAT_ERROR_RANGE, _("empty thread id"));
      self->thread_index = ensure_thread_len (self, (const char *)key, len);
      if (self->error != NULL)
        return 0;
      break;

    case CTX_TOP:
    case CTX_SAMPLES:
    case CTX_STACKS:
    case CTX_STACK:
    case CTX_FRAMES:
    default:
      g_assert_not_reached ();
      break;
    }

  return self->capturing ? count_captured (self, len) : 1;
}

static const yajl_callbacks callbacks = {
  .yajl_null = cb_null,
  .yajl_boolean = cb_boolean,
  .yajl_number = cb_number,
  .yajl_string = cb_string,
  .yajl_start_map = cb_start_map,
  .yajl_map_key = cb_map_key,
  .yajl_end_map = cb_end_map,
  .yajl_start_array = cb_start_array,
  .yajl_end_array = cb_end_array,
};

/* ---- public ---- */

FcPayloadParser *
fc_payload_parser_new (FcReadFlags   flags,
                       const char   *where,
                       FcReadBudget *budget)
{
  FcPayloadParser *self = g_new0 (FcPayloadParser, 1);

  self->flags = flags;
  self->budget = budget != NULL ? budget : &self->own_budget;
  self->held = g_byte_array_new ();
  self->where = g_strdup (where ? where : "");
  self->yajl = yajl_alloc (&callbacks, NULL, self);
  self->profile = fc_profile_new (FC_FORMAT_UNKNOWN);
  self->builder = json_builder_new ();
  self->extra_gen = yajl_gen_alloc (NULL);
  vec_init (&self->samples, sizeof (TempSample));
  self->frame_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  vec_init (&self->stack_frames, sizeof (guint32));
  self->stack_starts = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->last_tid = g_string_new (NULL);
  self->scratch = g_string_new (NULL);
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify)fc_problem_free);

  push (self, CTX_TOP);

  return self;
}

void
fc_payload_parser_free (FcPayloadParser *self)
{
  if (self == NULL)
    return;

  while (self->n_levels > 0)
    pop (self);
  g_clear_pointer (&self->held, g_byte_array_unref);
  g_clear_pointer (&self->yajl, yajl_free);
  g_clear_pointer (&self->extra_gen, yajl_gen_free);
  g_clear_object (&self->builder);
  g_clear_object (&self->profile);
  g_clear_error (&self->error);
  vec_clear (&self->samples);
  g_clear_pointer (&self->frame_ids, g_array_unref);
  vec_clear (&self->stack_frames);
  g_clear_pointer (&self->stack_starts, g_array_unref);
  g_string_free (self->last_tid, TRUE);
  g_string_free (self->scratch, TRUE);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_free (self->where);
  g_free (self);
}

static void
set_syntax_error (FcPayloadParser *self,
                  const guint8    *data,
                  gsize            len,
                  guint64          offset)
{
  unsigned char *msg = yajl_get_error (self->yajl, 0, data, len);
  g_autofree char *text = g_strstrip (g_strdup ((const char *)msg));
  g_autofree char *path = current_path (self);

  yajl_free_error (self->yajl, msg);

  self->error = g_error_new (FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                             _("%sinvalid JSON at byte %" PRIu64 "%s%s: %s"),
                             self->where, offset,
                             path[0] ? " in " : "", path, text);
}

static void
parse_block (FcPayloadParser *self,
             const guint8    *data,
             gsize            len)
{
  guint64 before = self->n_bytes;
  guint64 events = self->n_events;
  yajl_status st;

  st = yajl_parse (self->yajl, data, len);
  self->n_bytes += len;

  if (st == yajl_status_error && self->error == NULL)
    set_syntax_error (self, data, len, before + yajl_get_bytes_consumed (self->yajl));
  else if (st == yajl_status_client_canceled && self->error == NULL)
    fail (self, FC_FORMAT_ERROR_SYNTAX, _("parsing stopped"));

  if (self->n_events != events)
    self->quiet = self->next_feed = 0;
  else
    {
      if (self->quiet == 0)
        self->quiet_from = before;
      self->quiet += len;
      self->next_feed = len * 2;
    }
}

/*
 * yajl reads a token cut by the end of a block again from its start with
 * each new block: a token as long as N blocks cost N^2/2 block reads (a
 * 40 MB number took a minute). A block that gave no event at all ended
 * inside one token (or white space), so the blocks after it are held back
 * until there are twice as many bytes as yajl saw last: each byte of a
 * token is then read a few times at most, whatever its length.
 */
gboolean
fc_payload_parser_feed (FcPayloadParser  *self,
                        const guint8     *data,
                        gsize             len,
                        GError          **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->error == NULL && len > 0)
    {
      if (self->next_feed == 0)
        parse_block (self, data, len);
      else
        {
          g_byte_array_append (self->held, data, len);
          if (self->quiet + self->held->len > FC_READ_MAX_TOKEN)
            fail (self, FC_FORMAT_ERROR_TOO_LARGE, _("more than %" PRIu64 " MiB without a JSON value (one "
                  "string, number or run of white space) from byte %" PRIu64 ", the reader's limit"),
                  FC_READ_MAX_TOKEN >> 20, self->quiet_from);
          else if (self->held->len >= self->next_feed)
            {
              parse_block (self, self->held->data, self->held->len);
              g_byte_array_set_size (self->held, 0);
            }
        }
    }

  if (self->error != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->error);
      return FALSE;
    }

  return TRUE;
}

static gboolean
detect_format (FcPayloadParser *self,
               FcFormat        *format)
{
  JsonObject *meta = fc_profile_get_meta (self->profile);
  JsonObject *extra = fc_profile_get_profile_extra (self->profile);
  JsonNode *version = json_object_get_member (meta, "version");

  if (version == NULL)
    {
      if (self->profile_is_string)
        {
          fail_at (self, FC_FORMAT_ERROR_UNSUPPORTED, NULL,
                   _("unsupported format: a legacy (pre-V1) profile whose \"profile\" is a JSON string; "
                   "Flamecast reads Sample Format V1 and V2"));
          return FALSE;
        }
      if (!(self->seen & SEEN_PROFILE))
        {
          fail_at (self, FC_FORMAT_ERROR_UNSUPPORTED, NULL,
                   _("unsupported format: not a Sentry profile (no \"version\" and no \"profile\" object)"));
          return FALSE;
        }
      if (!(self->seen & SEEN_SAMPLES) &&
          (json_object_has_member (extra, "methods") || json_object_has_member (extra, "events")))
        {
          fail_at (self, FC_FORMAT_ERROR_UNSUPPORTED, NULL,
                   _("unsupported format: an Android trace chunk (profile.methods/profile.events), "
                   "not the sample format; Flamecast reads Sample Format V1 and V2"));
          return FALSE;
        }
      if (self->any_elapsed)
        {
          *format = FC_FORMAT_V1;
          return TRUE;
        }
      fail_at (self, FC_FORMAT_ERROR_UNSUPPORTED, NULL,
               _("unsupported format: no \"version\" and no profile.samples[].elapsed_since_start_ns "
               "(neither Sample Format V1 nor V2)"));
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_VALUE (version) || json_node_get_value_type (version) != G_TYPE_STRING)
    {
      fail_at (self, FC_FORMAT_ERROR_TYPE, "version", _("expected the string \"1\" or \"2\""));
      return FALSE;
    }

  if (g_strcmp0 (json_node_get_string (version), "2") == 0)
    *format = FC_FORMAT_V2;
  else if (g_strcmp0 (json_node_get_string (version), "1") == 0)
    *format = FC_FORMAT_V1;
  else
    {
      fail_at (self, FC_FORMAT_ERROR_UNSUPPORTED, "version",
               _("unsupported format: version \"%s\" (Flamecast reads Sample Format \"1\" and \"2\")"),
               json_node_get_string (version));
      return FALSE;
    }

  if (self->profile_is_string)
    {
      fail_at (self, FC_FORMAT_ERROR_TYPE, "profile", _("expected an object, got a string"));
      return FALSE;
    }
  if (!(self->seen & SEEN_PROFILE))
    {
      fail_at (self, FC_FORMAT_ERROR_MISSING, NULL, _("missing the \"profile\" object"));
      return FALSE;
    }

  return TRUE;
}

/* Stacks of a payload share their root-side frames, so the same (parent,
 * frame) pairs come up again and again: a direct-mapped cache in front of the
 * model's hash table halves the time spent building the prefix tree. Below
 * the newest node every node is new (the model pushes it without a lookup):
 * those skip the cache, whose misses cost a deep chunk more than they saved. */
#define STACK_CACHE_SIZE (1 << 16)

typedef struct {
  guint32 parent;
  guint32 frame;
  guint32 id;       /* FC_STACK_EMPTY = unused: never the result of a push */
} StackCacheEntry;

static guint32
intern_stack_cached (FcProfile       *profile,
                     StackCacheEntry *cache,
                     guint32         *newest,
                     const guint32   *frames_leaf_first,
                     guint            n_frames)
{
  guint32 stack = FC_STACK_EMPTY;

  for (guint i = n_frames; i > 0; i--)
    {
      guint32 frame = frames_leaf_first[i - 1];
      guint32 h;
      StackCacheEntry *e;

      if (stack == *newest)
        {
          stack = *newest = fc_profile_intern_stack (profile, stack, frame);
          continue;
        }

      h = ((stack * 0x9e3779b1u) ^ (frame * 0x85ebca6bu)) >> 16;
      e = &cache[h & (STACK_CACHE_SIZE - 1)];
      if (e->id != FC_STACK_EMPTY && e->parent == stack && e->frame == frame)
        {
          stack = e->id;
          continue;
        }

      e->parent = stack;
      e->frame = frame;
      stack = fc_profile_intern_stack (profile, stack, frame);
      e->id = stack;
      *newest = MAX (*newest, stack);
    }

  return stack;
}

static gboolean
resolve (FcPayloadParser *self,
         FcFormat         format)
{
  FcProfile *profile = self->profile;
  gboolean lenient = (self->flags & FC_READ_LENIENT) != 0;
  guint n_frames = self->frame_ids->len;
  guint n_stacks = self->stack_starts->len;
  g_autoptr(GArray) stack_map = NULL;
  g_autoptr(GArray) mapped = NULL;
  g_autoptr(GHashTable) missing = NULL;
  g_autofree StackCacheEntry *cache = NULL;
  guint32 newest;
  FcSample *out;
  guint n_out = 0;
  gint64 start_ns = 0;
  gint64 prev_elapsed = 0;
  gboolean reported_order = FALSE;

  if (!(self->seen & SEEN_SAMPLES))
    {
      fail_at (self, FC_FORMAT_ERROR_MISSING, "profile", _("missing \"samples\""));
      return FALSE;
    }
  if (!(self->seen & SEEN_STACKS))
    {
      fail_at (self, FC_FORMAT_ERROR_MISSING, "profile", _("missing \"stacks\""));
      return FALSE;
    }
  if (!(self->seen & SEEN_FRAMES))
    {
      fail_at (self, FC_FORMAT_ERROR_MISSING, "profile", _("missing \"frames\""));
      return FALSE;
    }
  if (self->samples.len == 0 && !lenient)
    {
      fail_at (self, FC_FORMAT_ERROR_MISSING, "profile.samples", _("empty array: a profile needs samples"));
      return FALSE;
    }

  if (format == FC_FORMAT_V2 && self->n_numeric_tids > 0)
    {
      g_autofree char *where = g_strdup_printf ("profile.samples[%u].thread_id", self->first_numeric_tid);

      if (!lenient)
        {
          fail_at (self, FC_FORMAT_ERROR_TYPE, where,
                   _("a number, but V2 thread ids are strings (%u samples like this)"), self->n_numeric_tids);
          return FALSE;
        }
      add_problem (self, FC_PROBLEM_ERROR, where,
                   _("a number, but V2 thread ids are strings; Relay rejects the chunk (%u samples like this)"),
                   self->n_numeric_tids);
    }

  if (format == FC_FORMAT_V1)
    {
      const char *ts = fc_profile_get_meta_string (profile, "timestamp");

      if (ts == NULL || !fc_time_parse_rfc3339 (ts, &start_ns))
        {
          const char *what = ts == NULL ? _("missing") : _("not an RFC 3339 date-time");

          if (!lenient)
            {
              fail_at (self, ts == NULL ? FC_FORMAT_ERROR_MISSING : FC_FORMAT_ERROR_TYPE, "timestamp",
                       _("%s; V1 sample times are relative to it"), what);
              return FALSE;
            }
          add_problem (self, FC_PROBLEM_ERROR, "timestamp", _("%s; sample times start at the epoch"), what);
          start_ns = 0;
        }
      fc_profile_set_start_ns (profile, start_ns);
    }

  /* stacks: file frame indexes -> model frames, then interned as a prefix tree */
  cache = g_new0 (StackCacheEntry, STACK_CACHE_SIZE);
  newest = fc_profile_get_n_stacks (profile) - 1;
  stack_map = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_stacks);
  mapped = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint s = 0; s < n_stacks; s++)
    {
      guint32 begin = g_array_index (self->stack_starts, guint32, s);
      guint32 end = s + 1 < n_stacks ? g_array_index (self->stack_starts, guint32, s + 1) : self->stack_frames.len;
      guint32 stack_id;

      /* A sixteenth of the stacks in, their share of new nodes per frame
       * reference says about how many nodes there will be: the index is
       * sized once (1.6M distinct deep nodes rehashed at each doubling),
       * never for every reference (where stacks share most frames). */
      if (s == n_stacks / 16 && begin > 0)
        fc_profile_reserve_stacks (profile, (guint) MIN ((guint64) fc_profile_get_n_stacks (profile) *
                                                         self->stack_frames.len / begin, G_MAXUINT));

      g_array_set_size (mapped, end - begin);
      for (guint32 j = begin; j < end; j++)
        {
          guint32 f = vec_index (&self->stack_frames, guint32, j);
          guint32 id;

          if (f < n_frames)
            id = g_array_index (self->frame_ids, guint32, f);
          else
            {
              g_autofree char *where = g_strdup_printf ("profile.stacks[%u][%u]", s, j - begin);
              gpointer found;

              if (!lenient)
                {
                  fail_at (self, FC_FORMAT_ERROR_RANGE, where, _("frame %u but only %u frames"), f, n_frames);
                  return FALSE;
                }
              add_problem (self, FC_PROBLEM_ERROR, where, _("frame %u but only %u frames"), f, n_frames);

              if (missing == NULL)
                missing = g_hash_table_new (NULL, NULL);
              if (g_hash_table_lookup_extended (missing, GUINT_TO_POINTER (f), NULL, &found))
                id = GPOINTER_TO_UINT (found);
              else
                {
                  FcFrame placeholder;
                  g_autofree char *label = g_strdup_printf ("<missing frame %u>", f);

                  fc_frame_init (&placeholder);
                  placeholder.function = fc_profile_intern (profile, label);
                  id = fc_profile_intern_frame (profile, &placeholder);
                  g_hash_table_insert (missing, GUINT_TO_POINTER (f), GUINT_TO_POINTER (id));
                }
            }
          g_array_index (mapped, guint32, j - begin) = id;
        }

      stack_id = intern_stack_cached (profile, cache, &newest, (const guint32 *)(gpointer)mapped->data, mapped->len);
      g_array_append_val (stack_map, stack_id);
      if (fc_profile_get_n_stacks (profile) > FC_READ_MAX_STACK_NODES)
        {
          g_autofree char *where = g_strdup_printf ("profile.stacks[%u]", s);

          fail_at (self, FC_FORMAT_ERROR_TOO_LARGE, where, _("more than %" PRIu64 " distinct stacks, "
                   "the reader's limit"), FC_READ_MAX_STACK_NODES);
          return FALSE;
        }
    }

  vec_clear (&self->stack_frames);
  g_clear_pointer (&self->stack_starts, g_array_unref);

  /* Samples, made in place: sample i is written over the bytes of the
   * temporary ones already read (an FcSample is smaller), and the array is
   * the profile's (fc_profile_take_samples()). */
  out = (FcSample *) (gpointer) self->samples.data;
  for (guint i = 0; i < self->samples.len; i++)
    {
      const TempSample sample = vec_index (&self->samples, TempSample, i);
      const TempSample *s = &sample;
      gint64 ts;

      if (format == FC_FORMAT_V2)
        {
          if (!(s->has & SAMPLE_HAS_TS))
            {
              g_autofree char *where = g_strdup_printf ("profile.samples[%u]", i);
              fail_at (self, FC_FORMAT_ERROR_MISSING, where, _("missing \"timestamp\""));
              return FALSE;
            }
          ts = s->ts_ns;
        }
      else
        {
          if (!(s->has & SAMPLE_HAS_ELAPSED))
            {
              g_autofree char *where = g_strdup_printf ("profile.samples[%u]", i);
              fail_at (self, FC_FORMAT_ERROR_MISSING, where, _("missing \"elapsed_since_start_ns\""));
              return FALSE;
            }
          ts = start_ns + s->elapsed_ns;

          /* The model keeps samples in time order, so array order is only seen here. */
          if (i > 0 && s->elapsed_ns < prev_elapsed && !reported_order)
            {
              g_autofree char *where = g_strdup_printf ("profile.samples[%u].elapsed_since_start_ns", i);

              add_problem (self, FC_PROBLEM_WARNING, where,
                           _("goes back in time (%" PRId64 " after %" PRId64 "); Relay checks "
                           "the duration on the last sample in array order"), s->elapsed_ns, prev_elapsed);
              reported_order = TRUE;
            }
          prev_elapsed = s->elapsed_ns;
        }

      if (s->stack >= n_stacks)
        {
          g_autofree char *where = g_strdup_printf ("profile.samples[%u].stack_id", i);

          if (!lenient)
            {
              fail_at (self, FC_FORMAT_ERROR_RANGE, where, _("%u but only %u stacks"), s->stack, n_stacks);
              return FALSE;
            }
          add_problem (self, FC_PROBLEM_ERROR, where, _("%u but only %u stacks; sample dropped"), s->stack, n_stacks);
          continue;
        }

      out[n_out].timestamp_ns = ts;
      out[n_out].thread = s->thread;
      out[n_out].stack = g_array_index (stack_map, guint32, s->stack);
      out[n_out].extra = s->extra;
      n_out++;
    }
  /* the room past them goes back (a shrink within the huge pages moves nothing) */
  out = fc_big_realloc (out, self->samples.capacity * sizeof (TempSample), MAX (n_out, 1) * sizeof (FcSample));
  self->samples.data = NULL;
  vec_clear (&self->samples);
  fc_profile_take_samples (profile, out, n_out, MAX (n_out, 1));

  if (self->n_nameless > 0)
    {
      g_autofree char *where = g_strdup_printf ("profile.frames[%u]", self->first_nameless);

      add_problem (self, FC_PROBLEM_WARNING, where,
                   _("%u of %u frames have no name: no \"function\" (or \"name\", \"symbol\"), file, "
                   "module or address; they show as <unknown>"),
                   self->n_nameless, self->frame_ids->len);
    }

  if (self->n_suppressed > 0)
    {
      g_ptr_array_add (self->problems,
                       fc_problem_new (FC_PROBLEM_ERROR, self->where[0] ? self->where : "profile",
                                       _("%u more problems like the ones above"), self->n_suppressed));
    }

  vec_clear (&self->samples);
  g_clear_pointer (&self->frame_ids, g_array_unref);

  fc_profile_set_format (profile, format);
  fc_profile_set_source_size (profile, self->n_bytes);
  fc_profile_finish (profile);

  return TRUE;
}

FcProfile *
fc_payload_parser_finish (FcPayloadParser  *self,
                          GPtrArray        *problems,
                          GError          **error)
{
  FcFormat format = FC_FORMAT_UNKNOWN;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->error == NULL && self->held->len > 0)
    {
      parse_block (self, self->held->data, self->held->len);
      g_byte_array_set_size (self->held, 0);
    }

  if (self->error == NULL)
    {
      yajl_status st = yajl_complete_parse (self->yajl);

      if (st == yajl_status_error && self->error == NULL)
        {
          g_autofree char *path = current_path (self);

          self->error = g_error_new (FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                                     _("%struncated JSON: the data ends after %" PRIu64 " bytes%s%s"),
                                     self->where, self->n_bytes, path[0] ? " inside " : "", path);
        }
      else if (st == yajl_status_client_canceled && self->error == NULL)
        fail (self, FC_FORMAT_ERROR_SYNTAX, _("parsing stopped"));
    }

  if (self->error == NULL && !(self->seen & SEEN_ROOT))
    fail_at (self, FC_FORMAT_ERROR_SYNTAX, NULL, _("no JSON data"));

  if (self->error == NULL && detect_format (self, &format))
    resolve (self, format);
  if (self->error == NULL)
    fc_chunk_meta_read (self->profile);

  if (self->error != NULL)
    {
      if (error != NULL)
        *error = g_error_copy (self->error);
      return NULL;
    }

  while (problems != NULL && self->problems->len > 0)
    g_ptr_array_add (problems, g_ptr_array_steal_index (self->problems, 0));

  return g_steal_pointer (&self->profile);
}
