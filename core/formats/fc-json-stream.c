/* fc-json-stream.c - JSON documents parsed with yajl into json-glib nodes, within the readers' limits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <errno.h>
#include <string.h>

#include <yajl/yajl_parse.h>
#include <glib/gi18n-lib.h>

#include "fc-format-error.h"
#include "fc-json-stream-private.h"

/* paths of duplicate keys kept for messages; more are only counted */
#define MAX_DUPLICATES 20

typedef struct {
  gboolean    is_array;
  guint       index;     /* arrays: of the next element */
  char       *key;       /* objects: the key whose value comes next */
  GHashTable *keys;      /* objects: every key so far, made at the second */
} Level;

typedef struct {
  JsonBuilder  *builder;
  FcReadBudget *budget;
  GPtrArray    *duplicates;
  Level         levels[FC_READ_MAX_DEPTH + 1];
  guint         depth;
  /* why a callback stopped yajl, when it did */
  enum { STOP_NONE, STOP_DEPTH, STOP_VALUES, STOP_ROOT } stop;
} Ctx;

gboolean
fc_json_run (const yajl_callbacks  *callbacks,
             gpointer               ctx,
             const char            *text,
             gsize                  len,
             const char            *what,
             GError               **error)
{
  yajl_handle yajl = yajl_alloc (callbacks, NULL, ctx);
  yajl_status st = yajl_parse (yajl, (const guint8 *) text, len);

  if (st == yajl_status_ok)
    st = yajl_complete_parse (yajl);
  if (st == yajl_status_error)
    {
      unsigned char *msg = yajl_get_error (yajl, 0, (const guint8 *) text, len);
      g_autofree char *detail = g_strstrip (g_strdup ((const char *) msg));

      yajl_free_error (yajl, msg);
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("%s%sinvalid JSON at byte %zu: %s"),
                   what ? what : "", what ? ": " : "", (gsize) yajl_get_bytes_consumed (yajl), detail);
    }
  yajl_free (yajl);
  return st == yajl_status_ok;
}

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

static void
level_clear (Level *l)
{
  g_clear_pointer (&l->key, g_free);
  g_clear_pointer (&l->keys, g_hash_table_unref);
}

/* every value (containers too) costs a node: counted against the budget */
static gboolean
count_value (Ctx *ctx)
{
  if (++ctx->budget->json_values > FC_READ_MAX_JSON_VALUES)
    {
      ctx->stop = STOP_VALUES;
      return FALSE;
    }
  return TRUE;
}

/* after a value: the next element of an array */
static void
after_value (Ctx *ctx)
{
  Level *l = &ctx->levels[ctx->depth];

  if (ctx->depth > 0 && l->is_array)
    l->index++;
}

static int
cb_null (void *data)
{
  Ctx *ctx = data;

  if (!count_value (ctx))
    return 0;
  json_builder_add_null_value (ctx->builder);
  after_value (ctx);
  return 1;
}

static int
cb_boolean (void *data,
            int   value)
{
  Ctx *ctx = data;

  if (!count_value (ctx))
    return 0;
  json_builder_add_boolean_value (ctx->builder, value != 0);
  after_value (ctx);
  return 1;
}

static int
cb_number (void       *data,
           const char *text,
           size_t      len)
{
  Ctx *ctx = data;

  if (!count_value (ctx))
    return 0;
  fc_json_builder_add_number (ctx->builder, text, len);
  after_value (ctx);
  return 1;
}

static int
cb_string (void                *data,
           const unsigned char *text,
           size_t               len)
{
  Ctx *ctx = data;
  g_autofree char *str = NULL;

  if (!count_value (ctx))
    return 0;
  str = g_strndup ((const char *)text, len);
  json_builder_add_string_value (ctx->builder, str);
  after_value (ctx);
  return 1;
}

static void
append_path (Ctx     *ctx,
             GString *path)
{
  for (guint i = 1; i <= ctx->depth; i++)
    {
      const Level *l = &ctx->levels[i];

      if (l->is_array)
        g_string_append_printf (path, "[%u]", l->index);
      else if (l->key != NULL)
        g_string_append_printf (path, "%s%s", path->len > 0 ? "." : "", l->key);
    }
}

