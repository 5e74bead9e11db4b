/* fc-pb-json.c - any protobuf-c message to and from the proto3 JSON mapping, as OTLP/JSON wants it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <yajl/yajl_parse.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-interop-private.h"
#include "fc-json-stream-private.h"
#include "fc-json-util.h"
#include "fc-pb-json-private.h"

/* "time_unix_nano" -> "timeUnixNano" */
static void
append_camel (GString    *out,
              const char *name)
{
  gboolean upper = FALSE;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '_')
        upper = TRUE;
      else
        {
          g_string_append_c (out, upper ? g_ascii_toupper (*p) : *p);
          upper = FALSE;
        }
    }
}

static gboolean
is_hex_bytes_field (const ProtobufCFieldDescriptor *field)
{
  return strcmp (field->name, "trace_id") == 0 || strcmp (field->name, "span_id") == 0;
}

/* FALSE for a proto3 scalar at its default, which JSON leaves out */
static gboolean
value_is_set (const ProtobufCFieldDescriptor *field,
              const void                     *member)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_STRING:
      return *(char * const *) member != NULL && **(char * const *) member != '\0';
    case PROTOBUF_C_TYPE_BYTES:
      return ((const ProtobufCBinaryData *) member)->len > 0;
    case PROTOBUF_C_TYPE_MESSAGE:
      return *(void * const *) member != NULL;
    case PROTOBUF_C_TYPE_FLOAT:
      return *(const float *) member != 0;
    case PROTOBUF_C_TYPE_DOUBLE:
      return *(const double *) member != 0;
    default:
      {
        gsize size = fc_pb_element_size (field->type);
        return size == 8 ? *(const guint64 *) member != 0 : *(const guint32 *) member != 0;
      }
    }
}

static void write_message (GString *out, const ProtobufCMessage *message);

/* a number without printf: OTLP/JSON of a 50 MB chunk has millions, and
 * printf was a tenth of the conversion */
static void
append_integer (GString  *out,
                gboolean  negative,
                guint64   magnitude,
                gboolean  quoted)
{
  char buf[24];
  int i = sizeof buf;

  if (quoted)
    buf[--i] = '"';
  do
    buf[--i] = (char) ('0' + magnitude % 10);
  while ((magnitude /= 10) > 0);
  if (negative)
    buf[--i] = '-';
  if (quoted)
    buf[--i] = '"';
  g_string_append_len (out, buf + i, sizeof buf - i);
}

static void
append_signed (GString  *out,
               gint64    v,
               gboolean  quoted)
{
  /* the magnitude of G_MININT64 does not fit a gint64 */
  append_integer (out, v < 0, v < 0 ? (guint64) 0 - (guint64) v : (guint64) v, quoted);
}

