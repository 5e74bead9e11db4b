/* fc-json-stream-private.h - small JSON documents parsed with yajl into json-glib nodes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Objects and arrays nested deeper than this are rejected, by every JSON
 * reader in formats (this one and the payload parser). */
#define FC_JSON_MAX_DEPTH 64

/* Adds a JSON number given as its text: an int64 when it is one, else a double. */
void        fc_json_builder_add_number  (JsonBuilder  *builder,
                                         const char   *text,
                                         gsize         len);

/* Parses @data (an envelope header, a transaction event) into an object.
 * Unlike JsonParser 1.6, leaks nothing on trailing garbage, and checks
 * UTF-8 and the reader's nesting limit. @data may be NULL when @len is 0. */
JsonObject *fc_json_stream_parse_object (const char   *data,
                                         gsize         len,
                                         GError      **error);

G_END_DECLS
