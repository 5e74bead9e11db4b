/* fc-pb-limits.c - what decoding a protobuf message (binary or OTLP/JSON) may cost, checked before it is paid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * protobuf-c unpacks a whole message at once, with a malloc() for every
 * message, array and string, 32 bytes of scratch for every field of a
 * message with more than 16, and a recursion for every nested message: 20 MB
 * of empty pprof samples took 1.2 GB, and a nesting of OTLP AnyValues would
 * overflow the stack. So the wire data is walked first, allocating nothing.
 */

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-pb-limits-private.h"

/* protobuf-c's ScannedMember, and how many of them it keeps on the stack */
#define SCRATCH_PER_FIELD 32
#define SCRATCH_ON_STACK  16

gsize
fc_pb_element_size (ProtobufCType type)
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

void
fc_pb_limits_init (FcPbLimits    *limits,
                   const FcPbCap *caps,
                   guint          n_caps)
{
  g_return_if_fail (n_caps <= FC_PB_MAX_CAPS);

  memset (limits, 0, sizeof *limits);
  limits->caps = caps;
  limits->n_caps = n_caps;
  for (guint i = 0; i < n_caps; i++)
    {
      limits->fields[i] = protobuf_c_message_descriptor_get_field_by_name (caps[i].message, caps[i].field);
      g_assert (limits->fields[i] != NULL);
    }
}

const FcPbCap *
fc_pb_limits_count (FcPbLimits                     *limits,
                    const ProtobufCFieldDescriptor *field,
                    guint64                         n)
{
  for (guint i = 0; i < limits->n_caps; i++)
    if (limits->fields[i] == field)
      {
        limits->counts[i] += n;
        return limits->counts[i] > limits->caps[i].max ? &limits->caps[i] : NULL;
      }
  return NULL;
}

gboolean
fc_pb_limits_add_bytes (FcPbLimits *limits,
                        guint64     n)
{
  limits->bytes += n;
  return limits->bytes <= FC_READ_MAX_DECODED_BYTES;
}

/* ---- the walk ---- */

typedef enum {
  WALK_OK,
  WALK_NOT_PROTOBUF,   /* protobuf-c refuses it too: not ours to report */
  WALK_LIMIT,          /* error set */
} Walk;

typedef struct {
  FcPbLimits   *limits;
  const char   *what;
  const guint8 *start;
  GError      **error;
} Scan;

