/* test-convert.c - V1 <-> V2 conversion
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "flamecast.h"
#include "fc-convert.h"
#include "fc-reader.h"
#include "fc-transaction.h"
#include "fc-validate.h"
#include "fc-writer.h"
#include "fc-test-fixtures.h"
#include "fc-test-profiles.h"

static FcProfile *
write_and_read (FcProfile *profile)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_writer_write_profile (profile, &error);
  g_autoptr(FcDocument) document = NULL;

  g_assert_no_error (error);
  document = fc_test_load_bytes (bytes);
  g_assert_cmpuint (fc_document_get_n_profiles (document), ==, 1);
  return g_object_ref (fc_document_get_profile (document, 0));
}

static void
assert_no_errors (FcProfile *profile)
{
  g_autoptr(GPtrArray) problems = fc_validate_profile (profile);

  fc_test_print_problems (problems);
  g_assert_false (fc_problems_has_errors (problems));
}

static void
test_v1_to_v2_node (void)
{
  g_autoptr(FcDocument) document = fc_test_load_fixture ("payloads/v1-node-stored.json");
  FcProfile *v1 = fc_document_get_profile (document, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProfile) v2 = fc_convert_v1_to_v2 (v1, &error);
  g_autoptr(FcProfile) reread = NULL;
  g_autoptr(GString) why = g_string_new (NULL);
  gboolean canonical = FALSE;
  const FcSample *samples;

  g_assert_no_error (error);
  g_assert_cmpint (fc_profile_get_format (v2), ==, FC_FORMAT_V2);
  g_assert_true (fc_uuid_is_valid (fc_profile_get_chunk_id (v2), &canonical));
  g_assert_true (canonical);
  g_assert_true (fc_uuid_is_valid (fc_profile_get_profiler_id (v2), &canonical));
  g_assert_cmpstr (fc_profile_get_chunk_id (v2), !=, fc_profile_get_profiler_id (v2));
  g_assert_cmpstr (fc_profile_get_platform (v2), ==, "node");
  g_assert_cmpstr (fc_profile_get_release (v2), ==, "shop-web@3.1.4");
  g_assert_null (fc_profile_get_transaction (v2));
  g_assert_null (fc_profile_get_event_id (v2));

  /* absolute timestamps: 2024-06-12T08:15:30.250Z + 55 µs for the first */
  samples = fc_profile_get_samples (v2, NULL);
  g_assert_cmpint (samples[0].timestamp_ns, ==, G_GINT64_CONSTANT (1718180130250000000) + 55000);
  g_assert_true (fc_profile_equal_samples (v1, v2, why));

  /* and it is a chunk Relay takes, that reads back the same */
  reread = write_and_read (v2);
  g_assert_true (fc_profile_equal_samples (v1, reread, why));
  g_assert_cmpint (fc_profile_get_format (reread), ==, FC_FORMAT_V2);
  assert_no_errors (reread);
}

static void
test_v1_measurements (void)
{
  g_autoptr(FcProfile) v1 = fc_test_profile_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProfile) v2 = NULL;
  JsonObject *m;
  JsonArray *values;

  fc_profile_set_format (v1, FC_FORMAT_V1);
  fc_profile_set_start_ns (v1, FC_TEST_BASE_NS);
  json_parser_load_from_data (parser,
                              "{\"cpu\":{\"unit\":\"percent\",\"values\":["
                              "{\"elapsed_since_start_ns\":\"500000000\",\"value\":12.5}]}}", -1, &error);
  g_assert_no_error (error);
  json_object_set_member (fc_profile_get_meta (v1), "measurements",
                          json_node_copy (json_parser_get_root (parser)));

  v2 = fc_convert_v1_to_v2 (v1, &error);
  g_assert_no_error (error);
  m = json_object_get_object_member (json_object_get_object_member (fc_profile_get_meta (v2), "measurements"),
                                     "cpu");
  g_assert_cmpstr (json_object_get_string_member (m, "unit"), ==, "percent");
  values = json_object_get_array_member (m, "values");
  g_assert_cmpuint (json_array_get_length (values), ==, 1);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_array_get_object_element (values, 0),
                                                                 "timestamp"), 1700000000.5, 1e-6);
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (values, 0), "value"),
                     ==, 12.5);

  /* converting a V2 to V2 is refused */
  g_clear_object (&v1);
  v1 = fc_convert_v1_to_v2 (v2, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED);
  g_assert_null (v1);
}

/* A V2 chunk with decimal thread ids converts to one V1 profile with the
 * same samples and a transaction that matches its event. */