static int
cb_map_key (void                *data,
            const unsigned char *text,
            size_t               len)
{
  Ctx *ctx = data;
  Level *l = &ctx->levels[ctx->depth];
  char *key = g_strndup ((const char *)text, len);

  /* a set of keys only for objects of more than one */
  if (l->key != NULL && l->keys == NULL)
    {
      l->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_add (l->keys, g_steal_pointer (&l->key));
    }
  g_free (l->key);
  l->key = key;

  if (l->keys != NULL && !g_hash_table_add (l->keys, g_strdup (key)) && ctx->duplicates != NULL)
    {
      if (ctx->duplicates->len < MAX_DUPLICATES)
        {
          GString *path = g_string_new (NULL);

          append_path (ctx, path);
          g_ptr_array_add (ctx->duplicates, g_string_free (path, FALSE));
        }
    }

  json_builder_set_member_name (ctx->builder, key);
  return 1;
}

static int
enter (Ctx      *ctx,
       gboolean  is_array)
{
  Level *l;

  if (ctx->depth >= FC_READ_MAX_DEPTH)
    {
      ctx->stop = STOP_DEPTH;
      return 0;
    }
  if (!count_value (ctx))
    return 0;
  l = &ctx->levels[++ctx->depth];
  l->is_array = is_array;
  l->index = 0;
  l->key = NULL;
  l->keys = NULL;
  return 1;
}

static int
leave (Ctx *ctx)
{
  level_clear (&ctx->levels[ctx->depth]);
  ctx->depth--;
  after_value (ctx);
  return 1;
}

static int
cb_start_map (void *data)
{
  Ctx *ctx = data;

  if (!enter (ctx, FALSE))
    return 0;
  json_builder_begin_object (ctx->builder);
  return 1;
}

static int
cb_end_map (void *data)
{
  Ctx *ctx = data;

  json_builder_end_object (ctx->builder);
  return leave (ctx);
}

static int
cb_start_array (void *data)
{
  Ctx *ctx = data;

  /* json-glib's builder wants a container at the root: the caller checks it is an object */
  if (ctx->depth == 0)
    {
      ctx->stop = STOP_ROOT;
      return 0;
    }
  if (!enter (ctx, TRUE))
    return 0;
  json_builder_begin_array (ctx->builder);
  return 1;
}

static int
cb_end_array (void *data)
{
  Ctx *ctx = data;

  json_builder_end_array (ctx->builder);
  return leave (ctx);
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
fc_json_stream_parse_object (const char    *data,
                             gsize          len,
                             FcReadBudget  *budget,
                             GPtrArray     *duplicates,
                             GError       **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) syntax = NULL;
  FcReadBudget local_budget = { 0 };
  Ctx ctx = { 0 };

  if (data == NULL || !starts_with_object (data, len))
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, _("expected a JSON object"));
      return NULL;
    }

  ctx.builder = builder;
  ctx.budget = budget != NULL ? budget : &local_budget;
  ctx.duplicates = duplicates;

  if (!fc_json_run (&callbacks, &ctx, data, len, NULL, &syntax))
    {
      for (guint i = 1; i <= ctx.depth; i++)
        level_clear (&ctx.levels[i]);
      switch (ctx.stop)
        {
        case STOP_DEPTH:
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX, _("nested deeper than %d levels"),
                       FC_READ_MAX_DEPTH);
          break;
        case STOP_VALUES:
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE,
                       _("more than %" PRIu64 " JSON values, the reader's limit"), FC_READ_MAX_JSON_VALUES);
          break;
        case STOP_ROOT:
          g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE, _("expected a JSON object"));
          break;
        case STOP_NONE:
        default:
          g_propagate_error (error, g_steal_pointer (&syntax));
          break;
        }
      return NULL;
    }

  root = json_builder_get_root (builder);
  g_assert (root != NULL && JSON_NODE_HOLDS_OBJECT (root));
  return json_object_ref (json_node_get_object (root));
}
