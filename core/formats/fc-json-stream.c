/* fc-json-stream.c - small JSON documents parsed with yajl into json-glib nodes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <string.h>

#include <yajl/yajl_parse.h>

#include "fc-error.h"
#include "fc-json-stream-private.h"

typedef struct {
  JsonBuilder *builder;
  guint        depth;
  gboolean     too_deep;
} Ctx;

void
fc_json_builder_add_number (JsonBuilder *builder,
                            const char  *text,
                            gsize        len)
{
  char buf[64];
  g_autofree char *heap = NULL;
  char *str = buf;
  gboolean is_int = TRUE;

  if (len >= sizeof buf)
    str = heap = g_malloc (len + 1);
  memcpy (str, text, len);
  str[len] = '\0';

  for (gsize i = 0; i < len; i++)
    if (str[i] == '.' || str[i] == 'e' || str[i] == 'E')
      is_int = FALSE;

  if (is_int)
    {
      char *end = NULL;
      gint64 v;

      errno = 0;
      v = g_ascii_strtoll (str, &end, 10);
      if (errno == 0 && end != NULL && *end == '\0')
        {
          json_builder_add_int_value (builder, v);
          return;
        }
    }

  json_builder_add_double_value (builder, g_ascii_strtod (str, NULL));
}

static int
cb_null (void *data)
{
  json_builder_add_null_value (((Ctx *)data)->builder);
  return 1;
}

static int
cb_boolean (void *data,
            int   value)
{
  json_builder_add_boolean_value (((Ctx *)data)->builder, value != 0);
  return 1;
}

static int
cb_number (void       *data,
           const char *text,
           size_t      len)
{
  fc_json_builder_add_number (((Ctx *)data)->builder, text, len);
  return 1;
}

static int
cb_string (void                *data,
           const unsigned char *text,
           size_t               len)
{
  g_autofree char *str = g_strndup ((const char *)text, len);

  json_builder_add_string_value (((Ctx *)data)->builder, str);
  return 1;
}

static int
cb_map_key (void                *data,
            const unsigned char *text,
            size_t               len)
{
  g_autofree char *str = g_strndup ((const char *)text, len);

  json_builder_set_member_name (((Ctx *)data)->builder, str);
  return 1;
}

static int
enter (Ctx *ctx)
{
  if (++ctx->depth > FC_JSON_MAX_DEPTH)
    {
      ctx->too_deep = TRUE;
      return 0;
    }
  return 1;
}

static int
cb_start_map (void *data)
{
  Ctx *ctx = data;

  if (!enter (ctx))
    return 0;
  json_builder_begin_object (ctx->builder);
  return 1;
}

static int
cb_end_map (void *data)
{
  Ctx *ctx = data;

  ctx->depth--;
  json_builder_end_object (ctx->builder);
  return 1;
}

static int
cb_start_array (void *data)
{
  Ctx *ctx = data;

  /* json-glib's builder wants a container at the root: the caller checks it is an object */
  if (ctx->depth == 0)
    return 0;
  if (!enter (ctx))
    return 0;
  json_builder_begin_array (ctx->builder);
  return 1;
}

static int
cb_end_array (void *data)
{
  Ctx *ctx = data;

  ctx->depth--;
  json_builder_end_array (ctx->builder);
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

static gboolean
starts_with_object (const char *data,
                    gsize       len)
{
  for (gsize i = 0; i < len; i++)
    {
      if (data[i] == '{')
        return TRUE;
      if (data[i] != ' ' && data[i] != '\t' && data[i] != '\r' && data[i] != '\n')
        return FALSE;
    }
  return FALSE;
}

JsonObject *
fc_json_stream_parse_object (const char  *data,
                             gsize        len,
                             GError     **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  Ctx ctx = { builder, 0, FALSE };
  yajl_handle yajl;
  yajl_status st;

  if (data == NULL || !starts_with_object (data, len))
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, "expected a JSON object");
      return NULL;
    }

  yajl = yajl_alloc (&callbacks, NULL, &ctx);
  st = yajl_parse (yajl, (const unsigned char *)data, len);
  if (st == yajl_status_ok)
    st = yajl_complete_parse (yajl);

  if (st != yajl_status_ok)
    {
      if (ctx.too_deep)
        g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX,
                     "nested deeper than %d levels", FC_JSON_MAX_DEPTH);
      else
        {
          unsigned char *msg = yajl_get_error (yajl, 0, (const unsigned char *)data, len);
          g_autofree char *text = g_strstrip (g_strdup ((const char *)msg));

          yajl_free_error (yajl, msg);
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, "invalid JSON at byte %" G_GSIZE_FORMAT ": %s",
                       (gsize)yajl_get_bytes_consumed (yajl), text);
        }
      yajl_free (yajl);
      return NULL;
    }

  yajl_free (yajl);
  root = json_builder_get_root (builder);
  g_assert (root != NULL && JSON_NODE_HOLDS_OBJECT (root));
  return json_object_ref (json_node_get_object (root));
}
