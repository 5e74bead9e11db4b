/* fc-json-util.c - typed reads of the JSON metadata kept in the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-json-stream-private.h"
#include "fc-json-util.h"

static JsonNode *
get_value (JsonObject *object,
           const char *key)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;
  node = json_object_get_member (object, key);
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  return node;
}

const char *
fc_json_get_string (JsonObject *object,
                    const char *key)
{
  JsonNode *node = get_value (object, key);

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

JsonObject *
fc_json_get_object (JsonObject *object,
                    const char *key)
{
  JsonNode *node;

  if (object == NULL)
    return NULL;
  node = json_object_get_member (object, key);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_node_get_object (node);
}

gboolean
fc_str_is_decimal (const char *str)
{
  if (str == NULL || *str == '\0')
    return FALSE;
  for (; *str != '\0'; str++)
    {
      if (!g_ascii_isdigit (*str))
        return FALSE;
    }
  return TRUE;
}

gboolean
fc_json_get_int64 (JsonObject *object,
                   const char *key,
                   gint64     *value)
{
  JsonNode *node = get_value (object, key);
  GType type;

  if (node == NULL)
    return FALSE;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    {
      *value = json_node_get_int (node);
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (!isfinite (d) || d != floor (d) || fabs (d) > 9e18)
        return FALSE;
      *value = (gint64) d;
      return TRUE;
    }
  if (type == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);
      const char *digits = (s[0] == '-') ? s + 1 : s;
      char *end = NULL;
      gint64 v;

      if (!fc_str_is_decimal (digits))
        return FALSE;
      errno = 0;
      v = g_ascii_strtoll (s, &end, 10);
      if (errno != 0 || *end != '\0')
        return FALSE;
      *value = v;
      return TRUE;
    }
  return FALSE;
}

char *
fc_json_dup_id (JsonObject *object,
                const char *key)
{
  JsonNode *node = get_value (object, key);
  GType type;

  if (node == NULL)
    return NULL;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (type == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  return NULL;
}

gboolean
fc_json_depth_ok (const char *text,
                  gsize       len)
{
  guint depth = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          if (++depth > FC_READ_MAX_DEPTH)
            return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}

gboolean
fc_json_check_object_text (const char  *text,
                           gsize        len,
                           const char  *what,
                           GError     **error)
{
  gsize i = 0;

  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
    i++;
  if (i == len)
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("%s: no JSON value, the text is %s"), what,
                   len == 0 ? "empty" : "blank");
      return FALSE;
    }
  if (text[i] != '{')
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, _("%s: the document is %s, expected a JSON object"),
                   what, text[i] == '[' ? _("an array") : text[i] == 'n' ? "null" : _("a single value"));
      return FALSE;
    }
  return TRUE;
}

JsonObject *
fc_json_parse_object (const char  *text,
                      gsize        len,
                      const char  *what,
                      GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  JsonObject *object;

  if (!fc_json_check_object_text (text, len, what, error))
    return NULL;
  object = fc_json_stream_parse_object (text, len, NULL, NULL, &local_error);
  if (object == NULL)
    g_set_error (error, FC_FORMAT_ERROR, local_error->code, "%s: %s", what, local_error->message);
  return object;
}
