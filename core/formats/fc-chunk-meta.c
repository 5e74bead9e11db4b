/* fc-chunk-meta.c - the model's typed SDK and images, read and written as Sentry's client_sdk and debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "fc-chunk-meta.h"
#include "fc-json-util.h"
#include "fc-writer.h"

/* ---- the keys, one table per typed value, read and written alike ---- */

typedef enum { KIND_STRING, KIND_ADDRESS, KIND_SIZE } Kind;

typedef struct
{
  const char *key;
  gsize       offset;
  Kind        kind;
} Key;

static const Key sdk_keys[] = {
  { "name", G_STRUCT_OFFSET (FcClientSdk, name), KIND_STRING },
  { "version", G_STRUCT_OFFSET (FcClientSdk, version), KIND_STRING },
};

static const Key package_keys[] = {
  { "name", G_STRUCT_OFFSET (FcSdkPackage, name), KIND_STRING },
  { "version", G_STRUCT_OFFSET (FcSdkPackage, version), KIND_STRING },
};

static const Key image_keys[] = {
  { "type", G_STRUCT_OFFSET (FcDebugImage, type), KIND_STRING },
  { "code_file", G_STRUCT_OFFSET (FcDebugImage, code_file), KIND_STRING },
  { "code_id", G_STRUCT_OFFSET (FcDebugImage, code_id), KIND_STRING },
  { "debug_id", G_STRUCT_OFFSET (FcDebugImage, debug_id), KIND_STRING },
  { "debug_file", G_STRUCT_OFFSET (FcDebugImage, debug_file), KIND_STRING },
  { "arch", G_STRUCT_OFFSET (FcDebugImage, arch), KIND_STRING },
  { "image_addr", G_STRUCT_OFFSET (FcDebugImage, image_addr), KIND_ADDRESS },
  { "image_size", G_STRUCT_OFFSET (FcDebugImage, image_size), KIND_SIZE },
  { "image_vmaddr", G_STRUCT_OFFSET (FcDebugImage, image_vmaddr), KIND_ADDRESS },
};

#define CLIENT_SDK "client_sdk"
#define DEBUG_META "debug_meta"
#define PACKAGES   "packages"
#define IMAGES     "images"

/* Sentry takes an address as a hex string or a number; an unsigned value
 * that is not FC_DEBUG_IMAGE_UNKNOWN is typed, anything else is not. */
static gboolean
read_number (JsonNode *node,
             gboolean  from_string,
             guint64  *value)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      gint64 v = json_node_get_int (node);

      *value = (guint64) v;
      return v >= 0;
    }
  if (from_string && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *s = json_node_get_string (node);
      char *end = NULL;

      if (!g_ascii_isdigit (s[0]))
        return FALSE;
      errno = 0;
      *value = g_ascii_strtoull (s, &end, 0);
      return errno == 0 && *end == '\0' && *value != FC_DEBUG_IMAGE_UNKNOWN;
    }
  return FALSE;
}

static gboolean
read_key (const Key *key,
          gpointer   base,
          JsonNode  *node)
{
  gpointer field = G_STRUCT_MEMBER_P (base, key->offset);

  switch (key->kind)
    {
    case KIND_STRING:
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return FALSE;
      *(char **) field = g_strdup (json_node_get_string (node));
      return TRUE;
    case KIND_ADDRESS:
    case KIND_SIZE:
      return read_number (node, key->kind == KIND_ADDRESS, field);
    default:
      g_assert_not_reached ();
    }
}

static char *
object_text (JsonObject *object)
{
  g_autoptr(JsonNode) node = NULL;

  if (object == NULL || json_object_get_size (object) == 0)
    return NULL;
  node = json_node_init_object (json_node_alloc (), object);
  return fc_writer_json_to_string (node);
}

/* Fills @base's typed fields from @object; returns the keys that are not
 * typed (unknown, or a known key whose value has another type) as JSON
 * text, or NULL. @other_key (nullable) is left for the caller. */
static char *
read_keys (const Key  *keys,
           gsize       n_keys,
           gpointer    base,
           JsonObject *object,
           const char *other_key)
{
  g_autoptr(JsonObject) extra = json_object_new ();
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (object, l->data);
      gboolean typed = FALSE;

      if (g_strcmp0 (l->data, other_key) == 0)
        continue;
      for (gsize i = 0; i < n_keys && !typed; i++)
        {
          if (strcmp (keys[i].key, l->data) == 0)
            typed = read_key (&keys[i], base, node);
        }
      if (!typed)
        json_object_set_member (extra, l->data, json_node_copy (node));
    }
  return object_text (extra);
}

