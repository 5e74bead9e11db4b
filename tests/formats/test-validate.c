/* test-validate.c - Relay's rules on the payloads of tests/data and on profiles made here
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "flamecast.h"
#include "fc-reader.h"
#include "fc-transaction.h"
#include "fc-validate.h"
#include "fc-writer.h"
#include "fc-test-fixtures.h"
#include "fc-test-profiles.h"

#define E FC_PROBLEM_ERROR
#define W FC_PROBLEM_WARNING

static GPtrArray *
validate_fixture (const char *name)
{
  g_autoptr(FcDocument) document = fc_test_load_fixture (name);
  GPtrArray *problems = fc_validate_document (document);

  g_test_message ("%s:", name);
  fc_test_print_problems (problems);
  return problems;
}

/* What an SDK sends: Relay accepts both. */
static void
test_sdk_payloads (void)
{
  g_autoptr(GPtrArray) v2 = validate_fixture ("payloads/v2-cocoa.json");
  g_autoptr(GPtrArray) v1 = validate_fixture ("payloads/v1-cocoa.json");

  g_assert_false (fc_problems_has_errors (v2));
  fc_test_assert_problem (v2, W, "platform", "cocoa");
  fc_test_assert_problem (v2, W, "environment", "missing");

  g_assert_false (fc_problems_has_errors (v1));
  fc_test_assert_problem (v1, W, "platform", "cocoa");
  /* the transaction ran on thread 259, the samples are of thread 1 */
  fc_test_assert_problem (v1, W, "transactions[0].active_thread_id", "thread 259 has no samples");
  fc_test_assert_no_problem (v1, W, "transactions[0].segment_id", NULL);
  fc_test_assert_no_problem (v1, W, "transactions[0].relative_start_ns", NULL);
}

/* After-Relay files: complete ones pass, cut-down ones fail where they are
 * incomplete. */
static void
test_stored_payloads (void)
{
  g_autoptr(GPtrArray) node = validate_fixture ("payloads/v1-node-stored.json");
  g_autoptr(GPtrArray) cocoa2 = validate_fixture ("payloads/v2-cocoa-stored.json");
  g_autoptr(GPtrArray) android = validate_fixture ("payloads/v2-android.json");
  g_autoptr(GPtrArray) python2 = validate_fixture ("payloads/v2-python-cut.json");
  g_autoptr(GPtrArray) python1 = validate_fixture ("payloads/v1-python-stored.json");
  g_autoptr(GPtrArray) cocoa1 = validate_fixture ("payloads/v1-cocoa-symbolicated.json");

  /* node: complete, only the span id of the transaction is not there */
  g_assert_false (fc_problems_has_errors (node));
  fc_test_assert_problem (node, W, "transactions[0].segment_id", "missing");

  /* cocoa chunk: complete; measurements in hz are a known unit */
  g_assert_false (fc_problems_has_errors (cocoa2));
  fc_test_assert_no_problem (cocoa2, E, "measurements.cpu.unit", NULL);

  /* android sample-format chunk: accepted, but the platform misroutes it */
  g_assert_false (fc_problems_has_errors (android));
  fc_test_assert_problem (android, W, "platform", "Android trace");

  /* python chunk: one sample, and its stack points at frames 1..6 of 1
   * (the reader reports the first of each stack) */
  g_assert_true (fc_problems_has_errors (python2));
  fc_test_assert_problem (python2, E, "profile.samples", "not enough samples");
  fc_test_assert_problem (python2, E, "profile.stacks[0][1]", "frame 1");
  fc_test_assert_problem (python2, W, "thread 140230426244864", "Relay drops this thread");

  /* python V1: four threads with one sample each, stacks beyond the frames */
  g_assert_true (fc_problems_has_errors (python1));
  fc_test_assert_problem (python1, E, "profile.samples", "not enough samples");
  fc_test_assert_problem (python1, E, "profile.stacks[2][0]", "frame 8");
  fc_test_assert_problem (python1, W, "thread 140230393067200", "no thread_metadata");
  fc_test_assert_problem (python1, W, "transaction.relative_start_ns", "missing");
  fc_test_assert_no_problem (python1, E, "device.architecture", NULL);
  fc_test_assert_no_problem (python1, E, "timestamp", NULL);

  /* cocoa V1: frames 7..512 of 7, and a sample on stack 4 of 4 */
  g_assert_true (fc_problems_has_errors (cocoa1));
  fc_test_assert_problem (cocoa1, E, "profile.stacks[3][0]", "frame 512");
  fc_test_assert_problem (cocoa1, E, "profile.samples[3].stack_id", "only 4 stacks");
  fc_test_assert_no_problem (cocoa1, E, "transaction.active_thread_id", NULL);
}

