/* test-writer.c - V2, V1 and envelope writers: round trips, shapes, stable bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "flamecast.h"
#include "fc-reader.h"
#include "fc-transaction.h"
#include "fc-writer.h"
#include "fc-test-fixtures.h"
#include "fc-test-profiles.h"

static JsonObject *
parse_object (GBytes *bytes)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);

  json_parser_load_from_data (parser, data, len, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
assert_bytes_equal (GBytes *a,
                    GBytes *b)
{
  if (!g_bytes_equal (a, b))
    {
      g_test_message ("first:  %.*s", (int) g_bytes_get_size (a), (const char *) g_bytes_get_data (a, NULL));
      g_test_message ("second: %.*s", (int) g_bytes_get_size (b), (const char *) g_bytes_get_data (b, NULL));
      g_assert_not_reached ();
    }
}

static FcProfile *
reread_single (GBytes *bytes)
{
  g_autoptr(FcDocument) document = fc_test_load_bytes (bytes);

  g_assert_cmpuint (fc_document_get_n_profiles (document), ==, 1);
  return g_object_ref (fc_document_get_profile (document, 0));
}

/* Every readable fixture: read -> write -> read gives the same samples
 * (thread, timestamp to the µs, frame sequence), keeps every metadata key,
 * and writing again gives the same bytes (extras survive). */
static void
test_round_trip_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fc_test_readable_fixtures); i++)
    {
      g_autoptr(FcDocument) document = fc_test_load_fixture (fc_test_readable_fixtures[i]);
      FcProfile *original = fc_document_get_profile (document, 0);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) first = NULL;
      g_autoptr(GBytes) second = NULL;
      g_autoptr(FcProfile) reread = NULL;
      g_autoptr(GString) why = g_string_new (NULL);
      GList *keys;

      g_test_message ("fixture %s", fc_test_readable_fixtures[i]);
      first = fc_writer_write_profile_full (original, FC_WRITE_KEEP_CLIENT_SDK, &error);
      g_assert_no_error (error);
      reread = reread_single (first);

      g_assert_cmpint (fc_profile_get_format (reread), ==, fc_profile_get_format (original));
      if (!fc_profile_equal_samples (original, reread, why))
        g_error ("%s: %s", fc_test_readable_fixtures[i], why->str);

      /* every top-level key comes back with the same value */
      keys = json_object_get_members (fc_profile_get_meta (original));
      for (GList *l = keys; l != NULL; l = l->next)
        {
          JsonNode *a = json_object_get_member (fc_profile_get_meta (original), l->data);
          JsonNode *b = json_object_get_member (fc_profile_get_meta (reread), l->data);

          g_test_message ("  key %s", (const char *) l->data);
          g_assert_nonnull (b);
          if (g_strcmp0 (l->data, "timestamp") == 0 && fc_profile_get_format (original) == FC_FORMAT_V1)
            g_assert_cmpint (fc_profile_get_start_ns (reread), ==, fc_profile_get_start_ns (original));
          else
            g_assert_true (json_node_equal (a, b));
        }
      g_list_free (keys);

      /* named threads with samples keep their names */
      for (guint t = 0; t < fc_profile_get_n_threads (original); t++)
        {
          const FcThread *thread = fc_profile_get_thread (original, t);
          guint32 index;

          if (thread->n_samples == 0)
            continue;
          g_assert_true (fc_profile_lookup_thread (reread, fc_profile_string (original, thread->tid), &index));
          g_assert_cmpstr (fc_profile_string (reread, fc_profile_get_thread (reread, index)->name), ==,
                           fc_profile_string (original, thread->name));
        }

      second = fc_writer_write_profile_full (reread, FC_WRITE_KEEP_CLIENT_SDK, &error);
      g_assert_no_error (error);
      assert_bytes_equal (first, second);
    }
}

/* A bigger random model, with thread ids that need escaping: both formats
 * read back equal (the fast path for samples and stacks) and, with one
 * sample carrying extras (the general path), still equal. */
