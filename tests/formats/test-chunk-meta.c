/* test-chunk-meta.c - the model's typed SDK and images, read and written as Sentry's client_sdk and debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-chunk-meta.h"
#include "fc-reader.h"
#include "fc-test-fixtures.h"
#include "fc-test-profiles.h"
#include "fc-writer.h"

static FcProfile *
read_text (const char *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(FcDocument) document = fc_test_load_bytes (bytes);

  return g_object_ref (fc_document_get_profile (document, 0));
}

static JsonObject *
parse_object (GBytes *bytes)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* the payload @profile is written as, keeping its SDK */
static JsonObject *
written (FcProfile *profile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_writer_write_profile_full (profile, FC_WRITE_KEEP_CLIENT_SDK, &error);

  g_assert_no_error (error);
  return parse_object (bytes);
}

static FcProfile *
write_and_read (FcProfile *profile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_writer_write_profile_full (profile, FC_WRITE_KEEP_CLIENT_SDK, &error);
  g_autoptr(FcDocument) document = NULL;

  g_assert_no_error (error);
  document = fc_test_load_bytes (bytes);
  return g_object_ref (fc_document_get_profile (document, 0));
}

static void
assert_same_sdk (const FcClientSdk *a,
                 const FcClientSdk *b)
{
  if (a == NULL || b == NULL)
    {
      g_assert_true (a == b);
      return;
    }
  g_assert_cmpstr (a->name, ==, b->name);
  g_assert_cmpstr (a->version, ==, b->version);
  g_assert_cmpstr (a->extra, ==, b->extra);
  g_assert_cmpint (a->packages != NULL, ==, b->packages != NULL);
  for (guint i = 0; a->packages != NULL && i < a->packages->len; i++)
    {
      g_assert_cmpuint (a->packages->len, ==, b->packages->len);
      g_assert_cmpstr (g_array_index (a->packages, FcSdkPackage, i).name, ==,
                       g_array_index (b->packages, FcSdkPackage, i).name);
      g_assert_cmpstr (g_array_index (a->packages, FcSdkPackage, i).version, ==,
                       g_array_index (b->packages, FcSdkPackage, i).version);
    }
}

static void
assert_same_images (FcProfile *a,
                    FcProfile *b)
{
  GPtrArray *ia = fc_profile_get_images (a);
  GPtrArray *ib = fc_profile_get_images (b);

  g_assert_cmpstr (fc_profile_get_debug_meta_extra (a), ==, fc_profile_get_debug_meta_extra (b));
  g_assert_cmpint (ia != NULL, ==, ib != NULL);
  if (ia == NULL)
    return;
  g_assert_cmpuint (ia->len, ==, ib->len);
  for (guint i = 0; i < ia->len; i++)
    {
      const FcDebugImage *x = g_ptr_array_index (ia, i);
      const FcDebugImage *y = g_ptr_array_index (ib, i);

      g_assert_cmpstr (x->type, ==, y->type);
      g_assert_cmpstr (x->code_file, ==, y->code_file);
      g_assert_cmpstr (x->code_id, ==, y->code_id);
      g_assert_cmpstr (x->debug_id, ==, y->debug_id);
      g_assert_cmpstr (x->debug_file, ==, y->debug_file);
      g_assert_cmpstr (x->arch, ==, y->arch);
      g_assert_cmphex (x->image_addr, ==, y->image_addr);
      g_assert_cmphex (x->image_size, ==, y->image_size);
      g_assert_cmphex (x->image_vmaddr, ==, y->image_vmaddr);
      g_assert_cmpstr (x->extra, ==, y->extra);
    }
}

/* Addresses are numbers, however written ("0x0000000104a10000" and
 * "0x104a10000" are one address): what Sentry compares. */
static void
normalize_addresses (JsonNode *debug_meta)
{
  JsonNode *images;

  if (debug_meta == NULL || !JSON_NODE_HOLDS_OBJECT (debug_meta))
    return;
  images = json_object_get_member (json_node_get_object (debug_meta), "images");
  for (guint i = 0; images != NULL && i < json_array_get_length (json_node_get_array (images)); i++)
    {
      JsonObject *image = json_array_get_object_element (json_node_get_array (images), i);
      static const char * const keys[] = { "image_addr", "image_vmaddr" };

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          const char *text = json_object_has_member (image, keys[k])
                             ? json_object_get_string_member (image, keys[k]) : NULL;

          if (text != NULL)
            json_object_set_int_member (image, keys[k], (gint64) g_ascii_strtoull (text, NULL, 0));
        }
    }
}