/* The accepted fixtures stay accepted once put into their envelopes (a V1
 * profile with the transaction event made for it). */
static void
test_fixture_envelopes (void)
{
  static const char * const names[] = {
    "payloads/v1-cocoa.json", "payloads/v2-cocoa.json", "payloads/v1-node-stored.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(FcDocument) document = fc_test_load_fixture (names[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) bytes = fc_writer_write_envelope (document, &error);
      g_autoptr(FcDocument) envelope = NULL;
      g_autoptr(GPtrArray) problems = NULL;

      g_assert_no_error (error);
      envelope = fc_test_load_bytes (bytes);
      g_assert_cmpint (fc_document_get_kind (envelope), ==, FC_DOCUMENT_ENVELOPE);
      problems = fc_validate_document (envelope);
      g_test_message ("%s in an envelope:", names[i]);
      fc_test_print_problems (problems);
      g_assert_false (fc_problems_has_errors (problems));
      fc_test_assert_no_problem (problems, W, "transaction.id", "does not match");
    }
}

/* A V2 chunk that passes, to break one rule at a time. */
static FcProfile *
good_chunk (void)
{
  FcProfile *profile = fc_test_profile_new ();
  JsonObject *meta = fc_profile_get_meta (profile);

  json_object_set_string_member (meta, "version", "2");
  json_object_set_string_member (meta, "chunk_id", "0432a0a4c25f4697bf9f0a2fcbe6a814");
  json_object_set_string_member (meta, "profiler_id", "4d229f1d3807421ba62a5f8bc295d836");
  json_object_set_string_member (meta, "platform", "native");
  json_object_set_string_member (meta, "release", "app@1.0");
  json_object_set_string_member (meta, "environment", "production");
  fc_profile_take_client_sdk (profile, fc_client_sdk_new ("flamecast", "0.1.0"));
  fc_profile_set_thread_name (profile, 1, "worker");
  return profile;
}

static void
test_good_chunk (void)
{
  g_autoptr(FcProfile) profile = good_chunk ();
  g_autoptr(GPtrArray) problems = fc_validate_profile (profile);

  fc_test_print_problems (problems);
  g_assert_cmpuint (problems->len, ==, 0);
}

static void
test_chunk_ids_and_header (void)
{
  g_autoptr(FcProfile) profile = good_chunk ();
  JsonObject *meta = fc_profile_get_meta (profile);
  g_autoptr(GPtrArray) problems = NULL;

  json_object_set_int_member (meta, "version", 2);
  json_object_set_string_member (meta, "chunk_id", "not-a-uuid");
  json_object_set_string_member (meta, "profiler_id", "4D229F1D-3807-421B-A62A-5F8BC295D836");
  json_object_remove_member (meta, "platform");
  json_object_remove_member (meta, "environment");
  fc_profile_take_client_sdk (profile, fc_client_sdk_new (NULL, NULL));

  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, E, "version", "\"2\"");
  fc_test_assert_problem (problems, E, "chunk_id", "not a UUID");
  fc_test_assert_problem (problems, W, "profiler_id", "lowercase");
  fc_test_assert_no_problem (problems, E, "profiler_id", NULL);
  fc_test_assert_problem (problems, E, "platform", "missing");
  fc_test_assert_problem (problems, E, "client_sdk.name", NULL);
  fc_test_assert_problem (problems, E, "client_sdk.version", NULL);
  fc_test_assert_problem (problems, W, "environment", "recommended");
}