static void
write_keys (const Key  *keys,
            gsize       n_keys,
            gconstpointer base,
            JsonObject *object)
{
  char buf[32];

  for (gsize i = 0; i < n_keys; i++)
    {
      gconstpointer field = G_STRUCT_MEMBER_P (base, keys[i].offset);
      guint64 value = keys[i].kind == KIND_STRING ? 0 : *(const guint64 *) field;

      if (keys[i].kind == KIND_STRING && *(char * const *) field != NULL)
        json_object_set_string_member (object, keys[i].key, *(char * const *) field);
      else if (keys[i].kind == KIND_ADDRESS && value != FC_DEBUG_IMAGE_UNKNOWN)
        {
          g_snprintf (buf, sizeof buf, "0x%" PRIx64, value);
          json_object_set_string_member (object, keys[i].key, buf);
        }
      else if (keys[i].kind == KIND_SIZE && value != FC_DEBUG_IMAGE_UNKNOWN)
        json_object_set_int_member (object, keys[i].key, (gint64) value);
    }
}

/* the keys of @extra_text that @object does not have yet: typed values win */
static void
write_extra (const char *extra_text,
             JsonObject *object)
{
  g_autoptr(JsonObject) extra = NULL;
  g_autoptr(GList) members = NULL;

  if (extra_text == NULL)
    return;
  extra = fc_json_parse_object (extra_text, strlen (extra_text), "extra", NULL);
  if (extra == NULL)
    return;
  members = json_object_get_members (extra);
  for (GList *l = members; l != NULL; l = l->next)
    {
      if (!json_object_has_member (object, l->data))
        json_object_set_member (object, l->data, json_node_copy (json_object_get_member (extra, l->data)));
    }
}

static JsonNode *
object_node (JsonObject *object)
{
  JsonNode *node = json_node_init_object (json_node_alloc (), object);

  json_object_unref (object);
  return node;
}

/* ---- client_sdk ---- */

/* TRUE when @node is an array of objects with nothing but typed keys:
 * anything else is kept as it was */
static gboolean
read_packages (FcClientSdk *sdk,
               JsonNode    *node)
{
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      FcSdkPackage package = { NULL, NULL };
      g_autofree char *extra = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return FALSE;
      extra = read_keys (package_keys, G_N_ELEMENTS (package_keys), &package,
                         json_node_get_object (element), NULL);
      if (extra != NULL)
        {
          g_free (package.name);
          g_free (package.version);
          return FALSE;
        }
      g_array_append_val (fc_client_sdk_ensure_packages (sdk), package);
    }
  /* an empty list stays a list */
  fc_client_sdk_ensure_packages (sdk);
  return TRUE;
}

static FcClientSdk *
read_sdk (JsonObject *object)
{
  FcClientSdk *sdk = fc_client_sdk_new (NULL, NULL);
  JsonNode *packages = json_object_get_member (object, PACKAGES);
  g_autoptr(JsonObject) extra = NULL;

  sdk->extra = read_keys (sdk_keys, G_N_ELEMENTS (sdk_keys), sdk, object, PACKAGES);
  if (packages == NULL || read_packages (sdk, packages))
    return sdk;

  g_clear_pointer (&sdk->packages, g_array_unref);
  extra = sdk->extra != NULL ? fc_json_parse_object (sdk->extra, strlen (sdk->extra), "extra", NULL)
                             : json_object_new ();
  json_object_set_member (extra, PACKAGES, json_node_copy (packages));
  g_free (sdk->extra);
  sdk->extra = object_text (extra);
  return sdk;
}

JsonNode *
fc_chunk_meta_sdk_to_json (const FcClientSdk *sdk)
{
  JsonObject *object = json_object_new ();

  g_return_val_if_fail (sdk != NULL, NULL);

  write_keys (sdk_keys, G_N_ELEMENTS (sdk_keys), sdk, object);
  if (sdk->packages != NULL)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < sdk->packages->len; i++)
        {
          JsonObject *package = json_object_new ();

          write_keys (package_keys, G_N_ELEMENTS (package_keys),
                      &g_array_index (sdk->packages, FcSdkPackage, i), package);
          json_array_add_object_element (array, package);
        }
      json_object_set_array_member (object, PACKAGES, array);
    }
  write_extra (sdk->extra, object);
  return object_node (object);
}

/* ---- debug_meta ---- */

