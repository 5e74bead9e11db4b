/* fc-writer.c - Sentry JSON out of the model: V2 chunks, V1 profiles, envelopes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <glib/gi18n-lib.h>

#include "fc-chunk-meta.h"
#include "fc-envelope.h"
#include "fc-format-error.h"
#include "fc-json-util.h"
#include "fc-time.h"
#include "fc-transaction.h"
#include "fc-writer.h"

#define UNSET G_MAXUINT32

/* yajl_gen writes through a callback straight into our buffer: no second
 * copy of a 50 MB payload. */
typedef struct {
  yajl_gen    g;
  GByteArray *buf;
  gboolean    failed;
  char       *failure;        /* first failure, for the GError */
} Out;

static void
out_print_cb (void       *user_data,
              const char *str,
              size_t      len)
{
  Out *out = user_data;

  g_byte_array_append (out->buf, (const guint8 *) str, len);
}

static void
out_init (Out        *out,
          GByteArray *buf)
{
  out->buf = buf;
  out->failed = FALSE;
  out->failure = NULL;
  out->g = yajl_gen_alloc (NULL);
  yajl_gen_config (out->g, yajl_gen_print_callback, out_print_cb, out);
  yajl_gen_config (out->g, yajl_gen_validate_utf8, 1);
}

static void
out_clear (Out *out)
{
  g_clear_pointer (&out->g, yajl_gen_free);
  g_clear_pointer (&out->failure, g_free);
}

static void
out_check (Out            *out,
           yajl_gen_status status,
           const char     *what)
{
  if (status == yajl_gen_status_ok || out->failed)
    return;
  out->failed = TRUE;
  if (status == yajl_gen_invalid_string)
    out->failure = g_strdup_printf ("%s: string is not valid UTF-8", what);
  else
    out->failure = g_strdup_printf ("%s: JSON generator error %d", what, (int) status);
}

static inline void
out_key (Out        *out,
         const char *key)
{
  out_check (out, yajl_gen_string (out->g, (const unsigned char *) key, strlen (key)), key);
}

static inline void
out_string (Out        *out,
            const char *str)
{
  out_check (out, yajl_gen_string (out->g, (const unsigned char *) str, strlen (str)), str);
}

static inline void
out_number (Out        *out,
            const char *text)
{
  out_check (out, yajl_gen_number (out->g, text, strlen (text)), text);
}

static inline void
out_int (Out    *out,
         gint64  value)
{
  out_check (out, yajl_gen_integer (out->g, value), "integer");
}

static inline void
out_map_open (Out *out)
{
  out_check (out, yajl_gen_map_open (out->g), "object");
}

static inline void
out_map_close (Out *out)
{
  out_check (out, yajl_gen_map_close (out->g), "object");
}

static inline void
out_array_open (Out *out)
{
  out_check (out, yajl_gen_array_open (out->g), "array");
}

static inline void
out_array_close (Out *out)
{
  out_check (out, yajl_gen_array_close (out->g), "array");
}

static gboolean
out_finish (Out     *out,
            GError **error)
{
  if (out->failed)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("cannot write JSON: %s"), out->failure);
      return FALSE;
    }
  /* the next document written into the same buffer starts afresh */
  yajl_gen_reset (out->g, NULL);
  return TRUE;
}

static void
format_double (double  value,
               char   *buf,
               gsize   buf_len)
{
  /* shortest text that reads back to the same double, and still a double
   * (a trailing ".0" keeps 66.0 from turning into an integer) */
  for (int precision = 15; precision <= 17; precision++)
    {
      g_snprintf (buf, buf_len, "%.*g", precision, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  if (strpbrk (buf, ".eEn") == NULL)
    g_strlcat (buf, ".0", buf_len);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
sorted_member_names (JsonObject *object)
{
  GPtrArray *names = g_ptr_array_new ();
  GList *members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    g_ptr_array_add (names, l->data);
  g_list_free (members);
  g_ptr_array_sort (names, compare_strings);
  return names;
}

static void
out_node (Out      *out,
          JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GPtrArray) names = sorted_member_names (object);

        out_map_open (out);
        for (guint i = 0; i < names->len; i++)
          {
            out_key (out, g_ptr_array_index (names, i));
            out_node (out, json_object_get_member (object, g_ptr_array_index (names, i)));
          }
        out_map_close (out);
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint n = json_array_get_length (array);

        out_array_open (out);
        for (guint i = 0; i < n; i++)
          out_node (out, json_array_get_element (array, i));
        out_array_close (out);
      }
      break;

    case JSON_NODE_NULL:
      out_check (out, yajl_gen_null (out->g), "null");
      break;

    case JSON_NODE_VALUE:
    default:
      {
        GType type = json_node_get_value_type (node);

        if (type == G_TYPE_STRING)
          out_string (out, json_node_get_string (node));
        else if (type == G_TYPE_INT64)
          out_int (out, json_node_get_int (node));
        else if (type == G_TYPE_BOOLEAN)
          out_check (out, yajl_gen_bool (out->g, json_node_get_boolean (node)), "boolean");
        else if (type == G_TYPE_DOUBLE)
          {
            double d = json_node_get_double (node);
            char buf[G_ASCII_DTOSTR_BUF_SIZE + 4];

            if (!isfinite (d))
              out_check (out, yajl_gen_null (out->g), "number");
            else
              {
                format_double (d, buf, sizeof buf);
                out_number (out, buf);
              }
          }
        else
          out_check (out, yajl_gen_null (out->g), "value");
      }
      break;
    }
}