static void
test_chunk_debug_images_measurements (void)
{
  g_autoptr(FcProfile) profile = good_chunk ();
  JsonObject *meta = fc_profile_get_meta (profile);
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *extra;

  json_parser_load_from_data (parser,
                              "{\"debug_meta\":{\"images\":[{\"type\":\"symbolic\"},{\"type\":\"elf\"},{}]},"
                              " \"measurements\":{\"cpu\":{\"unit\":\"hz\",\"values\":[{\"timestamp\":1.5,\"value\":3}]},"
                              "   \"mem\":{\"unit\":\"megabyte\",\"values\":[{\"value\":3}]}}}", -1, &error);
  g_assert_no_error (error);
  extra = json_node_get_object (json_parser_get_root (parser));
  json_object_set_member (meta, "debug_meta", json_node_copy (json_object_get_member (extra, "debug_meta")));
  json_object_set_member (meta, "measurements", json_node_copy (json_object_get_member (extra, "measurements")));
  fc_chunk_meta_read (profile);

  problems = fc_validate_profile (profile);
  fc_test_assert_no_problem (problems, E, "debug_meta.images[0].type", NULL);
  fc_test_assert_problem (problems, E, "debug_meta.images[1].type", "use \"symbolic\"");
  fc_test_assert_problem (problems, E, "debug_meta.images[2].type", "missing");
  fc_test_assert_no_problem (problems, E, "measurements.cpu.unit", NULL);
  fc_test_assert_problem (problems, E, "measurements.mem.unit", "megabyte");
  fc_test_assert_problem (problems, E, "measurements.mem.values[0]", "timestamp missing");
}

/* a debug_meta the reader cannot type stays as it was, and is named */
static void
test_chunk_debug_meta_untyped (void)
{
  static const char * const shapes[] = { "[]", "{\"images\":{}}", "{\"images\":[{},3]}" };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      g_autoptr(FcProfile) profile = good_chunk ();
      g_autoptr(GPtrArray) problems = NULL;
      g_autoptr(JsonNode) node = json_from_string (shapes[i], NULL);

      json_object_set_member (fc_profile_get_meta (profile), "debug_meta", json_node_copy (node));
      fc_chunk_meta_read (profile);
      g_assert_null (fc_profile_get_images (profile));
      g_assert_true (json_node_equal (fc_chunk_meta_get_untyped_debug_meta (profile), node));
      problems = fc_validate_profile (profile);
      fc_test_assert_problem (problems, E, "debug_meta", "array of objects");
    }
}

static void
test_chunk_samples (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) empty = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) none = NULL;
  FcFrame frame;
  guint32 f, stack, t0, t1;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (profile, "work");
  f = fc_profile_intern_frame (profile, &frame);
  stack = fc_profile_intern_stack_frames (profile, &f, 1);
  t0 = fc_profile_ensure_thread (profile, "1");
  t1 = fc_profile_ensure_thread (profile, "2");
  /* thread 1: one non-empty sample and empty ones; thread 2: two samples 70 s apart */
  fc_profile_append_sample (profile, FC_TEST_BASE_NS, t0, stack, 0);
  fc_profile_append_sample (profile, FC_TEST_BASE_NS + FC_TEST_MS, t0, FC_STACK_EMPTY, 0);
  fc_profile_append_sample (profile, FC_TEST_BASE_NS + 2 * FC_TEST_MS, t0, FC_STACK_EMPTY, 0);
  fc_profile_append_sample (profile, FC_TEST_BASE_NS, t1, stack, 0);
  fc_profile_append_sample (profile, FC_TEST_BASE_NS + 70000 * FC_TEST_MS, t1, stack, 0);
  fc_profile_finish (profile);

  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, W, "thread 1", "1 sample with a non-empty stack");
  fc_test_assert_no_problem (problems, W, "thread 2", "Relay drops");
  fc_test_assert_no_problem (problems, E, "profile.samples", "not enough samples");
  fc_test_assert_problem (problems, E, "profile.samples", "70.000 s");
  fc_test_assert_problem (problems, W, "thread 2", "no thread_metadata");

  none = fc_validate_profile (empty);
  fc_test_assert_problem (none, E, "profile.samples", "empty");
}

