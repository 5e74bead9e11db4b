/* fc-envelope-summary.c - what an envelope carries, for the send preview; home paths stripped
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <json-glib/json-glib.h>

#include "fc-envelope-summary.h"
#include "fc-error.h"

/* -- framing: the envelope header line, then (item header, payload) pairs -- */

typedef struct {
  const char *header;
  gsize       header_len;
  const char *payload;
  gsize       payload_len;
  gboolean    had_length;
} Item;

typedef struct {
  const char *data;
  gsize       len;
  gsize       pos;
  guint       n;
} Framing;

static gboolean
framing_init (Framing     *f,
              GBytes      *envelope,
              const char **header,
              gsize       *header_len)
{
  const char *nl;

  f->data = g_bytes_get_data (envelope, &f->len);
  f->n = 0;
  nl = f->len ? memchr (f->data, '\n', f->len) : NULL;
  *header = f->data;
  *header_len = nl ? (gsize)(nl - f->data) : f->len;
  f->pos = nl ? *header_len + 1 : f->len;
  return TRUE;
}

/* FALSE at the end (error unset) or on broken framing (error set). */
static gboolean
framing_next (Framing     *f,
              Item        *item,
              JsonObject **header_object,
              GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  const char *nl;
  gsize line_end;
  JsonNode *root;

  if (f->pos >= f->len || (f->pos + 1 == f->len && f->data[f->pos] == '\n'))
    return FALSE;

  f->n++;
  nl = memchr (f->data + f->pos, '\n', f->len - f->pos);
  line_end = nl ? (gsize)(nl - f->data) : f->len;
  item->header = f->data + f->pos;
  item->header_len = line_end - f->pos;

  if (!json_parser_load_from_data (parser, item->header, item->header_len, &local_error) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                   "the header of item %u (byte %" G_GSIZE_FORMAT ") is not a JSON object%s%s",
                   f->n, f->pos, local_error ? ": " : "", local_error ? local_error->message : "");
      return FALSE;
    }
  *header_object = json_object_ref (json_node_get_object (root));

  f->pos = line_end < f->len ? line_end + 1 : f->len;
  item->payload = f->data + f->pos;
  item->had_length = json_object_has_member (*header_object, "length");
  if (item->had_length)
    {
      gint64 length = json_object_get_int_member_with_default (*header_object, "length", -1);

      if (length < 0 || (guint64) length > f->len - f->pos)
        {
          g_set_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE,
                       "item %u: length %" G_GINT64_FORMAT " but %" G_GSIZE_FORMAT " bytes are left",
                       f->n, length, f->len - f->pos);
          g_clear_pointer (header_object, json_object_unref);
          return FALSE;
        }
      item->payload_len = length;
      f->pos += length;
      if (f->pos < f->len && f->data[f->pos] == '\n')
        f->pos++;
    }
  else
    {
      nl = f->pos < f->len ? memchr (f->data + f->pos, '\n', f->len - f->pos) : NULL;
      item->payload_len = nl ? (gsize)(nl - item->payload) : f->len - f->pos;
      f->pos = nl ? (gsize)(nl - f->data) + 1 : f->len;
    }
  return TRUE;
}

static gboolean
is_json_item (const char *type)
{
  return g_strcmp0 (type, "profile") == 0 || g_strcmp0 (type, "profile_chunk") == 0 ||
         g_strcmp0 (type, "transaction") == 0 || g_strcmp0 (type, "event") == 0;
}

static gsize
limit_for (const char *type)
{
  if (g_strcmp0 (type, "profile") == 0 || g_strcmp0 (type, "profile_chunk") == 0)
    return FC_RELAY_MAX_PROFILE_SIZE;
  if (g_strcmp0 (type, "transaction") == 0 || g_strcmp0 (type, "event") == 0)
    return FC_RELAY_MAX_EVENT_SIZE;
  return 0;
}

/* -- summary -- */

static void
item_summary_free (FcItemSummary *item)
{
  g_free (item->type);
  g_free (item);
}

void
fc_envelope_summary_free (FcEnvelopeSummary *summary)
{
  if (summary == NULL)
    return;
  g_clear_pointer (&summary->envelope, g_bytes_unref);
  g_clear_pointer (&summary->items, g_ptr_array_unref);
  g_free (summary->release);
  g_free (summary->environment);
  g_free (summary->platform);
  g_clear_pointer (&summary->thread_names, g_ptr_array_unref);
  g_clear_pointer (&summary->paths, g_ptr_array_unref);
  g_free (summary);
}

static void
take_string (char       **field,
             JsonObject  *object,
             const char  *member)
{
  const char *value = json_object_get_string_member_with_default (object, member, NULL);

  if (*field == NULL && value != NULL && *value != '\0')
    *field = g_strdup (value);
}