static void
test_v2_to_v1_android (void)
{
  g_autoptr(FcDocument) document = fc_test_load_fixture ("payloads/v2-android.json");
  FcProfile *v2 = fc_document_get_profile (document, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) v1s = fc_convert_v2_to_v1 (v2, "checkout", FALSE, &error);
  g_autoptr(GString) why = g_string_new (NULL);
  g_autoptr(FcProfile) reread = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
  FcProfile *v1;
  JsonObject *txn;
  JsonObject *event;
  JsonObject *trace;

  g_assert_no_error (error);
  g_assert_cmpuint (v1s->len, ==, 1);
  v1 = g_ptr_array_index (v1s, 0);
  g_assert_cmpint (fc_profile_get_format (v1), ==, FC_FORMAT_V1);
  g_assert_true (fc_profile_equal_samples (v2, v1, why));

  txn = fc_profile_get_transaction (v1);
  g_assert_cmpstr (json_object_get_string_member (txn, "name"), ==, "checkout");
  /* thread "1" has 3 samples, thread "2" has 2 */
  g_assert_cmpstr (json_object_get_string_member (txn, "active_thread_id"), ==, "1");
  g_assert_cmpstr (json_object_get_string_member (txn, "relative_start_ns"), ==, "0");
  g_assert_cmpstr (json_object_get_string_member (txn, "relative_end_ns"), ==, "20000000");
  g_assert_true (fc_hex_is_valid (json_object_get_string_member (txn, "segment_id"), 16));
  g_assert_cmpint (fc_profile_get_start_ns (v1), ==, fc_profile_get_samples (v2, NULL)[0].timestamp_ns);

  event = fc_profile_get_linked_event (v1);
  g_assert_nonnull (event);
  trace = json_object_get_object_member (json_object_get_object_member (event, "contexts"), "trace");
  g_assert_cmpstr (json_object_get_string_member (event, "event_id"), ==,
                   json_object_get_string_member (txn, "id"));
  g_assert_cmpstr (json_object_get_string_member (trace, "trace_id"), ==,
                   json_object_get_string_member (txn, "trace_id"));
  g_assert_cmpstr (json_object_get_string_member (trace, "span_id"), ==,
                   json_object_get_string_member (txn, "segment_id"));
  g_assert_cmpstr (json_object_get_string_member (event, "transaction"), ==, "checkout");
  fc_validate_transaction (event, "transaction", problems);
  fc_test_print_problems (problems);
  g_assert_false (fc_problems_has_errors (problems));

  reread = write_and_read (v1);
  g_assert_true (fc_profile_equal_samples (v2, reread, why));
  assert_no_errors (reread);
}

/* Hex thread ids become decimal. */
static void
test_v2_to_v1_hex_threads (void)
{
  g_autoptr(FcDocument) document = fc_test_load_fixture ("payloads/v2-cocoa.json");
  FcProfile *v2 = fc_document_get_profile (document, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) v1s = fc_convert_v2_to_v1 (v2, NULL, FALSE, &error);
  FcProfile *v1;
  const FcThread *thread;

  g_assert_no_error (error);
  v1 = g_ptr_array_index (v1s, 0);
  g_assert_cmpuint (fc_profile_get_n_threads (v1), ==, 1);
  thread = fc_profile_get_thread (v1, 0);
  /* 0x00000001045f0c80 */
  g_assert_cmpstr (fc_profile_string (v1, thread->tid), ==, "4368305280");
  g_assert_cmpstr (fc_profile_string (v1, thread->name), ==, "com.apple.main-thread");
  g_assert_cmpstr (json_object_get_string_member (fc_profile_get_transaction (v1), "name"), ==, "flamecast");
  assert_no_errors (v1);
}

/* 70 s of samples on two threads, every 100 ms */
static FcProfile *
long_chunk (void)
{
  FcProfile *profile = fc_test_profile_new ();
  guint32 t0 = 0, t1 = 1;

  for (gint64 ms = 300; ms < 70000; ms += 100)
    {
      fc_test_sample (profile, t0, ms, 2, FC_TEST_MAIN, FC_TEST_FOO);
      if (ms % 200 == 0)
        fc_test_sample (profile, t1, ms, 2, FC_TEST_MAIN, FC_TEST_BAZ);
    }
  fc_profile_set_meta_string (profile, "platform", "native");
  return profile;
}

static void
test_v2_to_v1_split (void)
{
  g_autoptr(FcProfile) v2 = long_chunk ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) refused = fc_convert_v2_to_v1 (v2, "long", FALSE, &error);
  g_autoptr(GPtrArray) v1s = NULL;
  guint n_samples = 0;
  gint64 previous_end = G_MININT64;

  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "69.900 s"));
  g_assert_nonnull (strstr (error->message, "30 s"));
  g_clear_error (&error);

  v1s = fc_convert_v2_to_v1 (v2, "long", TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (v1s->len, ==, 3);
  for (guint i = 0; i < v1s->len; i++)
    {
      FcProfile *v1 = g_ptr_array_index (v1s, i);
      gint64 first, last;
      g_autoptr(FcProfile) reread = NULL;
      g_autoptr(GString) why = g_string_new (NULL);

      fc_profile_get_time_range (v1, &first, &last);
      g_assert_cmpint (first, >, previous_end);
      g_assert_cmpint (first, ==, fc_profile_get_start_ns (v1));
      g_assert_cmpint (last - first, <, G_GINT64_CONSTANT (30000000000));
      previous_end = last;
      n_samples += fc_profile_get_n_samples (v1);
      /* the main thread is the busiest in every window */
      g_assert_cmpstr (json_object_get_string_member (fc_profile_get_transaction (v1), "active_thread_id"),
                       ==, "1");
      assert_no_errors (v1);
      reread = write_and_read (v1);
      g_assert_true (fc_profile_equal_samples (v1, reread, why));
    }
  g_assert_cmpuint (n_samples, ==, fc_profile_get_n_samples (v2));
  /* new ids for every pair */
  g_assert_cmpstr (fc_profile_get_event_id (g_ptr_array_index (v1s, 0)), !=,
                   fc_profile_get_event_id (g_ptr_array_index (v1s, 1)));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/convert/v1-to-v2-node", test_v1_to_v2_node);
  g_test_add_func ("/core/convert/v1-measurements", test_v1_measurements);
  g_test_add_func ("/core/convert/v2-to-v1-android", test_v2_to_v1_android);
  g_test_add_func ("/core/convert/v2-to-v1-hex-threads", test_v2_to_v1_hex_threads);
  g_test_add_func ("/core/convert/v2-to-v1-split", test_v2_to_v1_split);

  return g_test_run ();
}