static void
write_value (GString                        *out,
             const ProtobufCFieldDescriptor *field,
             const void                     *member)
{
  switch (field->type)
    {
    case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_ENUM:
      append_signed (out, *(const gint32 *) member, FALSE);
      break;
    case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
      append_integer (out, FALSE, *(const guint32 *) member, FALSE);
      break;
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
      /* proto3 JSON: 64-bit integers are strings */
      append_signed (out, *(const gint64 *) member, TRUE);
      break;
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
      append_integer (out, FALSE, *(const guint64 *) member, TRUE);
      break;
    case PROTOBUF_C_TYPE_BOOL:
      g_string_append (out, *(const protobuf_c_boolean *) member ? "true" : "false");
      break;
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        double d = field->type == PROTOBUF_C_TYPE_FLOAT ? *(const float *) member : *(const double *) member;

        g_string_append (out, g_ascii_dtostr (buf, sizeof buf, d));
      }
      break;
    case PROTOBUF_C_TYPE_STRING:
      fc_interop_append_json_string (out, *(char * const *) member ? *(char * const *) member : "");
      break;
    case PROTOBUF_C_TYPE_BYTES:
      {
        const ProtobufCBinaryData *b = member;

        g_string_append_c (out, '"');
        if (is_hex_bytes_field (field))
          for (gsize i = 0; i < b->len; i++)
            g_string_append_printf (out, "%02x", b->data[i]);
        else
          {
            g_autofree char *b64 = g_base64_encode (b->data, b->len);
            g_string_append (out, b64);
          }
        g_string_append_c (out, '"');
      }
      break;
    case PROTOBUF_C_TYPE_MESSAGE:
      write_message (out, *(ProtobufCMessage * const *) member);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
write_message (GString                *out,
               const ProtobufCMessage *message)
{
  const ProtobufCMessageDescriptor *desc = message->descriptor;
  const char *base = (const char *) message;
  gboolean first = TRUE;

  g_string_append_c (out, '{');
  for (unsigned i = 0; i < desc->n_fields; i++)
    {
      const ProtobufCFieldDescriptor *field = &desc->fields[i];
      const void *member = base + field->offset;

      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          gsize n = *(const size_t *) (base + field->quantifier_offset);
          const char *items = *(char * const *) member;
          gsize size = fc_pb_element_size (field->type);

          if (n == 0)
            continue;
          g_string_append (out, first ? "\"" : ",\"");
          append_camel (out, field->name);
          g_string_append (out, "\":[");
          for (gsize j = 0; j < n; j++)
            {
              if (j > 0)
                g_string_append_c (out, ',');
              write_value (out, field, items + j * size);
            }
          g_string_append_c (out, ']');
          first = FALSE;
          continue;
        }

      if (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
        {
          /* a oneof member is present when its case says so, even at zero */
          if (*(const guint32 *) (base + field->quantifier_offset) != field->id)
            continue;
        }
      else if (field->label == PROTOBUF_C_LABEL_OPTIONAL && field->quantifier_offset != 0 &&
               field->type != PROTOBUF_C_TYPE_MESSAGE && field->type != PROTOBUF_C_TYPE_STRING)
        {
          if (!*(const protobuf_c_boolean *) (base + field->quantifier_offset))
            continue;
        }
      else if (!value_is_set (field, member))
        continue;

      g_string_append (out, first ? "\"" : ",\"");
      append_camel (out, field->name);
      g_string_append (out, "\":");
      write_value (out, field, member);
      first = FALSE;
    }
  g_string_append_c (out, '}');
}

void
fc_pb_json_write (GString                *out,
                  const ProtobufCMessage *message)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (message != NULL);

  write_message (out, message);
}

/* ---- reading: yajl events straight into protobuf-c messages ---- */

/*
 * No document tree in between (json-glib's took 16 times the text: 540 MB
 * for a 33 MB file) and no recursion: a stack of the messages being
 * filled, at most FC_READ_MAX_DEPTH deep. Every allocation is counted
 * against FcPbLimits before it is made.
 */

typedef struct {
  const ProtobufCMessageDescriptor *desc;
  ProtobufCMessage                 *message;
  guint8                           *seen;      /* per field of desc */
  const ProtobufCFieldDescriptor   *field;     /* of the key read last; NULL: skip its value */
  gboolean                          in_array;  /* field's array is open */
  gsize                             capacity;  /* of that array */
  guint                             index;     /* of its next element */
  gsize                             path_len;  /* the path up to this message */
  gsize                             key_len;   /* ... and its key */
} Frame;

typedef struct {
  const ProtobufCMessageDescriptor *root_desc;
  FcPbLimits  *limits;
  const char  *what;
  Frame        frames[FC_READ_MAX_DEPTH + 1];
  guint        depth;
  guint        skip;        /* containers open inside a value being skipped */
  gboolean     skip_value;  /* the next value is skipped (an unknown key) */
  ProtobufCMessage *result;
  GString     *path;
  GError      *error;
} Reader;

static int
fail (Reader     *r,
      GQuark      domain,
      int         code,
      const char *message)
{
  if (r->error == NULL)
    r->error = g_error_new (domain, code, "%s %s: %s", r->what, r->path->len > 0 ? r->path->str : "(top)", message);
  return 0;
}

static int
fail_type (Reader     *r,
           const char *message)
{
  return fail (r, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, message);
}

static int
fail_limit (Reader        *r,
            const FcPbCap *cap)
{
  g_autofree char *message = NULL;

  if (cap != NULL)
    message = g_strdup_printf (_("more than %" PRIu64 " %s in all, the reader's limit"), cap->max, _(cap->what));
  else
    message = g_strdup_printf (_("decoding would take more than %" PRIu64 " MiB, the reader's limit"),
                               FC_READ_MAX_DECODED_BYTES >> 20);
  return fail (r, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE, message);
}

/* "timeUnixNano" for "time_unix_nano", without building it */
static gboolean
is_camel_of (const char *key,
             const char *name)
{
  gboolean upper = FALSE;

  for (; *name != '\0'; name++)
    {
      if (*name == '_')
        {
          upper = TRUE;
          continue;
        }
      if (*key++ != (upper ? g_ascii_toupper (*name) : *name))
        return FALSE;
      upper = FALSE;
    }
  return *key == '\0';
}