char *
fc_writer_json_to_string (JsonNode *node)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  Out out;

  g_return_val_if_fail (node != NULL, NULL);

  out_init (&out, buf);
  out_node (&out, node);
  out_clear (&out);
  g_byte_array_append (buf, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (g_steal_pointer (&buf), FALSE);
}

/*
 * Objects that mix interpreted fields with uninterpreted extras: the keys of
 * both are merged and sorted. An extra never overrides a field the model
 * interprets.
 */
typedef void (*FieldWriter) (Out *out, gpointer data, guint field);

typedef struct {
  const char *name;
  guint       field;          /* index passed back to the FieldWriter */
} Field;

static JsonObject *
parse_extra (FcProfile   *profile,
             guint32      extra,
             GHashTable  *cache)
{
  JsonObject *object;
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root;

  if (extra == FC_STRING_NONE)
    return NULL;
  object = g_hash_table_lookup (cache, GUINT_TO_POINTER (extra));
  if (object != NULL)
    return object;

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, fc_profile_string (profile, extra), -1, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  object = json_object_ref (json_node_get_object (root));
  g_hash_table_insert (cache, GUINT_TO_POINTER (extra), object);
  return object;
}

static int
compare_fields (gconstpointer a,
                gconstpointer b)
{
  return strcmp (((const Field *) a)->name, ((const Field *) b)->name);
}

#define EXTRA_FIELD G_MAXUINT

static void
out_merged_object (Out         *out,
                   const Field *fields,
                   guint        n_fields,
                   JsonObject  *extra,
                   FieldWriter  writer,
                   gpointer     data)
{
  g_autoptr(GArray) all = NULL;
  GList *members;

  if (extra == NULL)
    {
      /* fields are given in sorted order */
      out_map_open (out);
      for (guint i = 0; i < n_fields; i++)
        {
          out_key (out, fields[i].name);
          writer (out, data, fields[i].field);
        }
      out_map_close (out);
      return;
    }

  all = g_array_sized_new (FALSE, FALSE, sizeof (Field), n_fields + 8);
  g_array_append_vals (all, fields, n_fields);
  members = json_object_get_members (extra);
  for (GList *l = members; l != NULL; l = l->next)
    {
      gboolean taken = FALSE;

      for (guint i = 0; i < n_fields; i++)
        {
          if (strcmp (fields[i].name, l->data) == 0)
            taken = TRUE;
        }
      if (!taken)
        {
          Field f = { l->data, EXTRA_FIELD };
          g_array_append_val (all, f);
        }
    }
  g_list_free (members);
  g_array_sort (all, compare_fields);

  out_map_open (out);
  for (guint i = 0; i < all->len; i++)
    {
      const Field *f = &g_array_index (all, Field, i);

      out_key (out, f->name);
      if (f->field == EXTRA_FIELD)
        out_node (out, json_object_get_member (extra, f->name));
      else
        writer (out, data, f->field);
    }
  out_map_close (out);
}

/* ---- the profile{} object ---- */

typedef struct {
  FcProfile       *profile;
  FcFormat         format;
  FcWriteFlags     flags;
  gint64           start_ns;        /* V1: what elapsed_since_start_ns counts from */
  guint32         *order;           /* sample indices in time order */
  guint            n_samples;
  const FcSample  *samples;
  guint32         *stack_map;       /* model stack -> output index, UNSET */
  GArray          *out_stacks;      /* model stack ids, output order */
  guint32         *frame_map;       /* model frame -> output index, UNSET */
  GArray          *out_frames;      /* model frame ids, output order */
  guint           *thread_samples;  /* samples per thread */
  GHashTable      *extras;          /* string id -> JsonObject */
  GPtrArray       *tids;            /* thread id as written, per thread */
  /* the item being written by a FieldWriter */
  const FcFrame   *frame;
  const FcSample  *sample;
  const FcThread  *thread;
} Ctx;

