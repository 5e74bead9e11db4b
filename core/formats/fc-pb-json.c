/* fc-pb-json.c - any protobuf-c message to and from the proto3 JSON mapping, as OTLP/JSON wants it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fc-error.h"
#include "fc-interop-private.h"
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

static gsize
element_size (ProtobufCType type)
{
  switch (type)
    {
    case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32: case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32: case PROTOBUF_C_TYPE_ENUM:
      return 4;
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
      return 8;
    case PROTOBUF_C_TYPE_BOOL:
      return sizeof (protobuf_c_boolean);
    case PROTOBUF_C_TYPE_FLOAT:
      return sizeof (float);
    case PROTOBUF_C_TYPE_DOUBLE:
      return sizeof (double);
    case PROTOBUF_C_TYPE_STRING:
      return sizeof (char *);
    case PROTOBUF_C_TYPE_BYTES:
      return sizeof (ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_MESSAGE:
      return sizeof (ProtobufCMessage *);
    default:
      g_assert_not_reached ();
    }
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
        gsize size = element_size (field->type);
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
          gsize size = element_size (field->type);

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

/* ---- reading ---- */

static gboolean
node_to_int64 (JsonNode  *node,
               gint64    *out,
               gboolean   is_unsigned)
{
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_INT64)
        {
          *out = json_node_get_int (node);
          return TRUE;
        }
      if (type == G_TYPE_DOUBLE)
        {
          double d = json_node_get_double (node);

          /* range first: casting a double beyond gint64 is undefined */
          if (!(d >= -9.2e18 && d <= 9.2e18) || d != floor (d))
            return FALSE;
          *out = (gint64) d;
          return TRUE;
        }
      if (type == G_TYPE_STRING)
        {
          const char *s = json_node_get_string (node);
          char *end = NULL;

          if (*s == '\0')
            return FALSE;
          errno = 0;
          if (is_unsigned)
            *out = (gint64) g_ascii_strtoull (s, &end, 10);
          else
            *out = g_ascii_strtoll (s, &end, 10);
          return errno == 0 && *end == '\0';
        }
    }
  return FALSE;
}

static guint8 *
hex_decode (const char *s,
            gsize      *len)
{
  gsize n = strlen (s);
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

static ProtobufCMessage *read_message (const ProtobufCMessageDescriptor *desc, JsonNode *node,
                                       GString *path, GError **error);

static void
set_error (GError    **error,
           GString    *path,
           const char *what)
{
  g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, "%s: %s", path->str, what);
}

static gboolean
read_value (const ProtobufCFieldDescriptor *field,
            JsonNode                       *node,
            void                           *member,
            GString                        *path,
            GError                        **error)
{
  gint64 v = 0;

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_BOOL:
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          set_error (error, path, "expected true or false");
          return FALSE;
        }
      *(protobuf_c_boolean *) member = json_node_get_boolean (node);
      return TRUE;
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE:
      {
        double d;

        if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
          {
            char *end = NULL;

            d = g_ascii_strtod (json_node_get_string (node), &end);
            if (end == NULL || *end != '\0')
              {
                set_error (error, path, "expected a number");
                return FALSE;
              }
          }
        else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) != G_TYPE_BOOLEAN)
          d = json_node_get_double (node);
        else
          {
            set_error (error, path, "expected a number");
            return FALSE;
          }
        if (field->type == PROTOBUF_C_TYPE_FLOAT)
          *(float *) member = (float) d;
        else
          *(double *) member = d;
        return TRUE;
      }
    case PROTOBUF_C_TYPE_STRING:
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          set_error (error, path, "expected a string");
          return FALSE;
        }
      *(char **) member = strdup (json_node_get_string (node));
      return TRUE;
    case PROTOBUF_C_TYPE_BYTES:
      {
        ProtobufCBinaryData *b = member;
        const char *s;

        if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
          {
            set_error (error, path, "expected a string of bytes");
            return FALSE;
          }
        s = json_node_get_string (node);
        b->data = NULL;
        b->len = 0;
        if (*s == '\0')
          return TRUE;
        if (is_hex_bytes_field (field))
          {
            b->data = hex_decode (s, &b->len);
            if (b->data == NULL)
              {
                set_error (error, path, "expected hexadecimal digits");
                return FALSE;
              }
          }
        else
          {
            gsize len = 0;
            g_autofree guchar *decoded = g_base64_decode (s, &len);

            b->data = malloc (len + 1);
            memcpy (b->data, decoded, len);
            b->len = len;
          }
        return TRUE;
      }
    case PROTOBUF_C_TYPE_MESSAGE:
      {
        ProtobufCMessage *sub = read_message (field->descriptor, node, path, error);

        if (sub == NULL)
          return FALSE;
        *(ProtobufCMessage **) member = sub;
        return TRUE;
      }
    default:
      break;
    }

  switch (field->type)
    {
    case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
      if (!node_to_int64 (node, &v, TRUE))
        {
          set_error (error, path, "expected an unsigned integer");
          return FALSE;
        }
      break;
    default:
      if (!node_to_int64 (node, &v, FALSE))
        {
          set_error (error, path, "expected an integer");
          return FALSE;
        }
    }
  if (element_size (field->type) == 8)
    *(gint64 *) member = v;
  else
    {
      gboolean fits = (field->type == PROTOBUF_C_TYPE_UINT32 || field->type == PROTOBUF_C_TYPE_FIXED32)
                      ? (v >= 0 && v <= G_MAXUINT32) : (v >= G_MININT32 && v <= G_MAXINT32);

      if (!fits)
        {
          set_error (error, path, "the number does not fit in 32 bits");
          return FALSE;
        }
      *(gint32 *) member = (gint32) v;
    }
  return TRUE;
}