static void
test_random_round_trip (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  static const char * const tids[] = { "1", "77", "tab\there \"quoted\" \\ é", "4294967296" };
  guint32 threads[G_N_ELEMENTS (tids)];
  guint32 frames[40];
  FcFormat formats[] = { FC_FORMAT_V2, FC_FORMAT_V1 };

  for (guint t = 0; t < G_N_ELEMENTS (tids); t++)
    threads[t] = fc_profile_ensure_thread (profile, tids[t]);
  for (guint i = 0; i < 5000; i++)
    {
      guint depth = g_rand_int_range (rand, 0, G_N_ELEMENTS (frames));

      for (guint d = 0; d < depth; d++)
        {
          g_autofree char *name = g_strdup_printf ("f%d", g_rand_int_range (rand, 0, 300));
          FcFrame frame;

          fc_frame_init (&frame);
          frame.function = fc_profile_intern (profile, name);
          frame.lineno = g_rand_int_range (rand, -1, 3);
          frame.in_app = g_rand_int_range (rand, -1, 2);
          frame.has_instruction_addr = g_rand_boolean (rand);
          frame.instruction_addr = frame.has_instruction_addr ? g_rand_int (rand) * G_GUINT64_CONSTANT (4096) : 0;
          frames[d] = fc_profile_intern_frame (profile, &frame);
        }
      fc_profile_append_sample (profile, FC_TEST_BASE_NS + g_rand_int_range (rand, 0, 20000) * G_GINT64_CONSTANT (1001),
                                threads[g_rand_int_range (rand, 0, G_N_ELEMENTS (threads))],
                                fc_profile_intern_stack_frames (profile, frames, depth), 0);
    }
  fc_profile_set_start_ns (profile, FC_TEST_BASE_NS);

  for (guint round = 0; round < 2; round++)
    {
      if (round == 1)
        fc_profile_append_sample (profile, FC_TEST_BASE_NS + 5, threads[2], FC_STACK_EMPTY,
                                  fc_profile_intern (profile, "{\"state\":\"running\"}"));
      /* the writer takes any order; comparing wants time order */
      fc_profile_sort_samples (profile);

      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(FcProfile) reread = NULL;
          g_autoptr(GString) why = g_string_new (NULL);

          fc_profile_set_format (profile, formats[f]);
          bytes = fc_writer_write_profile (profile, &error);
          g_assert_no_error (error);
          reread = reread_single (bytes);
          if (!fc_profile_equal_samples (profile, reread, why))
            g_error ("round %u, format %d: %s", round, formats[f], why->str);
          g_assert_true (fc_profile_lookup_thread (reread, tids[2], NULL));
        }
    }
}

static void
test_stable_bytes (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) a = fc_writer_write_v2 (profile, &error);
  g_autoptr(GBytes) b = fc_writer_write_v2 (profile, &error);
  g_autoptr(GBytes) c = NULL;
  g_autoptr(FcProfile) reread = NULL;

  g_assert_no_error (error);
  assert_bytes_equal (a, b);

  /* a model built in another order of interning writes the same bytes
   * as long as the samples are the same */
  reread = reread_single (a);
  c = fc_writer_write_v2 (reread, &error);
  g_assert_no_error (error);
  assert_bytes_equal (a, c);
}

/* The V2 shape of issue section 4 on a hand-built model. */
static void
test_v2_shape (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonObject) root = NULL;
  JsonObject *p;
  JsonArray *samples, *stacks, *frames;
  JsonObject *metadata;
  FcFrame unused;
  guint32 t_idle;

  /* a frame and a thread nobody samples must not be written */
  fc_frame_init (&unused);
  unused.function = fc_profile_intern (profile, "never_sampled");
  fc_profile_intern_frame (profile, &unused);
  t_idle = fc_profile_ensure_thread (profile, "99");
  fc_profile_set_thread_name (profile, t_idle, "idle");
  fc_profile_set_meta_string (profile, "platform", "native");
  fc_profile_set_meta_string (profile, "release", "app@1.0");

  bytes = fc_writer_write_v2 (profile, &error);
  g_assert_no_error (error);
  root = parse_object (bytes);

  g_assert_cmpstr (json_object_get_string_member (root, "version"), ==, "2");
  g_assert_cmpstr (json_object_get_string_member (root, "platform"), ==, "native");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "client_sdk"), "name"),
                   ==, "flamecast");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "client_sdk"), "version"),
                   ==, FC_VERSION);

  p = json_object_get_object_member (root, "profile");
  samples = json_object_get_array_member (p, "samples");
  stacks = json_object_get_array_member (p, "stacks");
  frames = json_object_get_array_member (p, "frames");
  metadata = json_object_get_object_member (p, "thread_metadata");

  g_assert_cmpuint (json_array_get_length (samples), ==, 9);
  /* main>foo>bar, main>foo, main>baz, empty: de-duplicated, only used ones */
  g_assert_cmpuint (json_array_get_length (stacks), ==, 4);
  g_assert_cmpuint (json_array_get_length (frames), ==, 4);

  /* the first sample (t=0, thread "1") is main>foo>bar, leaf first */
  {
    JsonObject *s0 = json_array_get_object_element (samples, 0);
    JsonArray *stack = json_array_get_array_element (stacks, json_object_get_int_member (s0, "stack_id"));

    g_assert_cmpuint (json_array_get_length (stack), ==, 3);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                       frames, json_array_get_int_element (stack, 0)), "function"), ==, "bar");
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                       frames, json_array_get_int_element (stack, 2)), "function"), ==, "main");
    g_assert_true (json_node_get_value_type (json_object_get_member (s0, "thread_id")) == G_TYPE_STRING);
  }

  for (guint i = 0; i < json_array_get_length (frames); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (frames, i), "function"),
                     !=, "never_sampled");

  g_assert_true (json_object_has_member (metadata, "1"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (metadata, "1"), "name"),
                   ==, "main");
  g_assert_false (json_object_has_member (metadata, "99"));

  /* µs-precision float seconds, printed exactly */
  {
    const char *text = g_bytes_get_data (bytes, NULL);

    g_assert_nonnull (strstr (text, "\"timestamp\":1700000000.000000"));
    g_assert_nonnull (strstr (text, "\"timestamp\":1700000000.200000"));
  }
}