static Frame *
top (Reader *r)
{
  return &r->frames[r->depth];
}

static ProtobufCMessage *
new_message (Reader                           *r,
             const ProtobufCMessageDescriptor *desc)
{
  ProtobufCMessage *message;

  if (!fc_pb_limits_add_bytes (r->limits, desc->sizeof_message))
    return NULL;
  message = calloc (1, desc->sizeof_message);
  protobuf_c_message_init (desc, message);
  return message;
}

static gboolean
push_message (Reader                           *r,
              const ProtobufCMessageDescriptor *desc)
{
  Frame *f;
  ProtobufCMessage *message;

  if (r->depth >= FC_READ_MAX_DEPTH)
    {
      fail (r, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("nested deeper than the reader's limit"));
      return FALSE;
    }
  if ((message = new_message (r, desc)) == NULL)
    {
      fail_limit (r, NULL);
      return FALSE;
    }
  f = &r->frames[++r->depth];
  memset (f, 0, sizeof *f);
  f->desc = desc;
  f->message = message;
  f->seen = g_new0 (guint8, MAX (desc->n_fields, 1));
  f->path_len = r->path->len;
  return TRUE;
}

/* Room for one more element of the open array of @f's field, counted as it
 * is filled so that a failure frees only what exists; NULL past a limit. */
static gpointer
array_push (Reader *r,
            Frame  *f)
{
  const ProtobufCFieldDescriptor *field = f->field;
  char *base = (char *) f->message;
  char **items = (char **) (base + field->offset);
  size_t *n = (size_t *) (base + field->quantifier_offset);
  gsize size = fc_pb_element_size (field->type);
  const FcPbCap *cap;

  if ((cap = fc_pb_limits_count (r->limits, field, 1)) != NULL)
    {
      fail_limit (r, cap);
      return NULL;
    }
  if (*n == f->capacity)
    {
      gsize grow = MAX (f->capacity, 4);

      if (!fc_pb_limits_add_bytes (r->limits, grow * size))
        {
          fail_limit (r, NULL);
          return NULL;
        }
      *items = realloc (*items, (f->capacity + grow) * size);
      g_assert (*items != NULL);
      memset (*items + f->capacity * size, 0, grow * size);
      f->capacity += grow;
    }
  g_string_truncate (r->path, f->key_len);
  g_string_append_printf (r->path, "[%u]", f->index++);
  return *items + (*n)++ * size;
}

/* where the value of @f's current key goes: the member, or a new element
 * of its open array; NULL with an error */
static gpointer
member_for_value (Reader *r,
                  Frame  *f)
{
  const ProtobufCFieldDescriptor *field = f->field;

  if (field->label == PROTOBUF_C_LABEL_REPEATED)
    {
      if (!f->in_array)
        {
          fail_type (r, _("expected an array"));
          return NULL;
        }
      return array_push (r, f);
    }
  return (char *) f->message + field->offset;
}

/* a singular member was set: presence for optional scalars and oneofs */
static void
mark_set (Frame *f)
{
  const ProtobufCFieldDescriptor *field = f->field;
  char *base = (char *) f->message;

  if (field->label == PROTOBUF_C_LABEL_REPEATED)
    return;
  if (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
    *(guint32 *) (base + field->quantifier_offset) = field->id;
  else if (field->label == PROTOBUF_C_LABEL_OPTIONAL && field->quantifier_offset != 0 &&
           field->type != PROTOBUF_C_TYPE_MESSAGE && field->type != PROTOBUF_C_TYPE_STRING)
    *(protobuf_c_boolean *) (base + field->quantifier_offset) = TRUE;
}

/* a value of a singular field was read: its key is done */
static void
after_value (Reader *r)
{
  Frame *f = top (r);

  if (r->depth > 0 && !f->in_array)
    {
      f->field = NULL;
      g_string_truncate (r->path, f->path_len);
    }
}

static guint8 *
hex_decode (const char *s,
            gsize       n,
            gsize      *len)
{
  guint8 *data;

  if (n % 2 != 0)
    return NULL;
  data = malloc (n / 2 + 1);
  for (gsize i = 0; i < n / 2; i++)
    {
      int hi = g_ascii_xdigit_value (s[2 * i]);
      int lo = g_ascii_xdigit_value (s[2 * i + 1]);

      if (hi < 0 || lo < 0)
        {
          free (data);
          return NULL;
        }
      data[i] = (guint8) (hi << 4 | lo);
    }
  *len = n / 2;
  return data;
}

/* an integer from a JSON number or a decimal string (64-bit ones are strings) */
static gboolean
parse_integer (const char *text,
               gsize       len,
               gboolean    is_unsigned,
               gboolean    from_number,
               gint64     *out)
{
  char buf[64];
  char *end = NULL;

  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, text, len);
  buf[len] = '\0';

  errno = 0;
  if (from_number && strpbrk (buf, ".eE") != NULL)
    {
      double d = g_ascii_strtod (buf, &end);

      /* range first: casting a double beyond gint64 is undefined */
      if (*end != '\0' || !(d >= -9.2e18 && d <= 9.2e18) || d != floor (d))
        return FALSE;
      *out = (gint64) d;
      return TRUE;
    }
  if (is_unsigned)
    *out = (gint64) g_ascii_strtoull (buf, &end, 10);
  else
    *out = g_ascii_strtoll (buf, &end, 10);
  return errno == 0 && *end == '\0';
}

