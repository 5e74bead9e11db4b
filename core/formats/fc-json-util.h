/* fc-json-util.h - typed reads of the JSON metadata kept in the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* the member as a string, or NULL when absent or not a string */
const char *fc_json_get_string  (JsonObject  *object,
                                 const char  *key);
/* the member as an object, or NULL */
JsonObject *fc_json_get_object  (JsonObject  *object,
                                 const char  *key);
/* an integer given as a JSON integer, an integral double or a decimal
 * string (SDKs send both); FALSE when absent or not such a value */
gboolean    fc_json_get_int64   (JsonObject  *object,
                                 const char  *key,
                                 gint64      *value);
/* a string, or an integer printed in decimal; NULL otherwise */
char       *fc_json_dup_id      (JsonObject  *object,
                                 const char  *key);
/* TRUE when the JSON text @text (@len bytes, NULL when 0) starts with an
 * object, for the streaming readers; else FALSE and an FC_FORMAT_ERROR that
 * starts with @what and says what is there instead: nothing (empty or
 * blank text), an array, null or another single value. */
gboolean    fc_json_check_object_text (const char  *text,
                                       gsize        len,
                                       const char  *what,
                                       GError     **error);
/* The JSON object @text within the readers' limits (fc-read-limits.h): no
 * recursion, nesting and size capped, tokens read in linear time. NULL with
 * an FC_FORMAT_ERROR that starts with @what. Keys given twice keep their
 * last value. (json-glib's own parser recurses once per level: 100 KB of
 * "[" overflowed the stack.) */
JsonObject *fc_json_parse_object      (const char  *text,
                                       gsize        len,
                                       const char  *what,
                                       GError     **error);
/* TRUE when the JSON text @text nests objects and arrays at most
 * FC_READ_MAX_DEPTH deep: one linear pass, strings and their escapes
 * respected. For the callers that hand text to json-glib's recursive
 * parser, which a deep nesting overflows. */
gboolean    fc_json_depth_ok          (const char  *text,
                                       gsize        len);
/* TRUE when @str is a non-empty run of decimal digits */
gboolean    fc_str_is_decimal   (const char  *str);

G_END_DECLS
