/* fc-chunk-meta.c - a chunk's SDK and loaded images as typed data, written as Sentry's client_sdk and debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <string.h>

#include "fc-chunk-meta.h"
#include "fc-json-util.h"

void
fc_chunk_meta_set_client_sdk (FcProfile         *profile,
                              const FcClientSdk *sdk)
{
  JsonObject *object;

  g_return_if_fail (FC_IS_PROFILE (profile));
  g_return_if_fail (sdk != NULL && sdk->name != NULL && sdk->version != NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "name", sdk->name);
  json_object_set_string_member (object, "version", sdk->version);
  json_object_set_object_member (fc_profile_get_meta (profile), "client_sdk", object);
}

char *
fc_build_id_to_debug_id (const char *build_id_hex)
{
  guint8 b[16] = { 0 };
  gsize len;

  if (build_id_hex == NULL)
    return NULL;
  len = strlen (build_id_hex) / 2;
  for (gsize i = 0; i < len && i < 16; i++)
    {
      int hi = g_ascii_xdigit_value (build_id_hex[2 * i]);
      int lo = g_ascii_xdigit_value (build_id_hex[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return NULL;
      b[i] = (guint8) (hi << 4 | lo);
    }
  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                          b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6],
                          b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

static JsonObject *
image_object (const FcDebugImage *image)
{
  JsonObject *object = json_object_new ();
  char buf[32];

  json_object_set_string_member (object, "type", "symbolic");
  json_object_set_string_member (object, "code_file", image->code_file);
  if (image->code_id != NULL && image->code_id[0] != '\0')
    {
      g_autofree char *debug_id = fc_build_id_to_debug_id (image->code_id);

      json_object_set_string_member (object, "code_id", image->code_id);
      if (debug_id != NULL)
        json_object_set_string_member (object, "debug_id", debug_id);
    }
  g_snprintf (buf, sizeof buf, "0x%" PRIx64, image->image_addr);
  json_object_set_string_member (object, "image_addr", buf);
  if (image->image_size > 0)
    json_object_set_int_member (object, "image_size", (gint64) image->image_size);
  if (image->image_vmaddr != FC_DEBUG_IMAGE_NO_VMADDR)
    {
      g_snprintf (buf, sizeof buf, "0x%" PRIx64, image->image_vmaddr);
      json_object_set_string_member (object, "image_vmaddr", buf);
    }
  return object;
}

static JsonArray *
get_images (FcProfile *profile,
            gboolean   create)
{
  JsonObject *meta = fc_profile_get_meta (profile);
  JsonObject *debug_meta = fc_json_get_object (meta, "debug_meta");
  JsonNode *images;

  if (debug_meta == NULL && create)
    {
      debug_meta = json_object_new ();
      json_object_set_object_member (meta, "debug_meta", debug_meta);
    }
  if (debug_meta == NULL)
    return NULL;
  images = json_object_get_member (debug_meta, "images");
  if ((images == NULL || !JSON_NODE_HOLDS_ARRAY (images)) && create)
    {
      json_object_set_array_member (debug_meta, "images", json_array_new ());
      images = json_object_get_member (debug_meta, "images");
    }
  return images != NULL && JSON_NODE_HOLDS_ARRAY (images) ? json_node_get_array (images) : NULL;
}

void
fc_chunk_meta_set_images (FcProfile          *profile,
                          const FcDebugImage *images,
                          gsize               n_images)
{
  JsonObject *debug_meta;
  JsonArray *array;

  g_return_if_fail (FC_IS_PROFILE (profile));
  g_return_if_fail (images != NULL || n_images == 0);

  debug_meta = json_object_new ();
  array = json_array_new ();
  for (gsize i = 0; i < n_images; i++)
    json_array_add_object_element (array, image_object (&images[i]));
  json_object_set_array_member (debug_meta, "images", array);
  json_object_set_object_member (fc_profile_get_meta (profile), "debug_meta", debug_meta);
}

void
fc_chunk_meta_add_image (FcProfile          *profile,
                         const FcDebugImage *image)
{
  g_return_if_fail (FC_IS_PROFILE (profile));
  g_return_if_fail (image != NULL && image->code_file != NULL);

  json_array_add_object_element (get_images (profile, TRUE), image_object (image));
}

gboolean
fc_chunk_meta_find_image (FcProfile    *profile,
                          const char   *code_file,
                          FcDebugImage *image)
{
  JsonArray *images;

  g_return_val_if_fail (FC_IS_PROFILE (profile), FALSE);
  g_return_val_if_fail (image != NULL, FALSE);

  images = get_images (profile, FALSE);
  for (guint i = 0; images != NULL && i < json_array_get_length (images); i++)
    {
      JsonNode *node = json_array_get_element (images, i);
      JsonObject *object;
      const char *addr;
      const char *vmaddr;
      gint64 size = 0;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      object = json_node_get_object (node);
      if (g_strcmp0 (fc_json_get_string (object, "code_file"), code_file) != 0)
        continue;
      addr = fc_json_get_string (object, "image_addr");
      vmaddr = fc_json_get_string (object, "image_vmaddr");
      image->code_file = fc_json_get_string (object, "code_file");
      image->code_id = fc_json_get_string (object, "code_id");
      if (image->code_id == NULL)
        image->code_id = fc_json_get_string (object, "debug_id");
      image->image_addr = addr != NULL ? g_ascii_strtoull (addr, NULL, 0) : 0;
      image->image_size = fc_json_get_int64 (object, "image_size", &size) && size > 0 ? (guint64) size : 0;
      image->image_vmaddr = vmaddr != NULL ? g_ascii_strtoull (vmaddr, NULL, 0) : FC_DEBUG_IMAGE_NO_VMADDR;
      return TRUE;
    }
  return FALSE;
}