static FcProfile *
good_v1 (void)
{
  FcProfile *profile = good_chunk ();
  JsonObject *meta = fc_profile_get_meta (profile);
  JsonObject *device = json_object_new ();
  JsonObject *os = json_object_new ();
  JsonObject *txn = json_object_new ();

  fc_profile_set_format (profile, FC_FORMAT_V1);
  fc_profile_set_start_ns (profile, FC_TEST_BASE_NS);
  json_object_remove_member (meta, "chunk_id");
  json_object_remove_member (meta, "profiler_id");
  json_object_set_string_member (meta, "version", "1");
  json_object_set_string_member (meta, "event_id", "41fed0925670468bb0457f61a74688ec");
  json_object_set_string_member (meta, "timestamp", "2023-11-14T22:13:20Z");
  json_object_set_string_member (device, "architecture", "x86_64");
  json_object_set_object_member (meta, "device", device);
  json_object_set_string_member (os, "name", "Linux");
  json_object_set_string_member (os, "version", "6.1");
  json_object_set_object_member (meta, "os", os);
  json_object_set_string_member (txn, "id", "30976f2ddbe04ac9b6bffe6e35d4710c");
  json_object_set_string_member (txn, "name", "work");
  json_object_set_string_member (txn, "trace_id", "4b25bc58f14243d8b208d1e22a054164");
  json_object_set_string_member (txn, "active_thread_id", "1");
  json_object_set_string_member (txn, "relative_start_ns", "0");
  json_object_set_string_member (txn, "relative_end_ns", "200000000");
  json_object_set_string_member (txn, "segment_id", "bd2eb23da2beb459");
  json_object_set_object_member (meta, "transaction", txn);
  return profile;
}

static void
test_good_v1 (void)
{
  g_autoptr(FcProfile) profile = good_v1 ();
  g_autoptr(GPtrArray) problems = fc_validate_profile (profile);

  fc_test_print_problems (problems);
  g_assert_cmpuint (problems->len, ==, 0);
}

/* Found by fuzz/fuzz-payload: a year GDateTime takes but nanoseconds since
 * the epoch cannot hold overflowed a gint64 (UBSan). */
static void
test_v1_timestamp_out_of_range (void)
{
  g_autoptr(FcProfile) profile = good_v1 ();
  g_autoptr(GPtrArray) problems = NULL;

  json_object_set_string_member (fc_profile_get_meta (profile), "timestamp", "4044-09-01T09:45:00.000Z");
  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, E, "timestamp", "RFC 3339");
}

static void
test_v1_required (void)
{
  g_autoptr(FcProfile) profile = good_v1 ();
  JsonObject *meta = fc_profile_get_meta (profile);
  JsonObject *txn = fc_profile_get_transaction (profile);
  g_autoptr(GPtrArray) problems = NULL;

  json_object_set_string_member (meta, "timestamp", "14/11/2023");
  json_object_set_object_member (meta, "device", json_object_new ());
  json_object_remove_member (json_object_get_object_member (meta, "os"), "version");
  json_object_remove_member (meta, "event_id");
  json_object_set_string_member (txn, "active_thread_id", "0x1f");
  json_object_remove_member (txn, "trace_id");
  json_object_set_string_member (txn, "relative_end_ns", "0");
  json_object_set_string_member (txn, "segment_id", "xyz");

  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, E, "timestamp", "RFC 3339");
  fc_test_assert_problem (problems, E, "device.architecture", NULL);
  fc_test_assert_problem (problems, E, "os.version", NULL);
  fc_test_assert_no_problem (problems, E, "os.name", NULL);
  fc_test_assert_problem (problems, E, "event_id", "missing");
  fc_test_assert_problem (problems, E, "transaction.active_thread_id", "decimal");
  fc_test_assert_problem (problems, E, "transaction.trace_id", "missing");
  fc_test_assert_problem (problems, W, "transaction.relative_end_ns", "not after");
  fc_test_assert_problem (problems, W, "transaction.segment_id", "16-hex-digit");

  json_object_remove_member (meta, "transaction");
  g_clear_pointer (&problems, g_ptr_array_unref);
  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, E, "transaction", "missing");
}