/* the payload's client_sdk and debug_meta as written equal @original's */
static void
assert_same_json (JsonObject *original,
                  JsonObject *written_back)
{
  static const char * const keys[] = { "client_sdk", "debug_meta" };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      JsonNode *a = json_object_get_member (original, keys[k]);
      JsonNode *b = json_object_get_member (written_back, keys[k]);
      g_autoptr(JsonNode) ca = a != NULL ? json_node_copy (a) : NULL;
      g_autoptr(JsonNode) cb = b != NULL ? json_node_copy (b) : NULL;

      g_test_message ("  %s", keys[k]);
      /* without an SDK of its own, the payload's writer names itself */
      if (a == NULL && k == 0)
        {
          g_assert_cmpstr (json_object_get_string_member (json_node_get_object (b), "name"), ==, "flamecast");
          continue;
        }
      g_assert_true ((a == NULL) == (b == NULL));
      if (a == NULL)
        continue;
      normalize_addresses (ca);
      normalize_addresses (cb);
      g_assert_true (json_node_equal (ca, cb));
    }
}

/* Every readable file in tests/data (the hand-written SDK payloads, what
 * Flamecast recorded): read -> model -> write gives the same SDK and
 * images, typed and as JSON. */
static void
test_chunk_meta_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fc_test_readable_fixtures); i++)
    {
      const char *name = fc_test_readable_fixtures[i];
      g_autoptr(FcDocument) document = fc_test_load_fixture (name);
      FcProfile *original = fc_document_get_profile (document, 0);
      g_autoptr(FcProfile) reread = write_and_read (original);

      g_test_message ("fixture %s", name);
      /* without an SDK of its own, the payload's writer names itself */
      if (fc_profile_get_client_sdk (original) == NULL)
        g_assert_cmpstr (fc_profile_get_client_sdk (reread)->name, ==, "flamecast");
      else
        assert_same_sdk (fc_profile_get_client_sdk (original), fc_profile_get_client_sdk (reread));
      assert_same_images (original, reread);
      if (g_str_has_suffix (name, ".json"))
        {
          g_autofree char *path = fc_test_fixture_path (name);
          g_autofree char *text = NULL;
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(JsonObject) file = NULL;
          g_autoptr(JsonObject) out = written (original);

          g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
          bytes = g_bytes_new_take (g_steal_pointer (&text), strlen (text));
          file = parse_object (bytes);
          assert_same_json (file, out);
        }
    }
}

/* What the model does not know rides along unchanged; what it knows is
 * typed, however Sentry lets it be written (addresses as numbers). */
static void
test_chunk_meta_unknown_keys (void)
{
  static const char *text =
    "{\"version\":\"2\",\"platform\":\"native\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\","
    "\"profiler_id\":\"4d229f1d3807421ba62a5f8bc295d836\","
    "\"client_sdk\":{\"name\":\"sentry.native\",\"version\":\"0.7.0\",\"integrations\":[\"crashpad\"],"
    "  \"packages\":[{\"name\":\"github:getsentry/sentry-native\",\"version\":\"0.7.0\"}],\"future\":{\"a\":1}},"
    "\"debug_meta\":{\"sdk_info\":{\"sdk_name\":\"linux\"},\"images\":["
    "  {\"type\":\"elf\",\"code_file\":\"/usr/bin/shop\",\"image_addr\":4096,\"image_size\":8192,"
    "   \"arch\":\"x86_64\",\"debug_file\":\"/usr/lib/debug/shop.debug\",\"debug_checksum\":\"abc\"},"
    "  {\"type\":\"symbolic\",\"code_file\":7,\"image_addr\":\"nowhere\",\"image_size\":-1}]},"
    "\"profile\":{\"samples\":[{\"timestamp\":1.0,\"thread_id\":\"1\",\"stack_id\":0}],"
    "  \"stacks\":[[0]],\"frames\":[{\"function\":\"main\",\"instruction_addr\":\"0x1010\"}],"
    "  \"thread_metadata\":{\"1\":{\"name\":\"main\"}}}}";
  g_autoptr(FcProfile) profile = read_text (text);
  g_autoptr(FcProfile) reread = NULL;
  g_autoptr(GBytes) original = g_bytes_new_static (text, strlen (text));
  g_autoptr(JsonObject) file = parse_object (original);
  g_autoptr(JsonObject) out = written (profile);
  const FcClientSdk *sdk = fc_profile_get_client_sdk (profile);
  GPtrArray *images = fc_profile_get_images (profile);
  const FcDebugImage *elf, *odd;

  /* neither is left in the untyped metadata */
  g_assert_false (json_object_has_member (fc_profile_get_meta (profile), "client_sdk"));
  g_assert_false (json_object_has_member (fc_profile_get_meta (profile), "debug_meta"));

  g_assert_cmpstr (sdk->name, ==, "sentry.native");
  g_assert_cmpstr (sdk->version, ==, "0.7.0");
  g_assert_cmpuint (sdk->packages->len, ==, 1);
  g_assert_cmpstr (g_array_index (sdk->packages, FcSdkPackage, 0).name, ==, "github:getsentry/sentry-native");
  g_assert_nonnull (strstr (sdk->extra, "integrations"));
  g_assert_nonnull (strstr (sdk->extra, "future"));
  g_assert_null (strstr (sdk->extra, "packages"));

  g_assert_cmpuint (images->len, ==, 2);
  elf = g_ptr_array_index (images, 0);
  g_assert_cmpstr (elf->type, ==, "elf");
  g_assert_cmpstr (elf->arch, ==, "x86_64");
  g_assert_cmpstr (elf->debug_file, ==, "/usr/lib/debug/shop.debug");
  g_assert_cmphex (elf->image_addr, ==, 4096);
  g_assert_cmpuint (elf->image_size, ==, 8192);
  g_assert_cmphex (elf->image_vmaddr, ==, FC_DEBUG_IMAGE_UNKNOWN);
  g_assert_cmpstr (elf->extra, ==, "{\"debug_checksum\":\"abc\"}");
  /* known keys of another type are not typed, and not lost */
  odd = g_ptr_array_index (images, 1);
  g_assert_null (odd->code_file);
  g_assert_cmphex (odd->image_addr, ==, FC_DEBUG_IMAGE_UNKNOWN);
  g_assert_cmphex (odd->image_size, ==, FC_DEBUG_IMAGE_UNKNOWN);
  g_assert_nonnull (strstr (odd->extra, "nowhere"));
  g_assert_cmpstr (fc_profile_get_debug_meta_extra (profile), ==, "{\"sdk_info\":{\"sdk_name\":\"linux\"}}");

  assert_same_json (file, out);
  reread = write_and_read (profile);
  assert_same_sdk (sdk, fc_profile_get_client_sdk (reread));
  assert_same_images (profile, reread);
  /* a copy (a range, a conversion) keeps them */
  {
    g_autoptr(FcProfile) copy = fc_profile_copy_range (profile, 0, 0);

    assert_same_sdk (sdk, fc_profile_get_client_sdk (copy));
    assert_same_images (profile, copy);
  }
}