static void
ctx_clear (Ctx *ctx)
{
  g_clear_pointer (&ctx->order, g_free);
  g_clear_pointer (&ctx->stack_map, g_free);
  g_clear_pointer (&ctx->frame_map, g_free);
  g_clear_pointer (&ctx->out_stacks, g_array_unref);
  g_clear_pointer (&ctx->out_frames, g_array_unref);
  g_clear_pointer (&ctx->thread_samples, g_free);
  g_clear_pointer (&ctx->extras, g_hash_table_unref);
  g_clear_pointer (&ctx->tids, g_ptr_array_unref);
}

static int
compare_sample_order (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const FcSample *sort_samples_base = user_data;
  guint32 ia = *(const guint32 *) a;
  guint32 ib = *(const guint32 *) b;
  gint64 ta = sort_samples_base[ia].timestamp_ns;
  gint64 tb = sort_samples_base[ib].timestamp_ns;

  if (ta != tb)
    return ta < tb ? -1 : 1;
  return ia < ib ? -1 : (ia > ib);
}

static void
ctx_prepare (Ctx          *ctx,
             FcProfile    *profile,
             FcFormat      format,
             FcWriteFlags  flags)
{
  guint n_stacks = fc_profile_get_n_stacks (profile);
  guint n_frames = fc_profile_get_n_frames (profile);
  guint n_threads = fc_profile_get_n_threads (profile);
  gboolean sorted = TRUE;

  memset (ctx, 0, sizeof *ctx);
  ctx->profile = profile;
  ctx->format = format;
  ctx->flags = flags;
  ctx->samples = fc_profile_get_samples (profile, &ctx->n_samples);
  ctx->extras = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) json_object_unref);

  /* V1 wants decimal thread ids: "0x1f" is written as "31" */
  ctx->tids = g_ptr_array_new_full (n_threads, g_free);
  for (guint t = 0; t < n_threads; t++)
    {
      const char *tid = fc_profile_string (profile, fc_profile_get_thread (profile, t)->tid);
      guint64 value;

      if (tid == NULL)
        tid = "";
      if (format == FC_FORMAT_V1 && (g_str_has_prefix (tid, "0x") || g_str_has_prefix (tid, "0X")) &&
          g_ascii_string_to_unsigned (tid + 2, 16, 0, G_MAXUINT64, &value, NULL))
        g_ptr_array_add (ctx->tids, g_strdup_printf ("%" G_GUINT64_FORMAT, value));
      else
        g_ptr_array_add (ctx->tids, g_strdup (tid));
    }

  ctx->order = g_new (guint32, MAX (ctx->n_samples, 1));
  for (guint i = 0; i < ctx->n_samples; i++)
    {
      ctx->order[i] = i;
      if (i > 0 && ctx->samples[i].timestamp_ns < ctx->samples[i - 1].timestamp_ns)
        sorted = FALSE;
    }
  if (!sorted)
    {
      g_qsort_with_data (ctx->order, ctx->n_samples, sizeof (guint32),
                         compare_sample_order, (gpointer) ctx->samples);
    }

  ctx->thread_samples = g_new0 (guint, MAX (n_threads, 1));
  ctx->stack_map = g_new (guint32, MAX (n_stacks, 1));
  memset (ctx->stack_map, 0xff, sizeof (guint32) * MAX (n_stacks, 1));
  ctx->out_stacks = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < ctx->n_samples; i++)
    {
      const FcSample *s = &ctx->samples[ctx->order[i]];

      if (s->thread < n_threads)
        ctx->thread_samples[s->thread]++;
      if (s->stack < n_stacks && ctx->stack_map[s->stack] == UNSET)
        {
          ctx->stack_map[s->stack] = ctx->out_stacks->len;
          g_array_append_val (ctx->out_stacks, s->stack);
        }
    }

  ctx->frame_map = g_new (guint32, MAX (n_frames, 1));
  memset (ctx->frame_map, 0xff, sizeof (guint32) * MAX (n_frames, 1));
  ctx->out_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < ctx->out_stacks->len; i++)
    {
      guint32 stack = g_array_index (ctx->out_stacks, guint32, i);

      /* walk the tree directly: stacks may be deeper than any buffer */
      while (stack != FC_STACK_EMPTY)
        {
          const FcStackNode *node = fc_profile_get_stack (profile, stack);

          if (node->frame < n_frames && ctx->frame_map[node->frame] == UNSET)
            {
              ctx->frame_map[node->frame] = ctx->out_frames->len;
              g_array_append_val (ctx->out_frames, node->frame);
            }
          stack = node->parent;
        }
    }
}

enum {
  FRAME_ABS_PATH, FRAME_COLNO, FRAME_FILENAME, FRAME_FUNCTION, FRAME_IN_APP,
  FRAME_INSTRUCTION_ADDR, FRAME_LINENO, FRAME_MODULE, FRAME_PACKAGE, FRAME_PLATFORM,
};

