/* test-chunk-meta.c - the SDK and images as typed data, written as Sentry's client_sdk and debug_meta
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "fc-chunk-meta.h"
#include "fc-reader.h"
#include "fc-test-profiles.h"
#include "fc-writer.h"

/* A chunk with two samples, the SDK and the images, written and read back. */
static FcProfile *
write_and_read (FcProfile *profile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_writer_write_profile_full (profile, FC_WRITE_KEEP_CLIENT_SDK, &error);
  g_autoptr(FcDocument) document = NULL;

  g_assert_no_error (error);
  document = fc_reader_load_bytes (bytes, FC_READ_FLAGS_NONE, &error);
  g_assert_no_error (error);
  return g_object_ref (fc_document_get_profile (document, 0));
}

static void
test_chunk_meta_round_trip (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) read = NULL;
  const FcDebugImage images[] = {
    { "/usr/bin/shop", "f1c3bcc0279865fe3058404b2831d9e64135386c", 0x555500000000, 0x4000, 0 },
    { "/usr/lib/libc.so.6", NULL, 0x7f0000000000, 0x1000, 0x1000 },
  };
  FcDebugImage found = { 0 };
  guint32 main_frame;
  guint32 thread;
  JsonObject *sdk;
  JsonObject *image;

  fc_profile_set_meta_string (profile, "release", "shop@1.0");
  fc_profile_set_meta_string (profile, "platform", "native");
  thread = fc_profile_ensure_thread (profile, "1");
  main_frame = fc_test_frame (profile, "main", "shop", TRUE);
  fc_test_sample (profile, thread, 0, 1, main_frame);
  fc_test_sample (profile, thread, 10, 1, main_frame);
  fc_chunk_meta_set_client_sdk (profile, &(FcClientSdk) { "flamecast", "9.9" });
  fc_chunk_meta_set_images (profile, images, G_N_ELEMENTS (images));
  fc_profile_finish (profile);

  read = write_and_read (profile);
  sdk = fc_profile_get_client_sdk (read);
  g_assert_nonnull (sdk);
  g_assert_cmpstr (json_object_get_string_member (sdk, "name"), ==, "flamecast");
  g_assert_cmpstr (json_object_get_string_member (sdk, "version"), ==, "9.9");

  g_assert_true (fc_chunk_meta_find_image (read, "/usr/bin/shop", &found));
  g_assert_cmpstr (found.code_id, ==, "f1c3bcc0279865fe3058404b2831d9e64135386c");
  g_assert_cmphex (found.image_addr, ==, 0x555500000000);
  g_assert_cmpuint (found.image_size, ==, 0x4000);
  g_assert_cmphex (found.image_vmaddr, ==, 0);
  /* as Sentry's symbolicator wants it: type, the debug id from the build id */
  image = json_array_get_object_element (json_object_get_array_member (json_object_get_object_member (fc_profile_get_meta (read), "debug_meta"), "images"), 0);
  g_assert_cmpstr (json_object_get_string_member (image, "type"), ==, "symbolic");
  g_assert_cmpstr (json_object_get_string_member (image, "debug_id"), ==, "c0bcc3f1-9827-fe65-3058-404b2831d9e6");
  g_assert_cmpstr (json_object_get_string_member (image, "image_addr"), ==, "0x555500000000");

  g_assert_true (fc_chunk_meta_find_image (read, "/usr/lib/libc.so.6", &found));
  g_assert_null (found.code_id);
  g_assert_cmphex (found.image_vmaddr, ==, 0x1000);
  g_assert_false (fc_chunk_meta_find_image (read, "/nowhere", &found));
}

/* Another format's mapping: added one by one, no preferred address known. */
static void
test_chunk_meta_add (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  FcDebugImage found = { 0 };

  fc_chunk_meta_add_image (profile, &(FcDebugImage) { "/a.so", "", 0x1000, 0, FC_DEBUG_IMAGE_NO_VMADDR });
  fc_chunk_meta_add_image (profile, &(FcDebugImage) { "/b.so", "0102", 0x2000, 16, FC_DEBUG_IMAGE_NO_VMADDR });
  g_assert_true (fc_chunk_meta_find_image (profile, "/a.so", &found));
  g_assert_null (found.code_id);
  g_assert_cmpuint (found.image_size, ==, 0);
  g_assert_cmphex (found.image_vmaddr, ==, FC_DEBUG_IMAGE_NO_VMADDR);
  g_assert_true (fc_chunk_meta_find_image (profile, "/b.so", &found));
  g_assert_cmpstr (found.code_id, ==, "0102");
  g_assert_cmphex (found.image_addr, ==, 0x2000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/chunk-meta/round-trip", test_chunk_meta_round_trip);
  g_test_add_func ("/core/chunk-meta/add", test_chunk_meta_add);

  return g_test_run ();
}