typedef enum {
  JV_NULL,
  JV_BOOL,
  JV_NUMBER,
  JV_STRING,
} JsonKind;

static int
on_scalar (Reader     *r,
           JsonKind    kind,
           const char *text,
           gsize       len,
           gboolean    boolean)
{
  Frame *f = top (r);
  const ProtobufCFieldDescriptor *field;
  gpointer member;
  gint64 v = 0;

  if (r->skip > 0)
    return 1;
  if (r->skip_value)
    {
      r->skip_value = FALSE;
      return 1;
    }
  if (r->depth == 0)
    return fail_type (r, _("expected an object"));

  field = f->field;
  g_assert (field != NULL);

  /* null is the default: nothing to set (but not an element of an array) */
  if (kind == JV_NULL && !f->in_array)
    {
      after_value (r);
      return 1;
    }

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_MESSAGE:
      return fail_type (r, _("expected an object"));
    case PROTOBUF_C_TYPE_BOOL:
      if (kind != JV_BOOL)
        return fail_type (r, _("expected true or false"));
      if ((member = member_for_value (r, f)) == NULL)
        return 0;
      *(protobuf_c_boolean *) member = boolean;
      break;
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE:
      {
        char buf[64];
        char *end = NULL;
        double d;

        if ((kind != JV_NUMBER && kind != JV_STRING) || len == 0 || len >= sizeof buf)
          return fail_type (r, _("expected a number"));
        memcpy (buf, text, len);
        buf[len] = '\0';
        d = g_ascii_strtod (buf, &end);
        if (*end != '\0')
          return fail_type (r, _("expected a number"));
        if ((member = member_for_value (r, f)) == NULL)
          return 0;
        if (field->type == PROTOBUF_C_TYPE_FLOAT)
          *(float *) member = (float) d;
        else
          *(double *) member = d;
      }
      break;
    case PROTOBUF_C_TYPE_STRING:
      if (kind != JV_STRING)
        return fail_type (r, _("expected a string"));
      /* the bytes are counted before they are copied */
      if (!fc_pb_limits_add_bytes (r->limits, len + 1))
        return fail_limit (r, NULL);
      if ((member = member_for_value (r, f)) == NULL)
        return 0;
      *(char **) member = strndup (text, len);
      break;
    case PROTOBUF_C_TYPE_BYTES:
      {
        ProtobufCBinaryData b = { 0, NULL };

        if (kind != JV_STRING)
          return fail_type (r, _("expected a string of bytes"));
        if (!fc_pb_limits_add_bytes (r->limits, len + 1))
          return fail_limit (r, NULL);
        if (len > 0 && is_hex_bytes_field (field))
          {
            if ((b.data = hex_decode (text, len, &b.len)) == NULL)
              return fail_type (r, _("expected hexadecimal digits"));
          }
        else if (len > 0)
          {
            g_autofree char *copy = g_strndup (text, len);
            gsize n = 0;
            g_autofree guchar *decoded = g_base64_decode (copy, &n);

            b.data = malloc (n + 1);
            memcpy (b.data, decoded, n);
            b.len = n;
          }
        if ((member = member_for_value (r, f)) == NULL)
          {
            free (b.data);
            return 0;
          }
        *(ProtobufCBinaryData *) member = b;
      }
      break;
    default:
      {
        gboolean is_unsigned = field->type == PROTOBUF_C_TYPE_UINT32 || field->type == PROTOBUF_C_TYPE_FIXED32 ||
                               field->type == PROTOBUF_C_TYPE_UINT64 || field->type == PROTOBUF_C_TYPE_FIXED64;

        if ((kind != JV_NUMBER && kind != JV_STRING) ||
            !parse_integer (text, len, is_unsigned, kind == JV_NUMBER, &v) ||
            (is_unsigned && kind == JV_NUMBER && v < 0))
          return fail_type (r, is_unsigned ? _("expected an unsigned integer") : _("expected an integer"));
        if (fc_pb_element_size (field->type) == 4)
          {
            gboolean fits = (field->type == PROTOBUF_C_TYPE_UINT32 || field->type == PROTOBUF_C_TYPE_FIXED32)
                            ? (v >= 0 && v <= G_MAXUINT32) : (v >= G_MININT32 && v <= G_MAXINT32);

            if (!fits)
              return fail_type (r, _("the number does not fit in 32 bits"));
          }
        if ((member = member_for_value (r, f)) == NULL)
          return 0;
        if (fc_pb_element_size (field->type) == 8)
          *(gint64 *) member = v;
        else
          *(gint32 *) member = (gint32) v;
      }
      break;
    }

  mark_set (f);
  after_value (r);
  return 1;
}

