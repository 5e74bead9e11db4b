/* fc-pb-limits-private.h - what decoding a protobuf message (binary or OTLP/JSON) may cost, checked before it is paid
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <protobuf-c/protobuf-c.h>

#include "fc-read-limits.h"

G_BEGIN_DECLS

/* A repeated field whose elements, added up over the whole input, may not
 * pass @max: "samples" of pprof's Profile.sample. */
typedef struct {
  const ProtobufCMessageDescriptor *message;
  const char                       *field;
  guint64                           max;
  const char                       *what;
} FcPbCap;

#define FC_PB_MAX_CAPS 12

typedef struct {
  const ProtobufCFieldDescriptor *fields[FC_PB_MAX_CAPS];
  const FcPbCap                  *caps;
  guint                           n_caps;
  guint64                         counts[FC_PB_MAX_CAPS];
  guint64                         bytes;    /* what the decoded messages take, as protobuf-c allocates them */
} FcPbLimits;

void        fc_pb_limits_init        (FcPbLimits                       *limits,
                                      const FcPbCap                    *caps,
                                      guint                             n_caps);
/* Counts @n more elements of @field; the cap passed, or NULL. */
const FcPbCap *fc_pb_limits_count    (FcPbLimits                       *limits,
                                      const ProtobufCFieldDescriptor   *field,
                                      guint64                           n);
/* Adds @n bytes; FALSE once past FC_READ_MAX_DECODED_BYTES. */
gboolean    fc_pb_limits_add_bytes   (FcPbLimits                       *limits,
                                      guint64                           n);

/*
 * Walks @data as protobuf-c would unpack a @descriptor message from it,
 * allocating nothing and recursing at most FC_READ_MAX_DEPTH levels, and
 * adds up what the unpacked message would take (messages, arrays, strings,
 * unknown fields and protobuf-c's scratch of 32 bytes a field) and the
 * elements of the capped fields. FALSE with FC_FORMAT_ERROR_TOO_LARGE
 * (FC_FORMAT_ERROR_SYNTAX for the nesting) that starts with @what and names
 * the field and the byte when a limit is passed; TRUE when the data is not
 * protobuf at all (protobuf-c then refuses it with a small cost).
 */
gboolean    fc_pb_scan               (const ProtobufCMessageDescriptor *descriptor,
                                      const guint8                     *data,
                                      gsize                             len,
                                      FcPbLimits                       *limits,
                                      const char                       *what,
                                      GError                          **error);

/* Calls @func for each field at the top level of @data (no nesting read);
 * FALSE when @data is not protobuf wire data or @func says stop. */
typedef gboolean (*FcPbFieldFunc) (guint32        tag,
                                   guint          wire_type,
                                   const guint8  *payload,   /* wire type 2: the bytes, else NULL */
                                   gsize          len,
                                   gpointer       user_data);
gboolean    fc_pb_walk_top           (const guint8                     *data,
                                      gsize                             len,
                                      FcPbFieldFunc                     func,
                                      gpointer                          user_data);

/* The size of one element of a field of @type in protobuf-c's structures. */
gsize       fc_pb_element_size       (ProtobufCType                     type);

G_END_DECLS