static void
test_v1_samples (void)
{
  g_autoptr(FcProfile) profile = good_v1 ();
  g_autoptr(FcProfile) hex = fc_profile_new (FC_FORMAT_V1);
  g_autoptr(GPtrArray) problems = NULL;
  FcFrame frame;
  guint32 f, t;

  /* 31 s after the start: Relay's 30 s limit */
  fc_test_sample (profile, 0, 31000, 1, FC_TEST_MAIN);
  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, E, "profile.samples", "longer than 30 s");
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* a sample before the timestamp */
  fc_profile_set_start_ns (profile, FC_TEST_BASE_NS + FC_TEST_MS);
  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, E, "profile.samples", "before the profile timestamp");
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* hex thread ids and a single sample */
  fc_frame_init (&frame);
  frame.function = fc_profile_intern (hex, "work");
  f = fc_profile_intern_frame (hex, &frame);
  t = fc_profile_ensure_thread (hex, "0x7f00");
  fc_profile_set_start_ns (hex, FC_TEST_BASE_NS);
  fc_profile_append_sample (hex, FC_TEST_BASE_NS, t, fc_profile_intern_stack_frames (hex, &f, 1), 0);
  problems = fc_validate_profile (hex);
  fc_test_assert_problem (problems, E, "thread 0x7f00", "decimal");
  fc_test_assert_problem (problems, E, "profile.samples", "at least 2");
}

static void
test_envelope_rules (void)
{
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_ENVELOPE);
  g_autoptr(FcProfile) v1 = good_v1 ();
  g_autoptr(FcProfile) chunk = good_chunk ();
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(JsonObject) event = NULL;
  g_autoptr(JsonObject) header = json_object_new ();

  json_object_set_string_member (header, "sent_at", "yesterday");
  fc_document_set_envelope_header (document, header);
  fc_document_add_profile (document, v1);
  fc_document_add_profile (document, chunk);

  problems = fc_validate_document (document);
  fc_test_assert_problem (problems, E, "envelope", "at most one");
  fc_test_assert_problem (problems, E, "envelope", "0 transaction items");
  fc_test_assert_problem (problems, W, "envelope header.sent_at", "RFC 3339");
  /* each profile's problems are prefixed with its index */
  fc_test_assert_no_problem (problems, E, "profile 0: version", NULL);
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* a proper pair: the transaction event made for the profile */
  g_clear_object (&document);
  document = fc_document_new (FC_DOCUMENT_ENVELOPE);
  fc_document_add_profile (document, v1);
  event = fc_transaction_event_new_for_profile (v1);
  fc_document_add_transaction (document, event);
  problems = fc_validate_document (document);
  fc_test_print_problems (problems);
  g_assert_false (fc_problems_has_errors (problems));
  fc_test_assert_no_problem (problems, W, "transaction.id", NULL);
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* a transaction without sdk or span id, whose id is not the profile's */
  json_object_remove_member (event, "sdk");
  json_object_set_string_member (json_object_get_object_member (json_object_get_object_member (event, "contexts"),
                                                                "trace"), "span_id", "123");
  json_object_set_string_member (event, "event_id", "ffffffffffffffffffffffffffffffff");
  json_object_set_double_member (event, "start_timestamp", 2e9);
  problems = fc_validate_document (document);
  fc_test_assert_problem (problems, E, "transaction 0: sdk", NULL);
  fc_test_assert_problem (problems, E, "transaction 0: contexts.trace.span_id", "16 hex");
  fc_test_assert_problem (problems, E, "transaction 0: timestamp", "before start_timestamp");
  fc_test_assert_problem (problems, W, "transaction.id", "does not match");
}