static int
cb_null (void *ctx)
{
  return on_scalar (ctx, JV_NULL, NULL, 0, FALSE);
}

static int
cb_boolean (void *ctx,
            int   value)
{
  return on_scalar (ctx, JV_BOOL, NULL, 0, value != 0);
}

static int
cb_number (void       *ctx,
           const char *text,
           size_t      len)
{
  return on_scalar (ctx, JV_NUMBER, text, len, FALSE);
}

static int
cb_string (void                *ctx,
           const unsigned char *text,
           size_t               len)
{
  return on_scalar (ctx, JV_STRING, (const char *) text, len, FALSE);
}

/* containers inside a value being skipped, within the nesting limit */
static int
skip_open (Reader *r)
{
  if (r->depth + r->skip >= FC_READ_MAX_DEPTH)
    return fail (r, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("nested deeper than the reader's limit"));
  r->skip++;
  return 1;
}

static int
cb_start_map (void *ctx)
{
  Reader *r = ctx;
  Frame *f = top (r);

  if (r->skip > 0 || r->skip_value)
    {
      r->skip_value = FALSE;
      return skip_open (r);
    }
  if (r->depth == 0)
    return push_message (r, r->root_desc) ? 1 : 0;
  if (f->field->type != PROTOBUF_C_TYPE_MESSAGE)
    return fail_type (r, _("expected a scalar, got an object"));
  if (f->field->label == PROTOBUF_C_LABEL_REPEATED)
    {
      if (!f->in_array)
        return fail_type (r, _("expected an array"));
      /* the element's place in the path and in the count, before it is filled */
      if (array_push (r, f) == NULL)
        return 0;
      if (!push_message (r, f->field->descriptor))
        {
          /* no message for that slot: protobuf-c frees none that is NULL */
          (*(size_t *) ((char *) f->message + f->field->quantifier_offset))--;
          return 0;
        }
      return 1;
    }
  return push_message (r, f->field->descriptor) ? 1 : 0;
}

static int
cb_end_map (void *ctx)
{
  Reader *r = ctx;
  Frame *done, *parent;
  ProtobufCMessage *message;

  if (r->skip > 0)
    {
      r->skip--;
      return 1;
    }

  done = top (r);
  message = done->message;
  g_free (done->seen);
  r->depth--;
  if (r->depth == 0)
    {
      r->result = message;
      return 1;
    }

  parent = top (r);
  if (parent->field->label == PROTOBUF_C_LABEL_REPEATED)
    {
      char *base = (char *) parent->message;
      ProtobufCMessage **items = *(ProtobufCMessage ***) (base + parent->field->offset);
      size_t n = *(size_t *) (base + parent->field->quantifier_offset);

      /* its slot was made by cb_start_map */
      items[n - 1] = message;
    }
  else
    {
      *(ProtobufCMessage **) ((char *) parent->message + parent->field->offset) = message;
      mark_set (parent);
    }
  after_value (r);
  return 1;
}

