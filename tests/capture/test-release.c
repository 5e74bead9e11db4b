/* test-release.c - a recording without --release names its program, and what it writes has the SDKs' shape
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "flamecast.h"
#include "fc-proc-maps.h"
#include "fc-release.h"
#include "fc-test-fixtures.h"
#include "fc-test-util.h"

/* The build id as the symbolizer reads it (its own ELF code, not libelf). */
static char *
main_build_id (GPid pid)
{
  g_autoptr(FcProcMaps) maps = fc_proc_maps_new (pid);
  g_autoptr(GError) error = NULL;
  g_autofree char *exe = g_strdup_printf ("/proc/%d/exe", (int) pid);
  g_autofree char *target = g_file_read_link (exe, NULL);

  g_assert_true (fc_proc_maps_reload (maps, &error));
  g_assert_no_error (error);
  {
    /* the program's own mappings, in /proc/PID/maps order */
    g_autofree char *maps_text = NULL;
    g_autofree char *path = g_strdup_printf ("/proc/%d/maps", (int) pid);
    g_auto(GStrv) lines = NULL;

    g_assert_true (g_file_get_contents (path, &maps_text, NULL, NULL));
    lines = g_strsplit (maps_text, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      {
        guint64 start = g_ascii_strtoull (lines[i], NULL, 16);
        const FcModule *m;

        if (strstr (lines[i], target) == NULL)
          continue;
        m = fc_proc_maps_find (maps, start);
        if (m != NULL && m->is_main)
          return g_strdup (m->build_id);
      }
  }
  return NULL;
}

static void
test_default_release_self (void)
{
  g_autofree char *release = fc_release_default_for_pid (getpid ());
  g_autofree char *build_id = main_build_id (getpid ());
  g_autofree char *expected = NULL;

  g_assert_nonnull (build_id);
  expected = g_strdup_printf ("test-release@%.12s", build_id);
  g_assert_cmpstr (release, ==, expected);
}

/* Without a build id the file's SHA-256 tells builds apart. */
static void
test_default_release_no_build_id (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "plain program", NULL);
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "#!/bin/sh\necho hi\n", -1);
  g_autofree char *release = NULL;
  g_autofree char *expected = g_strdup_printf ("my_tool@%.12s", digest);

  g_assert_true (g_file_set_contents (path, "#!/bin/sh\necho hi\n", -1, NULL));
  release = fc_release_default_for_file (path, "my tool");
  g_assert_cmpstr (release, ==, expected);
  g_assert_null (fc_release_default_for_file ("/nonexistent/program", "x"));
  g_unlink (path);
}

typedef struct {
  GMainLoop *loop;
  GPtrArray *chunks;
} Capture;

static void
chunk_ready_cb (FcRecorder *recorder,
                FcProfile  *chunk,
                Capture    *cap)
{
  g_ptr_array_add (cap->chunks, g_object_ref (chunk));
}

static void
target_exited_cb (FcRecorder *recorder,
                  int         status,
                  Capture    *cap)
{
  g_main_loop_quit (cap->loop);
}

/* The JSON type name of @node, as the comparison sees it (all numbers alike
 * but integers apart: a float where an SDK writes an integer is a change). */
static const char *
type_of (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "array";
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING: return "string";
    case G_TYPE_BOOLEAN: return "boolean";
    case G_TYPE_INT64: return "integer";
    default: return "number";
    }
}

/* Every key of @ours is one the SDK payload @sdk has too, with the same type;
 * every key of @sdk not in @ours is listed in @sdk_only (with the reason in
 * the caller). */
static void
assert_same_keys (const char         *where,
                  JsonObject         *ours,
                  JsonObject         *sdk,
                  const char * const *sdk_only)
{
  g_autoptr(GList) our_keys = json_object_get_members (ours);
  g_autoptr(GList) sdk_keys = json_object_get_members (sdk);

  for (GList *l = our_keys; l != NULL; l = l->next)
    {
      JsonNode *theirs = json_object_get_member (sdk, l->data);

      g_test_message ("%s.%s", where, (const char *) l->data);
      if (theirs == NULL)
        g_error ("%s: we write \"%s\", the SDK payload has no such key", where, (const char *) l->data);
      g_assert_cmpstr (type_of (json_object_get_member (ours, l->data)), ==, type_of (theirs));
    }
  for (GList *l = sdk_keys; l != NULL; l = l->next)
    {
      if (!json_object_has_member (ours, l->data) &&
          (sdk_only == NULL || !g_strv_contains (sdk_only, l->data)))
        g_error ("%s: the SDK payload has \"%s\", we do not write it", where, (const char *) l->data);
    }
}