static gboolean
images_typable (JsonNode *images)
{
  JsonArray *array;

  if (images == NULL || JSON_NODE_HOLDS_NULL (images))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (images))
    return FALSE;
  array = json_node_get_array (images);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      if (!JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i)))
        return FALSE;
    }
  return TRUE;
}

static void
read_debug_meta (FcProfile  *profile,
                 JsonObject *debug_meta)
{
  JsonNode *images = json_object_get_member (debug_meta, IMAGES);
  gboolean listed = images != NULL && JSON_NODE_HOLDS_ARRAY (images);
  g_autofree char *extra = read_keys (NULL, 0, NULL, debug_meta, listed ? IMAGES : NULL);
  g_autoptr(GPtrArray) list = NULL;

  if (listed)
    {
      JsonArray *array = json_node_get_array (images);

      list = g_ptr_array_new_full (json_array_get_length (array), (GDestroyNotify) fc_debug_image_free);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          FcDebugImage *image = fc_debug_image_new (NULL);

          image->extra = read_keys (image_keys, G_N_ELEMENTS (image_keys), image,
                                    json_array_get_object_element (array, i), NULL);
          g_ptr_array_add (list, image);
        }
    }
  /* an empty debug_meta is written back, as any key the model keeps */
  if (list == NULL && extra == NULL)
    extra = g_strdup ("{}");
  fc_profile_take_images (profile, g_steal_pointer (&list));
  fc_profile_set_debug_meta_extra (profile, extra);
}

JsonNode *
fc_chunk_meta_debug_meta_to_json (FcProfile *profile)
{
  GPtrArray *images;
  JsonObject *object;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  images = fc_profile_get_images (profile);
  if (images == NULL && fc_profile_get_debug_meta_extra (profile) == NULL)
    return NULL;

  object = json_object_new ();
  if (images != NULL)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < images->len; i++)
        {
          const FcDebugImage *image = g_ptr_array_index (images, i);
          JsonObject *element = json_object_new ();

          write_keys (image_keys, G_N_ELEMENTS (image_keys), image, element);
          write_extra (image->extra, element);
          json_array_add_object_element (array, element);
        }
      json_object_set_array_member (object, IMAGES, array);
    }
  write_extra (fc_profile_get_debug_meta_extra (profile), object);
  return object_node (object);
}

/* ---- both ---- */

void
fc_chunk_meta_read (FcProfile *profile)
{
  JsonObject *meta;
  JsonNode *node;

  g_return_if_fail (FC_IS_PROFILE (profile));

  meta = fc_profile_get_meta (profile);
  node = json_object_get_member (meta, CLIENT_SDK);
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      fc_profile_take_client_sdk (profile, read_sdk (json_node_get_object (node)));
      json_object_remove_member (meta, CLIENT_SDK);
    }
  node = json_object_get_member (meta, DEBUG_META);
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node) &&
      images_typable (json_object_get_member (json_node_get_object (node), IMAGES)))
    {
      read_debug_meta (profile, json_node_get_object (node));
      json_object_remove_member (meta, DEBUG_META);
    }
}

JsonNode *
fc_chunk_meta_get_untyped_debug_meta (FcProfile *profile)
{
  JsonNode *node;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  node = json_object_get_member (fc_profile_get_meta (profile), DEBUG_META);
  return node != NULL && !JSON_NODE_HOLDS_NULL (node) ? node : NULL;
}

/* ---- images Flamecast makes ---- */

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

FcDebugImage *
fc_chunk_meta_new_elf_image (const char *code_file,
                             const char *build_id_hex,
                             guint64     image_addr,
                             guint64     image_size,
                             guint64     image_vmaddr)
{
  FcDebugImage *image = fc_debug_image_new (code_file);

  image->type = g_strdup ("symbolic");
  if (build_id_hex != NULL && build_id_hex[0] != '\0')
    {
      image->code_id = g_strdup (build_id_hex);
      image->debug_id = fc_build_id_to_debug_id (build_id_hex);
    }
  image->image_addr = image_addr;
  image->image_size = image_size;
  image->image_vmaddr = image_vmaddr;
  return image;
}

void
fc_chunk_meta_image_range (const FcDebugImage *image,
                           guint64            *start,
                           guint64            *limit)
{
  g_return_if_fail (image != NULL);

  *start = image->image_addr != FC_DEBUG_IMAGE_UNKNOWN ? image->image_addr : 0;
  *limit = image->image_size != FC_DEBUG_IMAGE_UNKNOWN ? *start + image->image_size : *start;
}

const char *
fc_chunk_meta_image_build_id (const FcDebugImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);
  return image->code_id != NULL ? image->code_id : image->debug_id;
}
