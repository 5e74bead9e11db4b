/* fc-strip-home.c - an envelope with the user's home directory written as "~"
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <json-glib/json-glib.h>

#include "fc-envelope.h"
#include "fc-json-util.h"
#include "fc-strip-home.h"

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
  g_autoptr(FcEnvelopeInput) input = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;

  g_return_val_if_fail (envelope != NULL, NULL);
  g_return_val_if_fail (home != NULL && home[0] == '/', NULL);

  dir = g_strdup (home);
  while (strlen (dir) > 1 && g_str_has_suffix (dir, "/"))
    dir[strlen (dir) - 1] = '\0';
  /* "/" as home would turn every path into "~/...": say nothing rather than something wrong. */
  if (g_str_equal (dir, "/"))
    return g_bytes_ref (envelope);

  input = fc_envelope_input_new_for_bytes (envelope);
  if (!fc_envelope_input_start (input, error) || (header = fc_envelope_input_read_header (input, error)) == NULL)
    return NULL;
  fc_envelope_append_header (out, header);

  for (;;)
    {
      g_auto(FcEnvelopeItemHeader) item = { 0 };
      g_autoptr(GByteArray) payload = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *stripped = NULL;
      JsonNode *root;
      gsize stripped_len = 0;

      if (!fc_envelope_input_next_payload (input, &item, &payload, &local_error))
        break;

      if (!fc_envelope_item_is_json (item.type) || !fc_json_depth_ok ((const char *) payload->data, payload->len) ||
          !json_parser_load_from_data (parser, (const char *) payload->data, payload->len, NULL) ||
          (root = json_parser_get_root (parser)) == NULL)
        {
          fc_envelope_append_item (out, item.header, payload->data, payload->len);
          continue;
        }

      strip_node (root, dir, strlen (dir));
      stripped = node_to_compact (root, &stripped_len);
      fc_envelope_append_item (out, item.header, (const guint8 *) stripped, stripped_len);
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