static void
write_frame_field (Out      *out,
                   gpointer  data,
                   guint     field)
{
  Ctx *ctx = data;
  const FcFrame *f = ctx->frame;
  char buf[32];

  switch (field)
    {
    case FRAME_ABS_PATH: out_string (out, fc_profile_string (ctx->profile, f->abs_path)); break;
    case FRAME_FILENAME: out_string (out, fc_profile_string (ctx->profile, f->filename)); break;
    case FRAME_FUNCTION: out_string (out, fc_profile_string (ctx->profile, f->function)); break;
    case FRAME_MODULE:   out_string (out, fc_profile_string (ctx->profile, f->module)); break;
    case FRAME_PACKAGE:  out_string (out, fc_profile_string (ctx->profile, f->package)); break;
    case FRAME_PLATFORM: out_string (out, fc_profile_string (ctx->profile, f->platform)); break;
    case FRAME_COLNO:    out_int (out, f->colno); break;
    case FRAME_LINENO:   out_int (out, f->lineno); break;
    case FRAME_IN_APP:
      out_check (out, yajl_gen_bool (out->g, f->in_app == FC_IN_APP_YES), "in_app");
      break;
    case FRAME_INSTRUCTION_ADDR:
      g_snprintf (buf, sizeof buf, "0x%" G_GINT64_MODIFIER "x", f->instruction_addr);
      out_string (out, buf);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
write_frame (Out     *out,
             Ctx     *ctx,
             guint32  frame_id)
{
  const FcFrame *f = fc_profile_get_frame (ctx->profile, frame_id);
  Field fields[10];
  guint n = 0;

#define ADD(cond, key, id) G_STMT_START { if (cond) { fields[n].name = key; fields[n].field = id; n++; } } G_STMT_END
  ADD (f->abs_path != FC_STRING_NONE, "abs_path", FRAME_ABS_PATH);
  ADD (f->colno != FC_LINE_NONE, "colno", FRAME_COLNO);
  ADD (f->filename != FC_STRING_NONE, "filename", FRAME_FILENAME);
  ADD (f->function != FC_STRING_NONE, "function", FRAME_FUNCTION);
  ADD (f->in_app != FC_IN_APP_UNKNOWN && !f->in_app_inferred, "in_app", FRAME_IN_APP);  /* only what the SDK said */
  ADD (f->has_instruction_addr, "instruction_addr", FRAME_INSTRUCTION_ADDR);
  ADD (f->lineno != FC_LINE_NONE, "lineno", FRAME_LINENO);
  ADD (f->module != FC_STRING_NONE, "module", FRAME_MODULE);
  ADD (f->package != FC_STRING_NONE, "package", FRAME_PACKAGE);
  ADD (f->platform != FC_STRING_NONE, "platform", FRAME_PLATFORM);
#undef ADD

  ctx->frame = f;
  out_merged_object (out, fields, n, parse_extra (ctx->profile, f->extra, ctx->extras),
                     write_frame_field, ctx);
}

enum { SAMPLE_ELAPSED, SAMPLE_STACK_ID, SAMPLE_THREAD_ID, SAMPLE_TIMESTAMP };

static void
write_sample_field (Out      *out,
                    gpointer  data,
                    guint     field)
{
  Ctx *ctx = data;
  const FcSample *s = ctx->sample;
  char buf[48];

  switch (field)
    {
    case SAMPLE_ELAPSED:
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, (guint64) (s->timestamp_ns - ctx->start_ns));
      out_string (out, buf);
      break;
    case SAMPLE_STACK_ID:
      out_int (out, ctx->stack_map[s->stack]);
      break;
    case SAMPLE_THREAD_ID:
      out_string (out, g_ptr_array_index (ctx->tids, s->thread));
      break;
    case SAMPLE_TIMESTAMP:
      fc_time_format_seconds (s->timestamp_ns, buf, sizeof buf);
      out_number (out, buf);
      break;
    default:
      g_assert_not_reached ();
    }
}

static const Field v1_sample_fields[] = {
  { "elapsed_since_start_ns", SAMPLE_ELAPSED },
  { "stack_id", SAMPLE_STACK_ID },
  { "thread_id", SAMPLE_THREAD_ID },
};

static const Field v2_sample_fields[] = {
  { "stack_id", SAMPLE_STACK_ID },
  { "thread_id", SAMPLE_THREAD_ID },
  { "timestamp", SAMPLE_TIMESTAMP },
};

enum { THREAD_NAME, THREAD_PRIORITY };

static void
write_thread_field (Out      *out,
                    gpointer  data,
                    guint     field)
{
  Ctx *ctx = data;

  if (field == THREAD_NAME)
    out_string (out, fc_profile_string (ctx->profile, ctx->thread->name));
  else
    out_int (out, ctx->thread->priority);
}

/*
 * Samples and stacks are most of a chunk's bytes. Between yajl's "[" and
 * "]" of these arrays the elements are appended directly: yajl only needs to
 * know that an array was opened and closed, and the elements have a fixed
 * shape whose only free text, the thread ids, is escaped once per thread.
 */
static inline void
raw (Out        *out,
     const char *text,
     gsize       len)
{
  g_byte_array_append (out->buf, (const guint8 *) text, len);
}

static inline gsize
format_uint (guint64  value,
             char    *buf)
{
  char tmp[24];
  gsize n = 0;

  do
    {
      tmp[n++] = '0' + value % 10;
      value /= 10;
    }
  while (value != 0);
  for (gsize i = 0; i < n; i++)
    buf[i] = tmp[n - 1 - i];
  return n;
}

/* the thread ids as quoted JSON strings, or NULL if one cannot be written */
static GPtrArray *
quote_thread_ids (Ctx *ctx)
{
  g_autoptr(GPtrArray) quoted = g_ptr_array_new_with_free_func (g_free);
  guint n_threads = fc_profile_get_n_threads (ctx->profile);

  for (guint t = 0; t < n_threads; t++)
    {
      const char *tid = g_ptr_array_index (ctx->tids, t);
      g_autoptr(GByteArray) buf = g_byte_array_new ();
      Out q;
      gboolean ok;

      out_init (&q, buf);
      out_string (&q, tid);
      ok = !q.failed;
      out_clear (&q);
      if (!ok)
        return NULL;
      g_byte_array_append (buf, (const guint8 *) "", 1);
      g_ptr_array_add (quoted, g_byte_array_free (g_steal_pointer (&buf), FALSE));
    }
  return g_steal_pointer (&quoted);
}

static gboolean
write_samples_fast (Out *out,
                    Ctx *ctx)
{
  g_autoptr(GPtrArray) quoted = NULL;
  gboolean v1 = ctx->format == FC_FORMAT_V1;
  char buf[128];

  for (guint i = 0; i < ctx->n_samples; i++)
    {
      if (ctx->samples[i].extra != FC_STRING_NONE)
        return FALSE;
    }
  quoted = quote_thread_ids (ctx);
  if (quoted == NULL)
    return FALSE;

  out_array_open (out);
  for (guint i = 0; i < ctx->n_samples; i++)
    {
      const FcSample *s = &ctx->samples[ctx->order[i]];
      const char *tid = g_ptr_array_index (quoted, s->thread);
      gsize n = 0;

      if (i > 0)
        buf[n++] = ',';
      if (v1)
        {
          memcpy (buf + n, "{\"elapsed_since_start_ns\":\"", 27);
          n += 27;
          n += format_uint ((guint64) (s->timestamp_ns - ctx->start_ns), buf + n);
          memcpy (buf + n, "\",\"stack_id\":", 13);
          n += 13;
          n += format_uint (ctx->stack_map[s->stack], buf + n);
          memcpy (buf + n, ",\"thread_id\":", 13);
          n += 13;
          raw (out, buf, n);
          raw (out, tid, strlen (tid));
          raw (out, "}", 1);
        }
      else
        {
          memcpy (buf + n, "{\"stack_id\":", 12);
          n += 12;
          n += format_uint (ctx->stack_map[s->stack], buf + n);
          memcpy (buf + n, ",\"thread_id\":", 13);
          n += 13;
          raw (out, buf, n);
          raw (out, tid, strlen (tid));
          memcpy (buf, ",\"timestamp\":", 13);
          fc_time_format_seconds (s->timestamp_ns, buf + 13, sizeof buf - 14);
          n = strlen (buf);
          buf[n++] = '}';
          raw (out, buf, n);
        }
    }
  out_array_close (out);
  return TRUE;
}

static void
write_samples (Out *out,
               Ctx *ctx)
{
  const Field *fields = ctx->format == FC_FORMAT_V1 ? v1_sample_fields : v2_sample_fields;

  if (write_samples_fast (out, ctx))
    return;

  out_array_open (out);
  for (guint i = 0; i < ctx->n_samples; i++)
    {
      ctx->sample = &ctx->samples[ctx->order[i]];
      out_merged_object (out, fields, 3,
                         parse_extra (ctx->profile, ctx->sample->extra, ctx->extras),
                         write_sample_field, ctx);
    }
  out_array_close (out);
}

static void
write_stacks (Out *out,
              Ctx *ctx)
{
  char buf[24];

  out_array_open (out);
  for (guint i = 0; i < ctx->out_stacks->len; i++)
    {
      guint32 stack = g_array_index (ctx->out_stacks, guint32, i);
      gboolean first = TRUE;

      raw (out, i > 0 ? ",[" : "[", i > 0 ? 2 : 1);
      /* leaf first: the node itself, then its callers */
      while (stack != FC_STACK_EMPTY)
        {
          const FcStackNode *node = fc_profile_get_stack (ctx->profile, stack);
          gsize n = 0;

          if (!first)
            buf[n++] = ',';
          first = FALSE;
          n += format_uint (ctx->frame_map[node->frame], buf + n);
          raw (out, buf, n);
          stack = node->parent;
        }
      raw (out, "]", 1);
    }
  out_array_close (out);
}

static void
write_frames (Out *out,
              Ctx *ctx)
{
  out_array_open (out);
  for (guint i = 0; i < ctx->out_frames->len; i++)
    write_frame (out, ctx, g_array_index (ctx->out_frames, guint32, i));
  out_array_close (out);
}

static void
write_thread_metadata (Out *out,
                       Ctx *ctx)
{
  guint n_threads = fc_profile_get_n_threads (ctx->profile);

  out_map_open (out);
  for (guint i = 0; i < n_threads; i++)
    {
      const FcThread *t = fc_profile_get_thread (ctx->profile, i);
      Field fields[2];
      guint n = 0;

      if (ctx->thread_samples[i] == 0)
        continue;
      if (!t->has_metadata && t->name == FC_STRING_NONE && t->priority < 0 && t->extra == FC_STRING_NONE)
        continue;

      if (t->name != FC_STRING_NONE)
        fields[n++] = (Field) { "name", THREAD_NAME };
      if (t->priority >= 0)
        fields[n++] = (Field) { "priority", THREAD_PRIORITY };
      ctx->thread = t;
      out_key (out, g_ptr_array_index (ctx->tids, i));
      out_merged_object (out, fields, n, parse_extra (ctx->profile, t->extra, ctx->extras),
                         write_thread_field, ctx);
    }
  out_map_close (out);
}

enum { PROFILE_FRAMES, PROFILE_SAMPLES, PROFILE_STACKS, PROFILE_THREAD_METADATA };

static void
write_profile_field (Out      *out,
                     gpointer  data,
                     guint     field)
{
  Ctx *ctx = data;

  switch (field)
    {
    case PROFILE_FRAMES: write_frames (out, ctx); break;
    case PROFILE_SAMPLES: write_samples (out, ctx); break;
    case PROFILE_STACKS: write_stacks (out, ctx); break;
    case PROFILE_THREAD_METADATA: write_thread_metadata (out, ctx); break;
    default: g_assert_not_reached ();
    }
}

static const Field profile_fields[] = {
  { "frames", PROFILE_FRAMES },
  { "samples", PROFILE_SAMPLES },
  { "stacks", PROFILE_STACKS },
  { "thread_metadata", PROFILE_THREAD_METADATA },
};

/* ---- top level ---- */

enum { TOP_PROFILE, TOP_VERSION, TOP_CLIENT_SDK, TOP_DEBUG_META, TOP_TIMESTAMP };

typedef struct {
  Ctx        *ctx;
  gboolean    keep_sdk;
} Top;

static void
write_top_field (Out      *out,
                 gpointer  data,
                 guint     field)
{
  Top *top = data;
  Ctx *ctx = top->ctx;

  switch (field)
    {
    case TOP_PROFILE:
      {
        JsonObject *extra = fc_profile_get_profile_extra (ctx->profile);

        if (extra != NULL && json_object_get_size (extra) == 0)
          extra = NULL;
        out_merged_object (out, profile_fields, G_N_ELEMENTS (profile_fields), extra,
                           write_profile_field, ctx);
      }
      break;
    case TOP_VERSION:
      out_string (out, ctx->format == FC_FORMAT_V1 ? "1" : "2");
      break;
    case TOP_CLIENT_SDK:
      {
        g_autoptr(FcClientSdk) ours = fc_client_sdk_new ("flamecast", FC_VERSION);
        g_autoptr(JsonNode) node = fc_chunk_meta_sdk_to_json (top->keep_sdk ? fc_profile_get_client_sdk (ctx->profile)
                                                                              : ours);

        out_node (out, node);
      }
      break;
    case TOP_DEBUG_META:
      {
        g_autoptr(JsonNode) node = fc_chunk_meta_debug_meta_to_json (ctx->profile);

        out_node (out, node);
      }
      break;
    case TOP_TIMESTAMP:
      {
        g_autofree char *ts = fc_time_format_rfc3339 (ctx->start_ns);

        out_string (out, ts);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
write_profile (Out           *out,
               FcProfile     *profile,
               FcFormat       format,
               FcWriteFlags   flags,
               GError       **error)
{
  Ctx ctx;
  Top top;
  JsonObject *meta = fc_profile_get_meta (profile);
  g_autoptr(JsonObject) top_extra = json_object_new ();
  GList *members;
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (Field));

  if (format != FC_FORMAT_V1 && format != FC_FORMAT_V2)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED,
                   _("cannot write a profile of unknown format: neither V1 nor V2"));
      return FALSE;
    }

  ctx_prepare (&ctx, profile, format, flags);

  if (format == FC_FORMAT_V1)
    {
      gint64 first_ns, last_ns;

      ctx.start_ns = fc_profile_get_start_ns (profile);
      fc_profile_get_time_range (profile, &first_ns, &last_ns);
      if (ctx.start_ns == 0 && first_ns <= last_ns)
        ctx.start_ns = first_ns;
      if (first_ns <= last_ns && first_ns < ctx.start_ns)
        {
          g_autofree char *ts = fc_time_format_rfc3339 (ctx.start_ns);

          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE,
                       _("V1 profile: a sample is %.6f s before the profile timestamp %s; "
                       "elapsed_since_start_ns cannot be negative"),
                       (ctx.start_ns - first_ns) / 1e9, ts);
          ctx_clear (&ctx);
          return FALSE;
        }
    }

  top.keep_sdk = (flags & FC_WRITE_KEEP_CLIENT_SDK) != 0 && fc_profile_get_client_sdk (profile) != NULL;

  /* interpreted keys first, then the metadata keys nobody overrides; the
   * typed SDK and images as fc-chunk-meta spells them */
  g_array_append_val (fields, ((Field) { "profile", TOP_PROFILE }));
  g_array_append_val (fields, ((Field) { "version", TOP_VERSION }));
  g_array_append_val (fields, ((Field) { "client_sdk", TOP_CLIENT_SDK }));
  if (fc_profile_get_images (profile) != NULL || fc_profile_get_debug_meta_extra (profile) != NULL)
    g_array_append_val (fields, ((Field) { "debug_meta", TOP_DEBUG_META }));
  if (format == FC_FORMAT_V1)
    g_array_append_val (fields, ((Field) { "timestamp", TOP_TIMESTAMP }));

  members = json_object_get_members (meta);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *key = l->data;
      gboolean taken = FALSE;

      for (guint i = 0; i < fields->len; i++)
        {
          if (strcmp (g_array_index (fields, Field, i).name, key) == 0)
            taken = TRUE;
        }
      if (!taken)
        json_object_set_member (top_extra, key, json_node_ref (json_object_get_member (meta, key)));
    }
  g_list_free (members);
  g_array_sort (fields, compare_fields);

  top.ctx = &ctx;
  out_merged_object (out, (const Field *) (gpointer) fields->data, fields->len, top_extra,
                     write_top_field, &top);

  ctx_clear (&ctx);
  return out_finish (out, error);
}