static void
test_size_limit (void)
{
  g_autoptr(FcProfile) profile = good_chunk ();
  g_autoptr(GPtrArray) problems = NULL;

  fc_profile_set_source_size (profile, FC_VALIDATE_MAX_PAYLOAD_SIZE + 1);
  problems = fc_validate_profile (profile);
  fc_test_assert_problem (problems, E, "profile", "50 MiB");
}

/* A chunk without release is an error (V2 requires it, every official SDK
 * sends one); --strict makes the spec's RECOMMENDED fields errors too. */
static void
test_release_and_strict (void)
{
  g_autoptr(FcProfile) profile = good_chunk ();
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(GPtrArray) plain = NULL;
  g_autoptr(GPtrArray) strict = NULL;
  g_autoptr(GPtrArray) no_release = NULL;
  JsonObject *meta = fc_profile_get_meta (profile);

  json_object_remove_member (meta, "environment");
  json_object_set_string_member (meta, "profiler_id", "4D229F1D-3807-421B-A62A-5F8BC295D836");
  fc_document_add_profile (doc, profile);

  plain = fc_validate_document (doc);
  fc_test_assert_problem (plain, W, "environment", "recommended");
  fc_test_assert_problem (plain, W, "profiler_id", "lowercase");
  g_assert_false (fc_problems_has_errors (plain));

  strict = fc_validate_document_full (doc, FC_VALIDATE_STRICT);
  fc_test_assert_problem (strict, E, "environment", "recommended");
  fc_test_assert_problem (strict, E, "profiler_id", "lowercase");
  g_assert_cmpuint (strict->len, ==, plain->len);

  json_object_remove_member (meta, "release");
  no_release = fc_validate_profile (profile);
  fc_test_assert_problem (no_release, E, "release", "requires the release");
}

/* The reader and the validator accept and reject the same timestamps:
 * a V1 profile whose timestamp the strict reader refuses is exactly one
 * whose (lenient) reading the validator reports at "timestamp". */
static void
test_timestamps_agree (void)
{
  static const char * const stamps[] = {
    "2022-09-01T09:45:00.000Z", "2022-09-01T11:45:00+02:00", "2022-09-01 09:45:00z",
    "2022-09-01T09:45:00.123456789Z", "2022-09-01T09:45:00+0200",
    "2022-09-01T09:45:00", "2022-09-01T09:45:00.000", "20220901T094500Z", "2022-W35-4T09:45:00Z",
    "2022-09-31T09:45:00Z", "1969-12-31T23:59:59Z", "yesterday", "",
  };
  g_autofree char *path = fc_test_fixture_path ("payloads/v1-cocoa.json");
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  guint n_accepted = 0;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (stamps); i++)
    {
      g_autofree char *quoted = g_strdup_printf ("\"timestamp\": \"%s\"", stamps[i]);
      g_auto(GStrv) parts = g_strsplit (contents, "\"timestamp\": \"2024-03-05T14:30:00.000Z\"", 2);
      g_autofree char *text = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(FcDocument) strict = NULL;
      g_autoptr(FcDocument) lenient = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      g_autoptr(GError) strict_error = NULL;
      gboolean validator_ok = TRUE;

      g_assert_cmpuint (g_strv_length (parts), ==, 2);
      text = g_strjoin (quoted, parts[0], parts[1], NULL);
      bytes = g_bytes_new_take (g_steal_pointer (&text), strlen (parts[0]) + strlen (quoted) + strlen (parts[1]));

      strict = fc_reader_load_bytes (bytes, FC_READ_FLAGS_NONE, &strict_error);
      lenient = fc_reader_load_bytes (bytes, FC_READ_LENIENT, &error);
      g_assert_no_error (error);
      problems = fc_validate_document (lenient);
      for (guint j = 0; j < problems->len; j++)
        {
          const FcProblem *p = g_ptr_array_index (problems, j);

          if (p->severity == FC_PROBLEM_ERROR && g_strcmp0 (p->location, "timestamp") == 0)
            validator_ok = FALSE;
        }

      g_test_message ("%s: reader %s, validator %s", stamps[i], strict ? "accepts" : "rejects",
                      validator_ok ? "accepts" : "rejects");
      g_assert_cmpint (strict != NULL, ==, validator_ok);
      if (strict == NULL)
        g_assert_error (strict_error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TYPE);
      n_accepted += strict != NULL;
    }

  /* the five RFC 3339 forms, nothing else */
  g_assert_cmpuint (n_accepted, ==, 5);
}