static void
test_v1_shape (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(FcProfile) reread = NULL;
  g_autoptr(GString) why = g_string_new (NULL);
  JsonObject *txn = json_object_new ();
  JsonArray *samples;
  guint64 previous = 0;
  guint32 hex;

  fc_profile_set_format (profile, FC_FORMAT_V1);
  fc_profile_set_start_ns (profile, FC_TEST_BASE_NS - 5 * FC_TEST_MS);
  /* a thread id in hex, as a V2 chunk may have it */
  hex = fc_profile_ensure_thread (profile, "0x1f");
  fc_profile_set_thread_name (profile, hex, "hex");
  fc_test_sample (profile, hex, 300, 1, FC_TEST_MAIN);
  json_object_set_string_member (txn, "id", "30976f2ddbe04ac9b6bffe6e35d4710c");
  json_object_set_string_member (txn, "name", "work");
  json_object_set_string_member (txn, "active_thread_id", "1");
  json_object_set_object_member (fc_profile_get_meta (profile), "transaction", txn);

  bytes = fc_writer_write_v1 (profile, &error);
  g_assert_no_error (error);
  root = parse_object (bytes);

  g_assert_cmpstr (json_object_get_string_member (root, "version"), ==, "1");
  g_assert_cmpstr (json_object_get_string_member (root, "timestamp"), ==, "2023-11-14T22:13:19.995000Z");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "transaction"), "name"),
                   ==, "work");

  samples = json_object_get_array_member (json_object_get_object_member (root, "profile"), "samples");
  g_assert_cmpuint (json_array_get_length (samples), ==, 10);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (samples, 9), "thread_id"),
                   ==, "31");
  g_assert_true (json_object_has_member (json_object_get_object_member (json_object_get_object_member (root, "profile"),
                                                                        "thread_metadata"), "31"));
  for (guint i = 0; i < json_array_get_length (samples); i++)
    {
      JsonObject *s = json_array_get_object_element (samples, i);
      const char *elapsed = json_object_get_string_member (s, "elapsed_since_start_ns");
      guint64 value = g_ascii_strtoull (elapsed, NULL, 10);

      g_assert_true (g_ascii_isdigit (elapsed[0]));
      g_assert_cmpuint (value, >=, previous);
      previous = value;
      g_assert_true (g_ascii_isdigit (json_object_get_string_member (s, "thread_id")[0]));
    }
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (samples, 0),
                                                  "elapsed_since_start_ns"), ==, "5000000");

  reread = reread_single (bytes);
  g_assert_cmpint (fc_profile_get_start_ns (reread), ==, FC_TEST_BASE_NS - 5 * FC_TEST_MS);
  g_assert_cmpuint (fc_profile_get_n_samples (reread), ==, 10);
  g_assert_true (fc_profile_lookup_thread (reread, "31", NULL));
  g_assert_false (fc_profile_lookup_thread (reread, "0x1f", NULL));
}

static void
test_v1_sample_before_start (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  fc_profile_set_format (profile, FC_FORMAT_V1);
  fc_profile_set_start_ns (profile, FC_TEST_BASE_NS + FC_TEST_MS);
  bytes = fc_writer_write_v1 (profile, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE);
  g_assert_null (bytes);
  g_assert_nonnull (strstr (error->message, "before the profile timestamp"));
}

