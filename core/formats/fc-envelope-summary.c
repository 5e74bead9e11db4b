/* fc-envelope-summary.c - what an envelope carries, for the send preview and `send`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <json-glib/json-glib.h>

#include "fc-envelope.h"
#include "fc-envelope-summary.h"
#include "fc-format-error.h"
#include "fc-json-util.h"
#include "fc-validate.h"

static gsize
limit_for (const char *type)
{
  if (g_strcmp0 (type, "profile") == 0 || g_strcmp0 (type, "profile_chunk") == 0)
    return FC_VALIDATE_MAX_PAYLOAD_SIZE;
  if (g_strcmp0 (type, "transaction") == 0 || g_strcmp0 (type, "event") == 0)
    return FC_VALIDATE_MAX_EVENT_SIZE;
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

/* Members that may be missing or of another type: NULL then, never a critical. */
static JsonObject *
object_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
array_member (JsonObject *object,
              const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static JsonObject *
object_element (JsonArray *array,
                guint      index)
{
  JsonNode *node = json_array_get_element (array, index);

  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

static void
take_string (char       **field,
             JsonObject  *object,
             const char  *member)
{
  const char *value = string_member (object, member);

  if (*field == NULL && value != NULL && *value != '\0')
    *field = g_strdup (value);
}

static void
add_path (GHashTable *paths,
          JsonObject *object,
          const char *member)
{
  const char *value = string_member (object, member);

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
  JsonObject *profile = object_member (payload, "profile");
  JsonObject *debug_meta = object_member (payload, "debug_meta");
  JsonObject *metadata;
  JsonArray *frames;

  take_string (&summary->release, payload, "release");
  take_string (&summary->environment, payload, "environment");
  take_string (&summary->platform, payload, "platform");

  if (profile == NULL)
    return;

  metadata = object_member (profile, "thread_metadata");
  if (metadata != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (metadata);

      for (GList *l = members; l != NULL; l = l->next)
        {
          JsonObject *thread = object_member (metadata, l->data);
          const char *name = thread ? string_member (thread, "name") : NULL;

          if (name != NULL && *name != '\0')
            g_hash_table_add (threads, g_strdup (name));
        }
    }

  frames = array_member (profile, "frames");
  for (guint i = 0; frames != NULL && i < json_array_get_length (frames); i++)
    {
      JsonObject *frame = object_element (frames, i);

      if (frame == NULL)
        continue;
      add_path (paths, frame, "filename");
      add_path (paths, frame, "abs_path");
      add_path (paths, frame, "module");
      add_path (paths, frame, "package");
    }

  if (debug_meta != NULL)
    {
      JsonArray *images = array_member (debug_meta, "images");

      for (guint i = 0; images != NULL && i < json_array_get_length (images); i++)
        {
          JsonObject *image = object_element (images, i);

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
  JsonObject *contexts = object_member (payload, "contexts");
  JsonObject *trace = contexts ? object_member (contexts, "trace") : NULL;
  JsonObject *data = trace ? object_member (trace, "data") : NULL;
  const char *thread_name = data ? string_member (data, "thread.name") : NULL;

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
  g_autoptr(FcEnvelopeInput) input = fc_envelope_input_new_for_bytes (envelope);
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (envelope != NULL, NULL);

  summary->envelope = g_bytes_ref (envelope);
  summary->size = g_bytes_get_size (envelope);
  summary->items = g_ptr_array_new_with_free_func ((GDestroyNotify) item_summary_free);

  if (!fc_envelope_input_start (input, error) || (header = fc_envelope_input_read_header (input, error)) == NULL)
    return NULL;

  for (;;)
    {
      g_auto(FcEnvelopeItemHeader) item = { 0 };
      g_autoptr(GByteArray) payload = NULL;
      FcItemSummary *summary_item;
      const char *type;

      if (!fc_envelope_input_next_payload (input, &item, &payload, &local_error))
        break;

      type = item.type ? item.type : "";
      summary_item = g_new0 (FcItemSummary, 1);
      summary_item->type = g_strdup (type);
      summary_item->size = payload->len;
      summary_item->limit = limit_for (type);
      g_ptr_array_add (summary->items, summary_item);

      if (fc_envelope_item_is_json (type))
        {
          g_autoptr(JsonParser) parser = json_parser_new ();
          JsonNode *root;

          /* A payload that is not JSON is the validator's business, not the preview's;
           * one nested deeper than the readers take would overflow json-glib's parser. */
          if (!fc_json_depth_ok ((const char *) payload->data, payload->len) ||
              !json_parser_load_from_data (parser, (const char *) payload->data, payload->len, NULL) ||
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

  if (summary->size > FC_VALIDATE_MAX_ENVELOPE_SIZE)
    return FALSE;
  for (guint i = 0; i < summary->items->len; i++)
    {
      const FcItemSummary *item = g_ptr_array_index (summary->items, i);

      if (item->limit != 0 && item->size > item->limit)
        return FALSE;
    }
  return TRUE;
}