#define CHUNK_HEAD "{\"version\":\"2\",\"chunk_id\":\"0432a0a4c25f4697bf9f0a2fcbe6a814\"," \
                   "\"profiler_id\":\"4d229f1d3807421ba62a5f8bc295d836\",\"release\":\"1.0\"," \
                   "\"environment\":\"test\",\"client_sdk\":{\"name\":\"sentry.python\",\"version\":\"2.13.0\"},"

static FcDocument *
read_text (const char   *text,
           FcReadFlags   flags,
           GError      **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

  return fc_reader_load_bytes (bytes, flags, error);
}

/* Relay's deserializer refuses a field given twice; json-glib and the
 * reader kept the last one and `validate` passed. Now: an error located at
 * the key when reading leniently (the last value is kept, so the file still
 * opens), a failure when reading strictly. */
static void
test_duplicate_keys (void)
{
  static const char chunk[] =
    CHUNK_HEAD "\"platform\":\"python\",\"platform\":\"cocoa\",\"profile\":{\"samples\":["
    "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.5,\"timestamp\":1710805788.6},"
    "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":1710805788.51}],\"stacks\":[[0]],"
    "\"frames\":[{\"function\":\"a\",\"function\":\"main\",\"x\":1,\"x\":2}]}}";
  static const char envelope[] =
    "{\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dc\",\"event_id\":\"9ec79c33ec9942ab8353589fcb2e04dd\"}\n"
    "{\"type\":\"transaction\",\"type\":\"transaction\"}\n"
    "{\"type\":\"transaction\",\"contexts\":{\"trace\":{\"op\":\"a\",\"op\":\"b\"}}}\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = read_text (chunk, FC_READ_LENIENT, &error);
  g_autoptr(FcDocument) strict = NULL;
  g_autoptr(FcDocument) env = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) env_problems = NULL;
  FcProfile *profile;
  const FcFrame *frame;

  g_assert_no_error (error);
  problems = fc_validate_document (doc);
  fc_test_print_problems (problems);
  fc_test_assert_problem (problems, E, "platform", "given twice");
  fc_test_assert_problem (problems, E, "profile.samples[0].timestamp", "given twice");
  fc_test_assert_problem (problems, E, "profile.frames[0].function", "given twice");
  fc_test_assert_problem (problems, E, "profile.frames[0].x", "given twice");
  /* the last value is the one kept */
  profile = fc_document_get_profile (doc, 0);
  g_assert_cmpstr (fc_profile_get_platform (profile), ==, "cocoa");
  frame = fc_profile_get_frame (profile, fc_profile_get_stack (profile, fc_profile_get_samples (profile, NULL)[0].stack)->frame);
  g_assert_cmpstr (fc_profile_string (profile, frame->function), ==, "main");

  strict = read_text (chunk, FC_READ_FLAGS_NONE, &error);
  g_assert_null (strict);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX);
  g_assert_nonnull (strstr (error->message, "platform: the key is given twice"));
  g_clear_error (&error);

  /* envelope and item headers, and the transaction */
  env = read_text (envelope, FC_READ_LENIENT, &error);
  g_assert_no_error (error);
  env_problems = fc_validate_document (env);
  fc_test_print_problems (env_problems);
  fc_test_assert_problem (env_problems, E, "envelope header", "\"event_id\" is given twice");
  fc_test_assert_problem (env_problems, E, "envelope item 1", "\"type\" is given twice");
  fc_test_assert_problem (env_problems, E, "envelope item 1", "\"contexts.trace.op\" is given twice");
}