static const ProtobufCFieldDescriptor *
find_field (const ProtobufCMessageDescriptor *desc,
            const char                       *key)
{
  for (unsigned i = 0; i < desc->n_fields; i++)
    {
      g_autoptr(GString) camel = g_string_new (NULL);

      if (strcmp (desc->fields[i].name, key) == 0)
        return &desc->fields[i];
      append_camel (camel, desc->fields[i].name);
      if (strcmp (camel->str, key) == 0)
        return &desc->fields[i];
    }
  return NULL;
}

static ProtobufCMessage *
read_message (const ProtobufCMessageDescriptor *desc,
              JsonNode                         *node,
              GString                          *path,
              GError                          **error)
{
  ProtobufCMessage *message;
  g_autofree gboolean *seen = NULL;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;
  gsize path_len = path->len;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_error (error, path, "expected an object");
      return NULL;
    }

  message = calloc (1, desc->sizeof_message);
  protobuf_c_message_init (desc, message);
  seen = g_new0 (gboolean, MAX (desc->n_fields, 1));

  json_object_iter_init (&iter, json_node_get_object (node));
  while (json_object_iter_next (&iter, &key, &value))
    {
      const ProtobufCFieldDescriptor *field = find_field (desc, key);
      char *base = (char *) message;

      if (field == NULL || JSON_NODE_HOLDS_NULL (value))
        continue;

      g_string_append_printf (path, "%s%s", path_len > 0 ? "." : "", key);
      /* A field given twice (as "mapping_table" and as "mappingTable"), or
       * two members of one oneof, would overwrite the first value: leaked,
       * or for a oneof an integer later freed as a string. protobuf's own
       * JSON parsers refuse both (found by fuzz-otlp-json). */
      if (seen[field - desc->fields])
        {
          set_error (error, path, "the field is given twice (by its name and its JSON name)");
          goto fail;
        }
      if ((field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && *(guint32 *) (base + field->quantifier_offset) != 0)
        {
          set_error (error, path, "another member of the same oneof is given too");
          goto fail;
        }
      seen[field - desc->fields] = TRUE;
      if (field->label == PROTOBUF_C_LABEL_REPEATED)
        {
          JsonArray *array;
          guint n;
          gsize size = element_size (field->type);
          char *items;

          if (!JSON_NODE_HOLDS_ARRAY (value))
            {
              set_error (error, path, "expected an array");
              goto fail;
            }
          array = json_node_get_array (value);
          n = json_array_get_length (array);
          items = calloc (n > 0 ? n : 1, size);
          *(char **) (base + field->offset) = items;
          *(size_t *) (base + field->quantifier_offset) = 0;
          for (guint j = 0; j < n; j++)
            {
              gsize item_len = path->len;

              g_string_append_printf (path, "[%u]", j);
              if (!read_value (field, json_array_get_element (array, j), items + j * size, path, error))
                goto fail;
              /* counted as they are filled, so that a failure frees only what exists */
              *(size_t *) (base + field->quantifier_offset) = j + 1;
              g_string_truncate (path, item_len);
            }
        }
      else
        {
          if (!read_value (field, value, base + field->offset, path, error))
            goto fail;
          if (field->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
            *(guint32 *) (base + field->quantifier_offset) = field->id;
          else if (field->label == PROTOBUF_C_LABEL_OPTIONAL && field->quantifier_offset != 0 &&
                   field->type != PROTOBUF_C_TYPE_MESSAGE && field->type != PROTOBUF_C_TYPE_STRING)
            *(protobuf_c_boolean *) (base + field->quantifier_offset) = TRUE;
        }
      g_string_truncate (path, path_len);
    }

  return message;

fail:
  protobuf_c_message_free_unpacked (message, NULL);
  return NULL;
}

ProtobufCMessage *
fc_pb_json_read (const ProtobufCMessageDescriptor *descriptor,
                 JsonNode                         *node,
                 GError                          **error)
{
  g_autoptr(GString) path = g_string_new (NULL);

  g_return_val_if_fail (descriptor != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  return read_message (descriptor, node, path, error);
}