static GBytes *
write_profile_bytes (FcProfile     *profile,
                     FcFormat       format,
                     FcWriteFlags   flags,
                     GError       **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  Out out;
  gboolean ok;

  out_init (&out, buf);
  ok = write_profile (&out, profile, format, flags, error);
  out_clear (&out);
  if (!ok)
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

GBytes *
fc_writer_write_profile_full (FcProfile     *profile,
                              FcWriteFlags   flags,
                              GError       **error)
{
  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return write_profile_bytes (profile, fc_profile_get_format (profile), flags, error);
}

GBytes *
fc_writer_write_profile (FcProfile  *profile,
                         GError    **error)
{
  return fc_writer_write_profile_full (profile, FC_WRITE_FLAGS_NONE, error);
}

GBytes *
fc_writer_write_v2 (FcProfile  *profile,
                    GError    **error)
{
  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);
  return write_profile_bytes (profile, FC_FORMAT_V2, FC_WRITE_FLAGS_NONE, error);
}

GBytes *
fc_writer_write_v1 (FcProfile  *profile,
                    GError    **error)
{
  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);
  return write_profile_bytes (profile, FC_FORMAT_V1, FC_WRITE_FLAGS_NONE, error);
}

/* ---- envelopes ---- */

static void
append_transaction_item (GByteArray *buf,
                         JsonObject *event)
{
  g_autoptr(JsonObject) header = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_object_set_string_member (header, "type", "transaction");
  json_object_set_string_member (header, "content_type", "application/json");
  json_node_set_object (node, event);
  text = fc_writer_json_to_string (node);
  fc_envelope_append_item (buf, header, (const guint8 *) text, strlen (text));
}

