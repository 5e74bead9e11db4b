/* fc-json-stream-private.h - JSON documents parsed with yajl into json-glib nodes, within the readers' limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <yajl/yajl_parse.h>

#include "fc-read-limits.h"

G_BEGIN_DECLS

/* Kept for the readers that count their nesting themselves (the payload parser). */
#define FC_JSON_MAX_DEPTH FC_READ_MAX_DEPTH

/* Runs yajl with @callbacks (@ctx their data) over all of @text in one
 * call: yajl reads a token cut by the end of a piece again from its start
 * with each piece, so pieces would make a long token quadratic. TRUE when
 * the text is one whole JSON value; FALSE on a syntax error, with @error
 * "@what: invalid JSON at byte N: ..." (@what may be NULL), or when a callback stopped it,
 * without: that callback has its reason to report. */
gboolean    fc_json_run                 (const yajl_callbacks *callbacks,
                                         gpointer      ctx,
                                         const char   *text,
                                         gsize         len,
                                         const char   *what,
                                         GError      **error);

/* Adds a JSON number given as its text: an int64 when it is one, else a double. */
void        fc_json_builder_add_number  (JsonBuilder  *builder,
                                         const char   *text,
                                         gsize         len);

/*
 * Parses @data (an envelope header, a transaction event, a server's
 * answer) into an object. No recursion (json-glib's parser recurses once
 * per level: 100 KB of "[" overflowed the stack), nesting at most
 * FC_READ_MAX_DEPTH, at most FC_READ_MAX_JSON_VALUES values counted in
 * @budget (NULL: this document alone), strings checked as UTF-8, linear in
 * the length of every token. A key given twice keeps its last value and its
 * path ("a.b[2].c") is added to @duplicates (char*, may be NULL), as Relay
 * refuses such payloads. @data may be NULL when @len is 0.
 */
JsonObject *fc_json_stream_parse_object (const char   *data,
                                         gsize         len,
                                         FcReadBudget *budget,
                                         GPtrArray    *duplicates,
                                         GError      **error);

G_END_DECLS