static void
add_path (GHashTable *paths,
          JsonObject *object,
          const char *member)
{
  const char *value = json_object_get_string_member_with_default (object, member, NULL);

  /* Only what names a place on this machine: "/x", "~/x", "C:\x" are paths; "libc.so.6" is not. */
  if (value != NULL && (value[0] == '/' || value[0] == '~' || (value[0] && value[1] == ':')))
    g_hash_table_add (paths, g_strdup (value));
}

static void
summarize_profile (FcEnvelopeSummary *summary,
                   JsonObject        *payload,
                   GHashTable        *threads,
                   GHashTable        *paths)
{
  JsonObject *profile = json_object_get_object_member (payload, "profile");
  JsonObject *debug_meta = json_object_get_object_member (payload, "debug_meta");
  JsonObject *metadata;
  JsonArray *frames;

  take_string (&summary->release, payload, "release");
  take_string (&summary->environment, payload, "environment");
  take_string (&summary->platform, payload, "platform");

  if (profile == NULL)
    return;

  metadata = json_object_get_object_member (profile, "thread_metadata");
  if (metadata != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (metadata);

      for (GList *l = members; l != NULL; l = l->next)
        {
          JsonObject *thread = json_object_get_object_member (metadata, l->data);
          const char *name = thread ? json_object_get_string_member_with_default (thread, "name", NULL) : NULL;

          if (name != NULL && *name != '\0')
            g_hash_table_add (threads, g_strdup (name));
        }
    }

  frames = json_object_get_array_member (profile, "frames");
  for (guint i = 0; frames != NULL && i < json_array_get_length (frames); i++)
    {
      JsonObject *frame = json_array_get_object_element (frames, i);

      if (frame == NULL)
        continue;
      add_path (paths, frame, "filename");
      add_path (paths, frame, "abs_path");
      add_path (paths, frame, "module");
      add_path (paths, frame, "package");
    }

  if (debug_meta != NULL)
    {
      JsonArray *images = json_object_get_array_member (debug_meta, "images");

      for (guint i = 0; images != NULL && i < json_array_get_length (images); i++)
        {
          JsonObject *image = json_array_get_object_element (images, i);

          if (image != NULL)
            add_path (paths, image, "code_file");
        }
    }
}

static void
summarize_transaction (FcEnvelopeSummary *summary,
                       JsonObject        *payload,
                       GHashTable        *threads)
{
  JsonObject *contexts = json_object_get_object_member (payload, "contexts");
  JsonObject *trace = contexts ? json_object_get_object_member (contexts, "trace") : NULL;
  JsonObject *data = trace ? json_object_get_object_member (trace, "data") : NULL;
  const char *thread_name = data ? json_object_get_string_member_with_default (data, "thread.name", NULL) : NULL;

  take_string (&summary->release, payload, "release");
  take_string (&summary->environment, payload, "environment");
  if (thread_name != NULL && *thread_name != '\0')
    g_hash_table_add (threads, g_strdup (thread_name));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
sorted_keys (GHashTable *set)
{
  GPtrArray *array = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (array, g_strdup (key));
  g_ptr_array_sort (array, compare_strings);
  return array;
}

/**
 * fc_envelope_summarize:
 * @envelope: an envelope as it would be sent
 * @error: FC_FORMAT_ERROR_ENVELOPE when its framing is broken
 *
 * Returns: (transfer full): its items with their sizes, and the release,
 * environment, thread names and paths its profiles and transactions carry
 */
FcEnvelopeSummary *
fc_envelope_summarize (GBytes  *envelope,
                       GError **error)
{
  g_autoptr(FcEnvelopeSummary) summary = g_new0 (FcEnvelopeSummary, 1);
  g_autoptr(GHashTable) threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GError) local_error = NULL;
  const char *header;
  gsize header_len;
  Framing f;
  Item item;
  JsonObject *item_header = NULL;

  g_return_val_if_fail (envelope != NULL, NULL);

  summary->envelope = g_bytes_ref (envelope);
  summary->size = g_bytes_get_size (envelope);
  summary->items = g_ptr_array_new_with_free_func ((GDestroyNotify) item_summary_free);

  framing_init (&f, envelope, &header, &header_len);
  while (framing_next (&f, &item, &item_header, &local_error))
    {
      g_autoptr(JsonObject) owned_header = item_header;
      FcItemSummary *summary_item = g_new0 (FcItemSummary, 1);
      const char *type = json_object_get_string_member_with_default (owned_header, "type", "");

      summary_item->type = g_strdup (type);
      summary_item->size = item.payload_len;
      summary_item->limit = limit_for (type);
      g_ptr_array_add (summary->items, summary_item);

      if (is_json_item (type))
        {
          g_autoptr(JsonParser) parser = json_parser_new ();
          JsonNode *root;

          /* A payload that is not JSON is the validator's business, not the preview's. */
          if (!json_parser_load_from_data (parser, item.payload, item.payload_len, NULL) ||
              (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
            continue;
          if (g_str_equal (type, "transaction") || g_str_equal (type, "event"))
            summarize_transaction (summary, json_node_get_object (root), threads);
          else
            summarize_profile (summary, json_node_get_object (root), threads, paths);
        }
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  summary->thread_names = sorted_keys (threads);
  summary->paths = sorted_keys (paths);
  return g_steal_pointer (&summary);
}

gboolean
fc_envelope_summary_fits (const FcEnvelopeSummary *summary)
{
  g_return_val_if_fail (summary != NULL, FALSE);

  if (summary->size > FC_RELAY_MAX_ENVELOPE_SIZE)
    return FALSE;
  for (guint i = 0; i < summary->items->len; i++)
    {
      const FcItemSummary *item = g_ptr_array_index (summary->items, i);

      if (item->limit != 0 && item->size > item->limit)
        return FALSE;
    }
  return TRUE;
}

/* -- stripping the home directory -- */

static void strip_node (JsonNode *node, const char *home, gsize home_len);

static void
strip_object_member (JsonObject  *object,
                     const char  *member_name,
                     JsonNode    *member,
                     gpointer     user_data)
{
  const char *home = user_data;

  strip_node (member, home, strlen (home));
}

static void
strip_node (JsonNode   *node,
            const char *home,
            gsize       home_len)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      json_object_foreach_member (json_node_get_object (node), strip_object_member, (gpointer) home);
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        for (guint i = 0; i < json_array_get_length (array); i++)
          strip_node (json_array_get_element (array, i), home, home_len);
      }
      break;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          const char *text = json_node_get_string (node);

          /* "/home/me" and "/home/me/x", never "/home/meg/x" */
          if (g_str_has_prefix (text, home) && (text[home_len] == '/' || text[home_len] == '\0'))
            {
              g_autofree char *stripped = g_strconcat ("~", text + home_len, NULL);

              json_node_set_string (node, stripped);
            }
        }
      break;

    case JSON_NODE_NULL:
    default:
      break;
    }
}