static JsonObject *
parse_line (const char *data,
            gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, data, len, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
assert_key_set (JsonObject         *object,
                const char * const *keys)
{
  g_autoptr(GList) members = json_object_get_members (object);

  g_assert_cmpuint (g_list_length (members), ==, g_strv_length ((char **) keys));
  for (guint i = 0; keys[i] != NULL; i++)
    g_assert_true (json_object_has_member (object, keys[i]));
}

/* A real recording of a program, no release given: the chunk names the
 * program, and its envelope has the official SDKs' keys, types, envelope
 * header and item header. */
static void
test_recorded_chunk_like_sdk (void)
{
  g_autofree char *burner = fc_test_target_path ("burner");
  const char *argv[] = { burner, "-s", "0.6", "-t", "2", NULL };
  g_autoptr(FcRecorder) recorder = fc_recorder_new ();
  g_autoptr(GError) error = NULL;
  /* tests/data/payloads/v2-cocoa.json has the keys and types of sentry-cocoa's chunks (the
   * conformance suite checks that against Relay's own fixture where it is there) */
  g_autoptr(FcDocument) sdk_doc = fc_test_load_fixture ("payloads/v2-cocoa.json");
  g_autofree char *sdk_path = fc_test_fixture_path ("payloads/v2-cocoa.json");
  g_autofree char *sdk_text = NULL;
  g_autoptr(JsonObject) sdk = NULL;
  g_autofree char *expected_release = NULL;
  g_autoptr(GBytes) envelope = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  const char *data;
  const char *nl1, *nl2;
  gsize len;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) item = NULL;
  g_autoptr(JsonObject) payload = NULL;
  FcProfile *chunk;
  Capture cap = { g_main_loop_new (NULL, FALSE), g_ptr_array_new_with_free_func (g_object_unref) };
  /* sentry-python's envelope header and profile_chunk item header */
  static const char * const header_keys[] = { "event_id", "sent_at", "sdk", NULL };
  static const char * const item_keys[] = { "type", "content_type", "length", "platform", NULL };
  /* cocoa writes a chunk-level "timestamp" the V2 spec does not have */
  static const char * const sdk_only_top[] = { "timestamp", NULL };

  g_signal_connect (recorder, "chunk-ready", G_CALLBACK (chunk_ready_cb), &cap);
  g_signal_connect (recorder, "target-exited", G_CALLBACK (target_exited_cb), &cap);
  g_object_set (recorder, "frequency", 250, NULL);
  g_assert_true (fc_recorder_spawn (recorder, argv, NULL, &error));
  g_assert_no_error (error);
  expected_release = fc_release_default_for_pid (fc_recorder_get_pid (recorder));
  g_assert_true (fc_recorder_start (recorder, &error));
  g_assert_no_error (error);
  g_main_loop_run (cap.loop);
  fc_recorder_stop (recorder);
  while (cap.chunks->len == 0)
    g_main_context_iteration (NULL, TRUE);
  fc_recorder_detach (recorder);

  /* the release names the program and its build */
  g_assert_nonnull (expected_release);
  g_assert_true (g_str_has_prefix (expected_release, "fc-target-burner@"));
  g_assert_cmpuint (strlen (expected_release), ==, strlen ("fc-target-burner@") + 12);
  chunk = g_ptr_array_index (cap.chunks, 0);
  g_assert_cmpstr (fc_profile_get_release (chunk), ==, expected_release);
  problems = fc_validate_profile (chunk);
  g_assert_false (fc_problems_has_errors (problems));

  envelope = fc_writer_write_chunk_envelope (chunk, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (envelope, &len);
  nl1 = memchr (data, '\n', len);
  nl2 = memchr (nl1 + 1, '\n', len - (nl1 + 1 - data));
  header = parse_line (data, nl1 - data);
  item = parse_line (nl1 + 1, nl2 - (nl1 + 1));
  payload = parse_line (nl2 + 1, json_object_get_int_member (item, "length"));

  /* an event_id on every envelope, chunks included, as the SDKs do */
  assert_key_set (header, header_keys);
  g_assert_true (fc_uuid_is_valid (json_object_get_string_member (header, "event_id"), NULL));
  g_assert_cmpuint (strlen (json_object_get_string_member (header, "event_id")), ==, 32);
  assert_key_set (item, item_keys);
  g_assert_cmpstr (json_object_get_string_member (item, "type"), ==, "profile_chunk");

  g_assert_true (g_file_get_contents (sdk_path, &sdk_text, NULL, NULL));
  sdk = parse_line (sdk_text, strlen (sdk_text));
  g_assert_nonnull (sdk_doc);
  assert_same_keys ("chunk", payload, sdk, sdk_only_top);
  assert_same_keys ("client_sdk", json_object_get_object_member (payload, "client_sdk"),
                    json_object_get_object_member (sdk, "client_sdk"), NULL);
  {
    JsonObject *ours = json_object_get_object_member (payload, "profile");
    JsonObject *theirs = json_object_get_object_member (sdk, "profile");
    JsonObject *our_sample = json_array_get_object_element (json_object_get_array_member (ours, "samples"), 0);
    JsonObject *sdk_sample = json_array_get_object_element (json_object_get_array_member (theirs, "samples"), 0);
    JsonObject *sdk_frame = json_array_get_object_element (json_object_get_array_member (theirs, "frames"), 0);
    JsonArray *our_frames = json_object_get_array_member (ours, "frames");

    assert_same_keys ("profile", ours, theirs, NULL);
    assert_same_keys ("sample", our_sample, sdk_sample, NULL);
    /* frame keys depend on what is known of each frame: every one we write
     * has the SDK's type, instruction_addr included */
    for (guint i = 0; i < json_array_get_length (our_frames); i++)
      {
        JsonObject *f = json_array_get_object_element (our_frames, i);
        g_autoptr(GList) keys = json_object_get_members (f);

        g_assert_true (json_object_has_member (f, "instruction_addr"));
        for (GList *l = keys; l != NULL; l = l->next)
          if (json_object_has_member (sdk_frame, l->data))
            g_assert_cmpstr (type_of (json_object_get_member (f, l->data)), ==,
                             type_of (json_object_get_member (sdk_frame, l->data)));
      }
  }
  if (json_object_has_member (payload, "debug_meta"))
    {
      JsonArray *ours = json_object_get_array_member (json_object_get_object_member (payload, "debug_meta"), "images");
      JsonArray *theirs = json_object_get_array_member (json_object_get_object_member (sdk, "debug_meta"), "images");
      JsonObject *sdk_image = json_array_get_object_element (theirs, 0);

      g_assert_cmpuint (json_array_get_length (ours), >, 0);
      for (guint i = 0; i < json_array_get_length (ours); i++)
        {
          JsonObject *image = json_array_get_object_element (ours, i);
          g_autoptr(GList) keys = json_object_get_members (image);

          g_assert_cmpstr (json_object_get_string_member (image, "type"), ==, "symbolic");
          for (GList *l = keys; l != NULL; l = l->next)
            if (json_object_has_member (sdk_image, l->data))
              g_assert_cmpstr (type_of (json_object_get_member (image, l->data)), ==,
                               type_of (json_object_get_member (sdk_image, l->data)));
        }
    }


  /* the same recording sent as V1 (--format v1): payload, transaction item and headers */
  {
    g_autoptr(GPtrArray) v1s = fc_convert_v2_to_v1 (chunk, "checkout", TRUE, &error);
    g_autofree char *sdk_v1_path = fc_test_fixture_path ("payloads/v1-cocoa.json");
    g_autofree char *sdk_v1_text = NULL;
    g_autoptr(JsonObject) sdk_v1 = NULL;
    g_autoptr(GBytes) v1_envelope = NULL;
    g_autoptr(JsonObject) v1_header = NULL;
    g_autoptr(JsonObject) txn_item = NULL;
    g_autoptr(JsonObject) prof_item = NULL;
    g_autoptr(JsonObject) v1 = NULL;
    const char *v;
    const char *n1, *n2, *n3, *n4;
    gsize v_len;
    gint64 txn_len;
    static const char * const txn_item_keys[] = { "type", "content_type", "length", NULL };
    /* os.build_number is cocoa's; queue_metadata is Apple's dispatch queues */
    static const char * const sdk_only_os[] = { "build_number", NULL };
    static const char * const sdk_only_profile[] = { "queue_metadata", NULL };
    /* mobile-only device fields (the spec: "Usually mobile only") */
    static const char * const sdk_only_device[] = { "is_emulator", "locale", "manufacturer", "model", NULL };

    g_assert_no_error (error);
    g_assert_cmpuint (v1s->len, >=, 1);
    v1_envelope = fc_writer_write_v1_envelope (g_ptr_array_index (v1s, 0),
                                               fc_profile_get_linked_event (g_ptr_array_index (v1s, 0)), &error);
    g_assert_no_error (error);
    v = g_bytes_get_data (v1_envelope, &v_len);
    n1 = memchr (v, '\n', v_len);
    n2 = memchr (n1 + 1, '\n', v_len - (n1 + 1 - v));
    v1_header = parse_line (v, n1 - v);
    txn_item = parse_line (n1 + 1, n2 - (n1 + 1));
    txn_len = json_object_get_int_member (txn_item, "length");
    n3 = n2 + 1 + txn_len;
    n4 = memchr (n3 + 1, '\n', v_len - (n3 + 1 - v));
    prof_item = parse_line (n3 + 1, n4 - (n3 + 1));
    v1 = parse_line (n4 + 1, json_object_get_int_member (prof_item, "length"));

    assert_key_set (v1_header, header_keys);
    assert_key_set (txn_item, txn_item_keys);
    assert_key_set (prof_item, txn_item_keys);
    g_assert_cmpstr (json_object_get_string_member (prof_item, "type"), ==, "profile");
    g_assert_cmpstr (json_object_get_string_member (v1, "release"), ==, expected_release);

    g_assert_true (g_file_get_contents (sdk_v1_path, &sdk_v1_text, NULL, NULL));
    sdk_v1 = parse_line (sdk_v1_text, strlen (sdk_v1_text));
    /* Relay takes "transaction" or a "transactions" list; both carry the same keys */
    if (json_object_has_member (v1, "transaction"))
      {
        JsonObject *ours = json_object_get_object_member (v1, "transaction");
        JsonObject *theirs = json_array_get_object_element (json_object_get_array_member (sdk_v1, "transactions"), 0);

        assert_same_keys ("transaction", ours, theirs, NULL);
        json_object_remove_member (v1, "transaction");
        json_object_remove_member (sdk_v1, "transactions");
      }
    /* Relay overwrites a V1 profile's client_sdk from the transaction's sdk
     * (its V1 model has the field); we send it as chunks do */
    g_assert_true (json_object_has_member (v1, "client_sdk"));
    json_object_remove_member (v1, "client_sdk");
    assert_same_keys ("v1", v1, sdk_v1, NULL);
    assert_same_keys ("os", json_object_get_object_member (v1, "os"),
                      json_object_get_object_member (sdk_v1, "os"), sdk_only_os);
    assert_same_keys ("device", json_object_get_object_member (v1, "device"),
                      json_object_get_object_member (sdk_v1, "device"), sdk_only_device);
    assert_same_keys ("v1 profile", json_object_get_object_member (v1, "profile"),
                      json_object_get_object_member (sdk_v1, "profile"), sdk_only_profile);
  }

  g_main_loop_unref (cap.loop);
  g_ptr_array_unref (cap.chunks);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/release/default-self", test_default_release_self);
  g_test_add_func ("/core/release/no-build-id", test_default_release_no_build_id);
  g_test_add_func ("/core/release/recorded-chunk-like-sdk", test_recorded_chunk_like_sdk);

  return g_test_run ();
}