/* Uninterpreted keys of frames are merged with the known ones, sorted. */
static void
test_extras_sorted (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  FcFrame frame;
  guint32 f, t;
  const char *text;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (profile, "work");
  frame.lineno = 7;
  frame.extra = fc_profile_intern (profile, "{\"zeta\":[1,2.5],\"aardvark\":\"x\",\"symbol\":null}");
  f = fc_profile_intern_frame (profile, &frame);
  t = fc_profile_ensure_thread (profile, "7");
  fc_profile_append_sample (profile, FC_TEST_BASE_NS, t, fc_profile_intern_stack_frames (profile, &f, 1), 0);

  bytes = fc_writer_write_v2 (profile, &error);
  g_assert_no_error (error);
  text = g_bytes_get_data (bytes, NULL);
  g_assert_nonnull (strstr (text, "\"frames\":[{\"aardvark\":\"x\",\"function\":\"work\",\"lineno\":7,"
                                  "\"symbol\":null,\"zeta\":[1,2.5]}]"));
}

static GPtrArray *
split_envelope (GBytes *bytes)
{
  g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) parts = g_strsplit (text, "\n", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    g_ptr_array_add (lines, g_strdup (parts[i]));
  return lines;
}

static JsonObject *
parse_line (const char *line)
{
  g_autoptr(GBytes) bytes = g_bytes_new (line, strlen (line));

  return parse_object (bytes);
}

static void
test_chunk_envelope (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) item = NULL;
  g_autoptr(FcDocument) document = NULL;
  g_autoptr(GString) why = g_string_new (NULL);
  gint64 sent_at = 0;

  fc_profile_set_meta_string (profile, "platform", "native");
  bytes = fc_writer_write_chunk_envelope (profile, &error);
  g_assert_no_error (error);

  lines = split_envelope (bytes);
  /* header, item header, payload, and the empty rest after the final newline */
  g_assert_cmpuint (lines->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (lines, 3), ==, "");
  header = parse_line (g_ptr_array_index (lines, 0));
  g_assert_true (fc_time_parse_rfc3339 (json_object_get_string_member (header, "sent_at"), &sent_at));
  g_assert_cmpint (ABS (sent_at - g_get_real_time () * 1000), <, G_GINT64_CONSTANT (3600) * 1000000000);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (header, "sdk"), "name"),
                   ==, "flamecast");

  item = parse_line (g_ptr_array_index (lines, 1));
  g_assert_cmpstr (json_object_get_string_member (item, "type"), ==, "profile_chunk");
  g_assert_cmpstr (json_object_get_string_member (item, "content_type"), ==, "application/json");
  g_assert_cmpstr (json_object_get_string_member (item, "platform"), ==, "native");
  g_assert_cmpint (json_object_get_int_member (item, "length"), ==,
                   strlen (g_ptr_array_index (lines, 2)));

  document = fc_test_load_bytes (bytes);
  g_assert_cmpint (fc_document_get_kind (document), ==, FC_DOCUMENT_ENVELOPE);
  g_assert_cmpuint (fc_document_get_n_profiles (document), ==, 1);
  g_assert_true (fc_profile_equal_samples (profile, fc_document_get_profile (document, 0), why));

  /* a V1 profile is not a chunk */
  fc_profile_set_format (profile, FC_FORMAT_V1);
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = fc_writer_write_chunk_envelope (profile, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED);
  g_assert_null (bytes);
}

static void
test_v1_envelope (void)
{
  g_autoptr(FcDocument) fixture = fc_test_load_fixture ("payloads/v1-cocoa.json");
  FcProfile *profile = fc_document_get_profile (fixture, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) txn_item = NULL;
  g_autoptr(JsonObject) profile_item = NULL;
  g_autoptr(FcDocument) document = NULL;
  g_autoptr(GString) why = g_string_new (NULL);
  JsonObject *event;

  bytes = fc_writer_write_v1_envelope (profile, NULL, &error);
  g_assert_no_error (error);
  lines = split_envelope (bytes);
  g_assert_cmpuint (lines->len, ==, 6);

  header = parse_line (g_ptr_array_index (lines, 0));
  txn_item = parse_line (g_ptr_array_index (lines, 1));
  profile_item = parse_line (g_ptr_array_index (lines, 3));
  g_assert_cmpstr (json_object_get_string_member (txn_item, "type"), ==, "transaction");
  g_assert_cmpstr (json_object_get_string_member (profile_item, "type"), ==, "profile");
  g_assert_false (json_object_has_member (profile_item, "platform"));
  /* the envelope carries the transaction's id, as the SDKs do */
  g_assert_cmpstr (json_object_get_string_member (header, "event_id"), ==, "9a8b7c6d5e4f40312a1b2c3d4e5f6071");

  document = fc_test_load_bytes (bytes);
  g_assert_cmpuint (fc_document_get_n_transactions (document), ==, 1);
  g_assert_cmpuint (fc_document_get_n_profiles (document), ==, 1);
  event = fc_document_get_transaction (document, 0);
  g_assert_cmpstr (json_object_get_string_member (event, "event_id"), ==, "9a8b7c6d5e4f40312a1b2c3d4e5f6071");
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (json_object_get_object_member (event, "contexts"), "trace"),
                     "span_id"), ==, "a1b2c3d4e5f60718");
  g_assert_true (fc_profile_equal_samples (profile, fc_document_get_profile (document, 0), why));

  /* the whole document back into an envelope keeps the same items */
  again = fc_writer_write_envelope (document, &error);
  g_assert_no_error (error);
  assert_bytes_equal (bytes, again);
}