/* The SDK and images Flamecast makes, as Sentry's symbolicator wants them. */
static void
test_chunk_meta_ours (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) read = NULL;
  g_autoptr(JsonObject) out = NULL;
  JsonObject *image;
  const FcDebugImage *found;
  guint64 start, limit;
  guint32 main_frame;
  guint32 thread;

  fc_profile_set_meta_string (profile, "release", "shop@1.0");
  fc_profile_set_meta_string (profile, "platform", "native");
  thread = fc_profile_ensure_thread (profile, "1");
  main_frame = fc_test_frame (profile, "main", "shop", TRUE);
  fc_test_sample (profile, thread, 0, 1, main_frame);
  fc_test_sample (profile, thread, 10, 1, main_frame);
  fc_profile_take_client_sdk (profile, fc_client_sdk_new ("flamecast", "9.9"));
  fc_profile_add_image (profile, fc_chunk_meta_new_elf_image ("/usr/bin/shop", "f1c3bcc0279865fe3058404b2831d9e64135386c",
                                                              0x555500000000, 0x4000, 0));
  fc_profile_add_image (profile, fc_chunk_meta_new_elf_image ("/usr/lib/libc.so.6", "", 0x7f0000000000,
                                                              FC_DEBUG_IMAGE_UNKNOWN, 0x1000));
  fc_profile_finish (profile);

  out = written (profile);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (out, "client_sdk"), "name"), ==,
                   "flamecast");
  image = json_array_get_object_element (json_object_get_array_member (json_object_get_object_member (out, "debug_meta"),
                                                                       "images"), 0);
  g_assert_cmpstr (json_object_get_string_member (image, "type"), ==, "symbolic");
  g_assert_cmpstr (json_object_get_string_member (image, "debug_id"), ==, "c0bcc3f1-9827-fe65-3058-404b2831d9e6");
  g_assert_cmpstr (json_object_get_string_member (image, "image_addr"), ==, "0x555500000000");
  g_assert_cmpstr (json_object_get_string_member (image, "image_vmaddr"), ==, "0x0");
  g_assert_cmpint (json_object_get_int_member (image, "image_size"), ==, 0x4000);

  read = write_and_read (profile);
  assert_same_images (profile, read);
  found = fc_profile_find_image (read, "/usr/lib/libc.so.6");
  g_assert_nonnull (found);
  g_assert_null (found->code_id);
  g_assert_null (found->debug_id);
  g_assert_cmphex (found->image_vmaddr, ==, 0x1000);
  fc_chunk_meta_image_range (found, &start, &limit);
  g_assert_cmphex (start, ==, 0x7f0000000000);
  g_assert_cmphex (limit, ==, start);
  g_assert_null (fc_profile_find_image (read, "/nowhere"));
  g_assert_cmpstr (fc_chunk_meta_image_build_id (fc_profile_find_image (read, "/usr/bin/shop")), ==,
                   "f1c3bcc0279865fe3058404b2831d9e64135386c");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/chunk-meta/ours", test_chunk_meta_ours);
  g_test_add_func ("/core/chunk-meta/unknown-keys", test_chunk_meta_unknown_keys);
  g_test_add_func ("/core/chunk-meta/fixtures", test_chunk_meta_fixtures);

  return g_test_run ();
}