static gboolean
append_profile_item (GByteArray    *buf,
                     FcProfile     *profile,
                     FcWriteFlags   flags,
                     GError       **error)
{
  g_autoptr(JsonObject) header = json_object_new ();
  g_autoptr(GBytes) payload = NULL;
  gboolean chunk = fc_profile_get_format (profile) == FC_FORMAT_V2;

  payload = fc_writer_write_profile_full (profile, flags, error);
  if (payload == NULL)
    return FALSE;

  json_object_set_string_member (header, "type", chunk ? "profile_chunk" : "profile");
  json_object_set_string_member (header, "content_type", "application/json");
  /* Relay rate-limits chunks by this before it parses the payload */
  if (chunk && fc_profile_get_platform (profile) != NULL)
    json_object_set_string_member (header, "platform", fc_profile_get_platform (profile));

  fc_envelope_append_item (buf, header,
               g_bytes_get_data (payload, NULL), g_bytes_get_size (payload));
  return TRUE;
}

static GBytes *
write_single_envelope (FcProfile     *profile,
                       JsonObject    *transaction_event,
                       JsonObject    *existing_header,
                       FcWriteFlags   flags,
                       gint64         sent_at_ns,
                       GError       **error)
{
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) event = NULL;
  const char *event_id = NULL;

  if (fc_profile_get_format (profile) == FC_FORMAT_V1)
    {
      event = transaction_event != NULL ? json_object_ref (transaction_event)
                                        : fc_transaction_event_new_for_profile (profile);
      /* SDKs put the transaction's id in the envelope header */
      event_id = fc_json_get_string (event, "event_id");
    }

  header = fc_envelope_header_new (existing_header, event_id, sent_at_ns);
  fc_envelope_append_header (buf, header);
  if (event != NULL)
    append_transaction_item (buf, event);
  if (!append_profile_item (buf, profile, flags, error))
    return NULL;

  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