/* JSON's -0 is zero, as for Relay: a timestamp of -0 was "absurd" while 0
 * was fine; a thread id -0 is thread 0. Below zero is still refused. */
static void
test_negative_zero (void)
{
  static const char * const zeros[] = { "-0", "-0.0", "-0e3", "-0.000E-2" };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (zeros); i++)
    {
      g_autofree char *text = g_strdup_printf (
        CHUNK_HEAD "\"platform\":\"python\",\"profile\":{\"samples\":["
        "{\"stack_id\":-0,\"thread_id\":-0,\"timestamp\":%s},{\"stack_id\":0,\"thread_id\":0,\"timestamp\":0.01}],"
        "\"stacks\":[[0]],\"frames\":[{\"function\":\"main\"}]}}", zeros[i]);
      /* lenient: V2 wants thread ids as strings, which is another problem */
      g_autoptr(FcDocument) doc = read_text (text, FC_READ_LENIENT, &error);
      FcProfile *profile;
      guint n = 0;
      const FcSample *samples;

      g_assert_no_error (error);
      profile = fc_document_get_profile (doc, 0);
      samples = fc_profile_get_samples (profile, &n);
      g_assert_cmpuint (n, ==, 2);
      g_assert_cmpint (samples[0].timestamp_ns, ==, 0);
      /* one thread, "0" */
      g_assert_cmpuint (fc_profile_get_n_threads (profile), ==, 1);
      g_assert_cmpstr (fc_profile_string (profile, fc_profile_get_thread (profile, 0)->tid), ==, "0");
    }

  {
    g_autoptr(FcDocument) doc = read_text (CHUNK_HEAD "\"platform\":\"python\",\"profile\":{\"samples\":["
                                           "{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":-0.5}],"
                                           "\"stacks\":[[0]],\"frames\":[{\"function\":\"main\"}]}}",
                                           FC_READ_FLAGS_NONE, &error);

    g_assert_null (doc);
    g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE);
    g_assert_nonnull (strstr (error->message, "profile.samples[0].timestamp"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/validate/sdk-payloads", test_sdk_payloads);
  g_test_add_func ("/core/validate/stored-payloads", test_stored_payloads);
  g_test_add_func ("/core/validate/fixture-envelopes", test_fixture_envelopes);
  g_test_add_func ("/core/validate/good-chunk", test_good_chunk);
  g_test_add_func ("/core/validate/chunk-ids-and-header", test_chunk_ids_and_header);
  g_test_add_func ("/core/validate/chunk-debug-images-measurements", test_chunk_debug_images_measurements);
  g_test_add_func ("/core/validate/debug-meta-untyped", test_chunk_debug_meta_untyped);
  g_test_add_func ("/core/validate/chunk-samples", test_chunk_samples);
  g_test_add_func ("/core/validate/good-v1", test_good_v1);
  g_test_add_func ("/core/validate/v1-required", test_v1_required);
  g_test_add_func ("/core/validate/v1-timestamp-out-of-range", test_v1_timestamp_out_of_range);
  g_test_add_func ("/core/validate/v1-samples", test_v1_samples);
  g_test_add_func ("/core/validate/envelope-rules", test_envelope_rules);
  g_test_add_func ("/core/validate/size-limit", test_size_limit);
  g_test_add_func ("/core/validate/timestamps-agree", test_timestamps_agree);
  g_test_add_func ("/core/validate/release-and-strict", test_release_and_strict);
  g_test_add_func ("/core/validate/duplicate-keys", test_duplicate_keys);
  g_test_add_func ("/core/validate/negative-zero", test_negative_zero);

  return g_test_run ();
}