static int
cb_map_key (void                *ctx,
            const unsigned char *key,
            size_t               len)
{
  Reader *r = ctx;
  Frame *f = top (r);
  g_autofree char *name = NULL;
  const ProtobufCFieldDescriptor *field = NULL;
  char *base = (char *) f->message;

  if (r->skip > 0)
    return 1;

  name = g_strndup ((const char *) key, len);
  g_string_truncate (r->path, f->path_len);
  g_string_append_printf (r->path, "%s%s", f->path_len > 0 ? "." : "", name);
  f->key_len = r->path->len;

  for (unsigned i = 0; i < f->desc->n_fields && field == NULL; i++)
    if (strcmp (f->desc->fields[i].name, name) == 0 || is_camel_of (name, f->desc->fields[i].name))
      field = &f->desc->fields[i];

  /* OTLP receivers ignore keys they do not know */
  if (field == NULL)
    {
      f->field = NULL;
      r->skip_value = TRUE;
      return 1;
    }

  /* A field given twice (as "mapping_table" and as "mappingTable"), or two
   * members of one oneof, would overwrite the first value: leaked, or for a
   * oneof an integer later freed as a string. protobuf's own JSON parsers
   * refuse both (found by fuzz-otlp-json). */
  if (f->seen[field - f->desc->fields])
    return fail_type (r, _("the field is given twice (by its name and its JSON name)"));
  if ((field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && *(guint32 *) (base + field->quantifier_offset) != 0)
    return fail_type (r, _("another member of the same oneof is given too"));
  f->seen[field - f->desc->fields] = TRUE;
  f->field = field;
  f->in_array = FALSE;
  f->capacity = 0;
  f->index = 0;
  return 1;
}

static int
cb_start_array (void *ctx)
{
  Reader *r = ctx;
  Frame *f = top (r);

  if (r->skip > 0 || r->skip_value)
    {
      r->skip_value = FALSE;
      return skip_open (r);
    }
  if (r->depth == 0)
    return fail_type (r, _("expected an object"));
  if (f->field->label != PROTOBUF_C_LABEL_REPEATED || f->in_array)
    return fail_type (r, f->in_array ? _("expected an element, got an array") : _("expected a single value, got an array"));
  f->in_array = TRUE;
  return 1;
}

static int
cb_end_array (void *ctx)
{
  Reader *r = ctx;
  Frame *f = top (r);

  if (r->skip > 0)
    {
      r->skip--;
      return 1;
    }
  f->in_array = FALSE;
  after_value (r);
  return 1;
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

ProtobufCMessage *
fc_pb_json_read (const ProtobufCMessageDescriptor *descriptor,
                 const char                       *text,
                 gsize                             len,
                 FcPbLimits                       *limits,
                 const char                       *what,
                 GError                          **error)
{
  g_autoptr(GString) path = g_string_new (NULL);
  Reader r = { 0 };

  g_return_val_if_fail (descriptor != NULL, NULL);
  g_return_val_if_fail (text != NULL || len == 0, NULL);

  if (!fc_json_check_object_text (text, len, what, error))
    return NULL;

  r.root_desc = descriptor;
  r.limits = limits;
  r.what = what;
  r.path = path;

  /* all of the text in one call: linear in every token's length */
  if (!fc_json_run (&callbacks, &r, text, len, what, r.error == NULL ? &r.error : NULL) && r.error == NULL)
    r.error = g_error_new (FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("%s: parsing stopped"), what);

  if (r.error != NULL)
    {
      /* the messages still open own what was filled: the outermost frees it all */
      for (guint i = r.depth; i > 0; i--)
        {
          Frame *f = &r.frames[i];
          Frame *parent = i > 1 ? &r.frames[i - 1] : NULL;

          g_free (f->seen);
          if (parent != NULL && parent->field != NULL && parent->field->label == PROTOBUF_C_LABEL_REPEATED)
            {
              /* its slot in the parent's array is already counted */
              char *base = (char *) parent->message;
              ProtobufCMessage **items = *(ProtobufCMessage ***) (base + parent->field->offset);
              size_t n = *(size_t *) (base + parent->field->quantifier_offset);

              items[n - 1] = f->message;
            }
          else if (parent != NULL)
            {
              /* a oneof's member is freed only when its case says so */
              *(ProtobufCMessage **) ((char *) parent->message + parent->field->offset) = f->message;
              mark_set (parent);
            }
          else
            protobuf_c_message_free_unpacked (f->message, NULL);
        }
      if (r.result != NULL)
        protobuf_c_message_free_unpacked (r.result, NULL);
      g_propagate_error (error, r.error);
      return NULL;
    }

  g_assert (r.result != NULL);
  return r.result;
}
