/* fc-pb-json-private.h - any protobuf-c message to and from the proto3 JSON mapping, as OTLP/JSON wants it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <protobuf-c/protobuf-c.h>

#include "fc-pb-limits-private.h"

G_BEGIN_DECLS

/*
 * Driven by the generated descriptors, so one walker serves every message:
 * keys in lowerCamelCase, fields at their default value left out, 64-bit
 * integers as decimal strings, enums as numbers, bytes as base64 except
 * trace_id and span_id, which OTLP writes as hex.
 */

void              fc_pb_json_write (GString                         *out,
                                    const ProtobufCMessage          *message);

/* Reads OTLP/JSON @text into a @descriptor message, streaming (no JSON tree,
 * no recursion), within @limits: nesting, allocations and capped fields
 * (fc-pb-limits-private.h). Accepts lowerCamelCase and the proto field
 * names, numbers or strings for integers, and ignores unknown keys (OTLP
 * receivers must). The message is allocated with the system allocator:
 * free it with protobuf_c_message_free_unpacked (message, NULL). Errors
 * start with @what and name the place: "OTLP/JSON
 * resourceProfiles[0].scopeProfiles[0].profiles[2].samples[7].stackIndex: ..." */
ProtobufCMessage *fc_pb_json_read  (const ProtobufCMessageDescriptor *descriptor,
                                    const char                      *text,
                                    gsize                            len,
                                    FcPbLimits                      *limits,
                                    const char                      *what,
                                    GError                         **error);

G_END_DECLS