static void
test_envelope_document (void)
{
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_ENVELOPE);
  g_autoptr(FcProfile) a = fc_test_profile_new ();
  g_autoptr(FcProfile) b = fc_test_profile_new ();
  g_autoptr(JsonObject) header = json_object_new ();
  g_autoptr(JsonObject) other = json_object_new ();
  g_autoptr(GBytes) payload = g_bytes_new_static ("{\"hello\":1}", 11);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) again = NULL;
  g_autoptr(FcDocument) reread = NULL;
  g_autofree char *event_id = NULL;
  const char *text;

  json_object_set_string_member (header, "sent_at", "2024-01-01T00:00:00Z");
  json_object_set_string_member (header, "dsn", "https://key@example.com/1");
  fc_document_set_envelope_header (document, header);
  json_object_set_string_member (other, "type", "client_report");
  json_object_set_int_member (other, "length", 999);
  fc_document_add_other_item (document, other, payload);
  fc_document_add_profile (document, a);

  bytes = fc_writer_write_envelope (document, &error);
  g_assert_no_error (error);
  text = g_bytes_get_data (bytes, NULL);
  /* kept header keys, completed with an event_id (as the SDKs write on every
   * envelope) and sdk; other items with a true length */
  g_assert_true (g_str_has_prefix (text, "{\"dsn\":\"https://key@example.com/1\",\"event_id\":\""));
  event_id = g_strndup (text + strlen ("{\"dsn\":\"https://key@example.com/1\",\"event_id\":\""), 32);
  g_assert_true (fc_hex_is_valid (event_id, 32));
  g_assert_nonnull (strstr (text, "\",\"sdk\":{"));
  g_assert_nonnull (strstr (text, "\"sent_at\":\"2024-01-01T00:00:00Z\""));
  g_assert_nonnull (strstr (text, "{\"length\":11,\"type\":\"client_report\"}\n{\"hello\":1}\n"));

  reread = fc_test_load_bytes (bytes);
  g_assert_cmpuint (fc_document_get_n_other_items (reread), ==, 1);
  again = fc_writer_write_envelope (reread, &error);
  g_assert_no_error (error);
  assert_bytes_equal (bytes, again);

  /* two profiles in one envelope: Relay answers 413, so we refuse */
  fc_document_add_profile (document, b);
  g_clear_pointer (&bytes, g_bytes_unref);
  bytes = fc_writer_write_envelope (document, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_ENVELOPE);
  g_assert_null (bytes);
}

static void
test_invalid_utf8 (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  fc_profile_set_meta_string (profile, "release", "bad\xff\xfe");
  bytes = fc_writer_write_v2 (profile, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_SYNTAX);
  g_assert_null (bytes);
  g_assert_nonnull (strstr (error->message, "UTF-8"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/writer/round-trip-fixtures", test_round_trip_fixtures);
  g_test_add_func ("/core/writer/random-round-trip", test_random_round_trip);
  g_test_add_func ("/core/writer/stable-bytes", test_stable_bytes);
  g_test_add_func ("/core/writer/v2-shape", test_v2_shape);
  g_test_add_func ("/core/writer/v1-shape", test_v1_shape);
  g_test_add_func ("/core/writer/v1-sample-before-start", test_v1_sample_before_start);
  g_test_add_func ("/core/writer/extras-sorted", test_extras_sorted);
  g_test_add_func ("/core/writer/chunk-envelope", test_chunk_envelope);
  g_test_add_func ("/core/writer/v1-envelope", test_v1_envelope);
  g_test_add_func ("/core/writer/envelope-document", test_envelope_document);
  g_test_add_func ("/core/writer/invalid-utf8", test_invalid_utf8);

  return g_test_run ();
}