static gboolean
read_varint (const guint8 **p,
             const guint8  *end,
             guint64       *out)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 70 && *p < end; shift += 7)
    {
      guint8 b = *(*p)++;

      v |= (guint64) (b & 0x7f) << MIN (shift, 63u);
      if (!(b & 0x80))
        {
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

/* one field at @p: its tag, wire type and, for wire type 2, payload; FALSE when malformed */
static gboolean
read_field (const guint8  **p,
            const guint8   *end,
            guint32        *tag,
            guint          *wire,
            const guint8  **payload,
            guint64        *len)
{
  guint64 key, v;

  *payload = NULL;
  *len = 0;
  if (!read_varint (p, end, &key) || (key >> 3) == 0 || (key >> 3) > G_MAXUINT32)
    return FALSE;
  *tag = (guint32) (key >> 3);
  *wire = key & 7;
  switch (*wire)
    {
    case 0:
      return read_varint (p, end, &v);
    case 1:
      if (end - *p < 8)
        return FALSE;
      *p += 8;
      return TRUE;
    case 5:
      if (end - *p < 4)
        return FALSE;
      *p += 4;
      return TRUE;
    case 2:
      if (!read_varint (p, end, len) || *len > (guint64) (end - *p))
        return FALSE;
      *payload = *p;
      *p += *len;
      return TRUE;
    default:
      /* groups, and what is no wire type */
      return FALSE;
    }
}

gboolean
fc_pb_walk_top (const guint8  *data,
                gsize          len,
                FcPbFieldFunc  func,
                gpointer       user_data)
{
  const guint8 *p = data, *end = data + len;

  while (p < end)
    {
      const guint8 *payload;
      guint64 n;
      guint32 tag;
      guint wire;

      if (!read_field (&p, end, &tag, &wire, &payload, &n) || !func (tag, wire, payload, n, user_data))
        return FALSE;
    }
  return TRUE;
}

static Walk
limit_error (Scan                             *s,
             const ProtobufCMessageDescriptor *desc,
             const ProtobufCFieldDescriptor   *field,
             const guint8                     *at,
             const FcPbCap                    *cap)
{
  if (cap != NULL)
    g_set_error (s->error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                 _("%s: %s.%s at byte %zu: more than %" PRIu64 " %s in all, the reader's limit"),
                 s->what, desc->short_name, field->name, (gsize) (at - s->start), cap->max, _(cap->what));
  else
    g_set_error (s->error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                 _("%s: %s.%s at byte %zu: decoding would take more than %" PRIu64
                 " MiB, the reader's limit"), s->what, desc->short_name, field ? field->name : "?",
                 (gsize) (at - s->start), FC_READ_MAX_DECODED_BYTES >> 20);
  return WALK_LIMIT;
}

/* elements of a packed run of @len bytes of @type */
static guint64
packed_count (ProtobufCType  type,
              const guint8  *p,
              gsize          len)
{
  guint64 n = 0;

  switch (type)
    {
    case PROTOBUF_C_TYPE_FIXED32: case PROTOBUF_C_TYPE_SFIXED32: case PROTOBUF_C_TYPE_FLOAT:
      return len / 4;
    case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_SFIXED64: case PROTOBUF_C_TYPE_DOUBLE:
      return len / 8;
    default:
      for (gsize i = 0; i < len; i++)
        if (!(p[i] & 0x80))
          n++;
      return n;
    }
}

static Walk
walk_message (Scan                             *s,
              const ProtobufCMessageDescriptor *desc,
              const guint8                     *p,
              const guint8                     *end,
              guint                             depth)
{
  FcPbLimits *limits = s->limits;
  guint64 n_fields = 0;

  if (depth > FC_READ_MAX_DEPTH)
    {
      g_set_error (s->error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                   _("%s: %s at byte %zu: messages nested deeper than %d levels"),
                   s->what, desc->short_name, (gsize) (p - s->start), FC_READ_MAX_DEPTH);
      return WALK_LIMIT;
    }
  while (p < end)
    {
      const guint8 *at = p;
      const ProtobufCFieldDescriptor *field;
      const guint8 *payload;
      guint64 len;
      guint32 tag;
      guint wire;
      gsize cost = 0;
      const FcPbCap *cap;

      if (!read_field (&p, end, &tag, &wire, &payload, &len))
        return WALK_NOT_PROTOBUF;

      if (++n_fields > SCRATCH_ON_STACK)
        cost += SCRATCH_PER_FIELD;

      field = protobuf_c_message_descriptor_get_field (desc, tag);
      if (field == NULL)
        /* kept by protobuf-c as an unknown field: a record and a copy */
        cost += sizeof (ProtobufCMessageUnknownField) + (wire == 2 ? len : (gsize) (p - at));
      else
        {
          gboolean repeated = field->label == PROTOBUF_C_LABEL_REPEATED;
          guint64 n = 1;

          if (repeated && wire == 2 && field->type != PROTOBUF_C_TYPE_STRING &&
              field->type != PROTOBUF_C_TYPE_BYTES && field->type != PROTOBUF_C_TYPE_MESSAGE)
            n = packed_count (field->type, payload, len);
          if (repeated)
            cost += n * fc_pb_element_size (field->type);
          if (field->type == PROTOBUF_C_TYPE_STRING || field->type == PROTOBUF_C_TYPE_BYTES)
            cost += len + 1;
          if (field->type == PROTOBUF_C_TYPE_MESSAGE)
            cost += ((const ProtobufCMessageDescriptor *) field->descriptor)->sizeof_message;

          if ((cap = fc_pb_limits_count (limits, field, n)) != NULL)
            return limit_error (s, desc, field, at, cap);
          if (field->type == PROTOBUF_C_TYPE_MESSAGE && wire == 2)
            {
              Walk w;

              if (!fc_pb_limits_add_bytes (limits, cost))
                return limit_error (s, desc, field, at, NULL);
              cost = 0;
              w = walk_message (s, field->descriptor, payload, payload + len, depth + 1);
              if (w != WALK_OK)
                return w;
            }
        }

      if (!fc_pb_limits_add_bytes (limits, cost))
        return limit_error (s, desc, field, at, NULL);
    }

  return WALK_OK;
}

gboolean
fc_pb_scan (const ProtobufCMessageDescriptor *descriptor,
            const guint8                     *data,
            gsize                             len,
            FcPbLimits                       *limits,
            const char                       *what,
            GError                          **error)
{
  Scan s = { limits, what, data, error };

  g_return_val_if_fail (descriptor != NULL, FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  fc_pb_limits_add_bytes (limits, descriptor->sizeof_message);
  return walk_message (&s, descriptor, data, data + len, 1) != WALK_LIMIT;
}