/* An envelope carries an SDK's payload as that SDK made it: its own
 * client_sdk, when it names one (Sentry identifies the SDK by it). */
static FcWriteFlags
sdk_flags (FcProfile *profile)
{
  return fc_client_sdk_is_named (fc_profile_get_client_sdk (profile)) ? FC_WRITE_KEEP_CLIENT_SDK : FC_WRITE_FLAGS_NONE;
}

GBytes *
fc_writer_write_chunk_envelope (FcProfile  *chunk,
                                GError    **error)
{
  g_return_val_if_fail (FC_IS_PROFILE (chunk), NULL);

  if (fc_profile_get_format (chunk) != FC_FORMAT_V2)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED,
                   _("a profile_chunk envelope needs a V2 chunk, not a V1 profile"));
      return NULL;
    }
  return write_single_envelope (chunk, NULL, NULL, sdk_flags (chunk), 0, error);
}

GBytes *
fc_writer_write_v1_envelope (FcProfile   *profile,
                             JsonObject  *transaction_event,
                             GError     **error)
{
  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  if (fc_profile_get_format (profile) != FC_FORMAT_V1)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED,
                   _("a transaction envelope needs a V1 profile, not a V2 chunk"));
      return NULL;
    }
  return write_single_envelope (profile, transaction_event, NULL, sdk_flags (profile), 0, error);
}