static char *
node_to_compact (JsonNode *node,
                 gsize    *len)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, len);
}

GBytes *
fc_envelope_strip_home (GBytes      *envelope,
                        const char  *home,
                        GError     **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  const char *header;
  gsize header_len;
  Framing f;
  Item item;
  JsonObject *item_header = NULL;

  g_return_val_if_fail (envelope != NULL, NULL);
  g_return_val_if_fail (home != NULL && home[0] == '/', NULL);

  dir = g_strdup (home);
  while (strlen (dir) > 1 && g_str_has_suffix (dir, "/"))
    dir[strlen (dir) - 1] = '\0';
  /* "/" as home would turn every path into "~/...": say nothing rather than something wrong. */
  if (g_str_equal (dir, "/"))
    return g_bytes_ref (envelope);

  framing_init (&f, envelope, &header, &header_len);
  g_byte_array_append (out, (const guint8 *) header, header_len);
  g_byte_array_append (out, (const guint8 *) "\n", 1);

  while (framing_next (&f, &item, &item_header, &local_error))
    {
      g_autoptr(JsonObject) owned_header = item_header;
      const char *type = json_object_get_string_member_with_default (owned_header, "type", "");
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *payload = NULL;
      g_autofree char *header_text = NULL;
      g_autoptr(JsonNode) header_node = NULL;
      JsonNode *root;
      gsize payload_len = 0;

      if (!is_json_item (type) ||
          !json_parser_load_from_data (parser, item.payload, item.payload_len, NULL) ||
          (root = json_parser_get_root (parser)) == NULL)
        {
          g_byte_array_append (out, (const guint8 *) item.header, item.header_len);
          g_byte_array_append (out, (const guint8 *) "\n", 1);
          g_byte_array_append (out, (const guint8 *) item.payload, item.payload_len);
          g_byte_array_append (out, (const guint8 *) "\n", 1);
          continue;
        }

      strip_node (root, dir, strlen (dir));
      payload = node_to_compact (root, &payload_len);
      json_object_set_int_member (owned_header, "length", payload_len);
      header_node = json_node_init_object (json_node_alloc (), owned_header);
      header_text = node_to_compact (header_node, NULL);

      g_byte_array_append (out, (const guint8 *) header_text, strlen (header_text));
      g_byte_array_append (out, (const guint8 *) "\n", 1);
      g_byte_array_append (out, (const guint8 *) payload, payload_len);
      g_byte_array_append (out, (const guint8 *) "\n", 1);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