GBytes *
fc_writer_write_envelope_full (FcDocument    *document,
                               FcWriteFlags   flags,
                               gint64         sent_at_ns,
                               GError       **error)
{
  g_autoptr(GByteArray) buf = NULL;
  g_autoptr(JsonObject) header = NULL;
  guint n_profiles;
  FcProfile *profile = NULL;
  const char *event_id = NULL;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n_profiles = fc_document_get_n_profiles (document);
  if (n_profiles > 1)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                   _("the document holds %u profiles, but an envelope may carry only one "
                   "profile or profile_chunk item (Relay answers 413 to more)"), n_profiles);
      return NULL;
    }
  if (n_profiles == 1)
    profile = fc_document_get_profile (document, 0);

  if (fc_document_get_kind (document) != FC_DOCUMENT_ENVELOPE)
    {
      if (profile == NULL)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING,
                       _("the document holds no profile to put into an envelope"));
          return NULL;
        }
      return write_single_envelope (profile,
                                    fc_document_get_n_transactions (document) > 0
                                    ? fc_document_get_transaction (document, 0)
                                    : fc_profile_get_linked_event (profile),
                                    NULL, flags, sent_at_ns, error);
    }

  /* an envelope read from a file: keep its items as they were */
  if (fc_document_get_n_transactions (document) > 0)
    event_id = fc_json_get_string (fc_document_get_transaction (document, 0), "event_id");
  buf = g_byte_array_new ();
  header = fc_envelope_header_new (fc_document_get_envelope_header (document), event_id, sent_at_ns);
  fc_envelope_append_header (buf, header);
  for (guint i = 0; i < fc_document_get_n_transactions (document); i++)
    append_transaction_item (buf, fc_document_get_transaction (document, i));
  if (profile != NULL && !append_profile_item (buf, profile, flags, error))
    return NULL;
  for (guint i = 0; i < fc_document_get_n_other_items (document); i++)
    {
      const FcEnvelopeItem *item = fc_document_get_other_item (document, i);
      gsize len = 0;
      const guint8 *data = g_bytes_get_data (item->payload, &len);

      fc_envelope_append_item (buf, item->header, data, len);
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&buf));
}

GBytes *
fc_writer_write_envelope (FcDocument  *document,
                          GError     **error)
{
  return fc_writer_write_envelope_full (document, FC_WRITE_FLAGS_NONE, 0, error);
}
