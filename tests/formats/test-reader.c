/* test-reader.c - V2 chunks, V1 profiles and envelopes read into the model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <errno.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "flamecast.h"
#include "fc-reader.h"
#include "fc-validate.h"
#include "fc-test-util.h"

static FcDocument *
load_path (const char   *path,
           FcReadFlags   flags,
           GError      **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return fc_reader_load_file (file, flags, NULL, error);
}

static FcDocument *
load_ok (const char  *path,
         FcReadFlags  flags)
{
  g_autoptr(GError) error = NULL;
  FcDocument *doc = load_path (path, flags, &error);

  if (error != NULL)
    g_test_message ("%s: %s", path, error->message);
  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

static const char *
thread_name_of (FcProfile  *profile,
                const char *tid)
{
  guint32 index;

  g_assert_true (fc_profile_lookup_thread (profile, tid, &index));
  return fc_profile_string (profile, fc_profile_get_thread (profile, index)->name);
}

static gboolean
has_problem (FcDocument *doc,
             const char *location,
             const char *message_part)
{
  GPtrArray *problems = fc_document_get_problems (doc);

  for (guint i = 0; i < problems->len; i++)
    {
      const FcProblem *p = g_ptr_array_index (problems, i);

      if ((location == NULL || g_strcmp0 (p->location, location) == 0) &&
          strstr (p->message, message_part) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* ---- fixtures ---- */

typedef struct {
  const char *path;
  FcDocumentKind kind;
  guint n_samples;
  guint n_threads;
  guint n_frames;       /* de-duplicated, placeholders included */
  gint64 first_ns;
  gint64 last_ns;
  const char *threads[5][2];  /* tid, name (NULL for unnamed) */
  const char *strict_error;   /* NULL when strict mode reads it too */
} Fixture;

static const Fixture fixtures[] = {
  { "payloads/v2-cocoa.json", FC_DOCUMENT_V2, 4, 2, 2,
    G_GINT64_CONSTANT (1717171717250000000), G_GINT64_CONSTANT (1717171717280000000),
    { { "0x00000001045f0c80", "com.apple.main-thread" }, { "0x000000016b7f3000", "com.apple.uikit.eventfetch-thread" } },
    NULL },
  { "payloads/v1-cocoa.json", FC_DOCUMENT_V1, 4, 2, 2,
    G_GINT64_CONSTANT (1709649000012000250), G_GINT64_CONSTANT (1709649000042000250),
    { { "1", NULL }, { "2", NULL } },
    NULL },
  { "payloads/v2-cocoa-stored.json", FC_DOCUMENT_V2, 4, 2, 2,
    G_GINT64_CONSTANT (1717171717250000000), G_GINT64_CONSTANT (1717171717280000000),
    { { "0x00000001045f0c80", "com.apple.main-thread" } },
    NULL },
  { "payloads/v2-android.json", FC_DOCUMENT_V2, 5, 2, 4,
    G_GINT64_CONSTANT (1717171800125000000), G_GINT64_CONSTANT (1717171800145000000),
    { { "1", "main" }, { "2", "OkHttp Dispatcher" } },
    NULL },
  /* one frame, but a stack of seven: six placeholders */
  { "payloads/v2-python-cut.json", FC_DOCUMENT_V2, 1, 3, 7,
    G_GINT64_CONSTANT (1718180000312500000), G_GINT64_CONSTANT (1718180000312500000),
    { { "140230426244864", "shop-jobs.Scheduler" }, { "140230443030272", "MainThread" },
      { "140230434637568", "shop-jobs.monitor" } },
    "profile.stacks[0][1]: frame 1 but only 1 frames" },
  /* the fourth sample points past the stacks and is dropped; frames 510-512 are placeholders */
  { "payloads/v1-cocoa-symbolicated.json", FC_DOCUMENT_V1, 3, 4, 10,
    G_GINT64_CONSTANT (1709649000205125000), G_GINT64_CONSTANT (1709649000225375000),
    { { "259", "main" }, { "16131", NULL } },
    "profile.stacks[0][0]: frame 510 but only 7 frames" },
  /* four frames, stacks up to frame 10: seven placeholders */
  { "payloads/v1-python-stored.json", FC_DOCUMENT_V1, 4, 4, 11,
    G_GINT64_CONSTANT (1718179999252048000), G_GINT64_CONSTANT (1718179999252048000),
    { { "140230401459904", "pool-2_1" }, { "140230393067200", NULL } },
    "profile.stacks[0][4]: frame 4 but only 4 frames" },
  /* 303 frames in the file, 200 distinct */
  { "payloads/v1-node-stored.json", FC_DOCUMENT_V1, 44, 1, 200,
    G_GINT64_CONSTANT (1718180130250055000), G_GINT64_CONSTANT (1718180130734554000),
    { { "0", "main" } },
    NULL },
};

static void
test_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      const Fixture *f = &fixtures[i];
      g_autofree char *path = fc_test_data_path (f->path);
      g_autoptr(FcDocument) doc = load_ok (path, FC_READ_LENIENT);
      g_autoptr(FcDocument) strict = NULL;
      g_autoptr(GError) error = NULL;
      FcProfile *profile;
      gint64 first, last;

      g_test_message ("%s", f->path);
      g_assert_cmpint (fc_document_get_kind (doc), ==, f->kind);
      g_assert_cmpuint (fc_document_get_n_profiles (doc), ==, 1);
      profile = fc_document_get_profile (doc, 0);

      g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, f->n_samples);
      g_assert_cmpuint (fc_profile_get_n_threads (profile), ==, f->n_threads);
      g_assert_cmpuint (fc_profile_get_n_frames (profile), ==, f->n_frames);
      fc_profile_get_time_range (profile, &first, &last);
      g_assert_cmpint (first, ==, f->first_ns);
      g_assert_cmpint (last, ==, f->last_ns);

      for (guint t = 0; t < G_N_ELEMENTS (f->threads) && f->threads[t][0] != NULL; t++)
        g_assert_cmpstr (thread_name_of (profile, f->threads[t][0]), ==, f->threads[t][1]);

      g_assert_cmpuint (fc_profile_get_source_size (profile), >, 0);

      strict = load_path (path, FC_READ_FLAGS_NONE, &error);
      if (f->strict_error == NULL)
        {
          g_assert_no_error (error);
          g_assert_nonnull (strict);
          /* the node profile's frame 181 has only a line number: a warning, no error */
          g_assert_cmpuint (fc_document_get_problems (doc)->len, ==, g_str_has_suffix (f->path, "node-stored.json") ? 1 : 0);
        }
      else
        {
          g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE);
          g_assert_nonnull (strstr (error->message, f->strict_error));
          g_assert_null (strict);
          g_assert_cmpuint (fc_document_get_problems (doc)->len, >, 0);
        }
    }
}

static gboolean
is_unsupported_fixture (const char *path)
{
  return g_str_has_suffix (path, "payloads/android-trace-chunk.json") ||
         g_str_has_suffix (path, "payloads/legacy-cocoa.json");
}

static void
collect_json (const char *dir,
              GPtrArray  *out)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_json (path, out);
      else if (g_str_has_suffix (name, ".json"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

/* Every payload reads, including ones added later; the two foreign formats say so. */
static void
test_fixtures_all (void)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *payloads = fc_test_data_path ("payloads");
  g_autofree char *recorded = fc_test_data_path ("recorded");
  guint n_unsupported = 0;

  collect_json (payloads, paths);
  collect_json (recorded, paths);
  g_assert_cmpuint (paths->len, >=, 11);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(FcDocument) doc = load_path (path, FC_READ_LENIENT, &error);

      if (is_unsupported_fixture (path))
        {
          g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED);
          g_assert_nonnull (strstr (error->message, "unsupported format"));
          n_unsupported++;
        }
      else
        {
          g_assert_no_error (error);
          g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), >, 0);
        }
    }

  g_assert_cmpuint (n_unsupported, ==, 2);
}

static void
test_unsupported_messages (void)
{
  g_autofree char *android = fc_test_data_path ("payloads/android-trace-chunk.json");
  g_autofree char *legacy = fc_test_data_path ("payloads/legacy-cocoa.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = NULL;

  doc = load_path (android, FC_READ_LENIENT, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "Android trace"));
  g_clear_error (&error);

  doc = load_path (legacy, FC_READ_LENIENT, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "legacy"));
}

/* Sentry stores a stack that points at frames the file does not carry. */
static void
test_valid_python_lenient (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v2-python-cut.json");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_LENIENT);
  FcProfile *profile = fc_document_get_profile (doc, 0);
  const FcSample *samples;
  guint32 frames[16];
  guint n, depth;
  char buf[64];

  g_assert_true (has_problem (doc, "profile.stacks[0][1]", "frame 1 but only 1 frames"));
  g_assert_true (has_problem (doc, "profile.stacks[0][6]", "frame 6 but only 1 frames"));
  g_assert_cmpint (((FcProblem *)g_ptr_array_index (fc_document_get_problems (doc), 0))->severity, ==,
                   FC_PROBLEM_ERROR);

  samples = fc_profile_get_samples (profile, &n);
  g_assert_cmpuint (n, ==, 1);
  depth = fc_profile_stack_frames (profile, samples[0].stack, frames, G_N_ELEMENTS (frames));
  g_assert_cmpuint (depth, ==, 7);
  g_assert_cmpstr (fc_profile_frame_label (profile, frames[0], buf, sizeof buf), ==,
                   "Scheduler.poll.<locals>.take_next");
  g_assert_cmpstr (fc_profile_frame_label (profile, frames[1], buf, sizeof buf), ==, "<missing frame 1>");
  g_assert_cmpstr (fc_profile_frame_label (profile, frames[6], buf, sizeof buf), ==, "<missing frame 6>");
}

/* Everything outside samples/stacks/frames/thread_metadata survives as
 * JSON, but the SDK and images, which are typed (test-chunk-meta.c). */
static void
test_meta_lossless (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v1-cocoa.json");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);
  g_autoptr(JsonParser) parser = json_parser_new ();
  FcProfile *profile = fc_document_get_profile (doc, 0);
  JsonObject *root, *meta, *extra;
  g_autoptr(GList) members = NULL;
  const FcSample *samples;
  guint n;

  g_assert_true (json_parser_load_from_file (parser, path, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  meta = fc_profile_get_meta (profile);
  extra = fc_profile_get_profile_extra (profile);

  members = json_object_get_members (root);
  for (const GList *l = members; l != NULL; l = l->next)
    {
      if (g_str_equal (l->data, "profile"))
        continue;
      if (g_str_equal (l->data, "debug_meta"))
        {
          g_assert_false (json_object_has_member (meta, l->data));
          g_assert_cmpuint (fc_profile_get_images (profile)->len, ==, 1);
          continue;
        }
      g_assert_true (json_object_has_member (meta, l->data));
      g_assert_true (json_node_equal (json_object_get_member (meta, l->data),
                                      json_object_get_member (root, l->data)));
    }
  g_assert_false (json_object_has_member (meta, "profile"));
  g_assert_cmpuint (json_object_get_size (meta), ==, json_object_get_size (root) - 2);

  g_assert_true (json_object_has_member (extra, "queue_metadata"));
  g_assert_cmpuint (json_object_get_size (extra), ==, 1);

  g_assert_cmpstr (fc_profile_get_platform (profile), ==, "cocoa");
  g_assert_cmpstr (fc_profile_get_event_id (profile), ==, "2c7e9d4b1a3f4e5d8c6b7a9e0f1d2c3b");
  g_assert_cmpstr (json_object_get_string_member (fc_profile_get_transaction (profile), "id"), ==,
                   "9a8b7c6d5e4f40312a1b2c3d4e5f6071");
  g_assert_cmpint (fc_profile_get_start_ns (profile), ==, G_GINT64_CONSTANT (1709649000000000000));

  samples = fc_profile_get_samples (profile, &n);
  g_assert_cmpstr (fc_profile_string (profile, samples[0].extra), ==, "{\"queue_address\":\"0x00000001f3b2c500\"}");
  g_assert_cmpint (fc_profile_get_thread (profile, samples[0].thread)->priority, ==, 31);
  g_assert_true (fc_profile_get_thread (profile, samples[0].thread)->has_metadata);
}

static void
test_frames_fields (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v2-android.json");
  g_autofree char *node_path = fc_test_data_path ("payloads/v1-node-stored.json");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);
  g_autoptr(FcDocument) node_doc = load_ok (node_path, FC_READ_FLAGS_NONE);
  FcProfile *profile = fc_document_get_profile (doc, 0);
  FcProfile *node = fc_document_get_profile (node_doc, 0);
  gboolean found = FALSE;
  const FcFrame *f;

  for (guint i = 0; i < fc_profile_get_n_frames (profile); i++)
    {
      f = fc_profile_get_frame (profile, i);
      if (g_strcmp0 (fc_profile_string (profile, f->function), "onCreate") == 0)
        {
          g_assert_cmpstr (fc_profile_string (profile, f->module), ==, "com.example.shop.CartActivity");
          g_assert_cmpint (f->lineno, ==, 42);
          g_assert_cmpint (f->in_app, ==, FC_IN_APP_YES);
          found = TRUE;
        }
    }
  g_assert_true (found);

  /* "in_app": null is kept verbatim for the writer */
  f = fc_profile_get_frame (node, 0);
  g_assert_cmpstr (fc_profile_string (node, f->function), ==, "startProfiling");
  g_assert_cmpint (f->lineno, ==, 37);
  g_assert_cmpint (f->colno, ==, 19);
  g_assert_cmpint (f->in_app, ==, FC_IN_APP_UNKNOWN);
  g_assert_cmpstr (fc_profile_string (node, f->extra), ==, "{\"in_app\":null}");
}

/* ---- hand-made good inputs ---- */

static void
test_envelope_python (void)
{
  const char *names[] = { "good/python-v1.envelope", "good/python-v1.envelope.gz" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = fc_test_data_path (names[i]);
      g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);
      FcProfile *profile;
      JsonObject *header;
      const FcEnvelopeItem *item;
      gint64 first, last;

      g_assert_cmpint (fc_document_get_kind (doc), ==, FC_DOCUMENT_ENVELOPE);
      header = fc_document_get_envelope_header (doc);
      g_assert_nonnull (header);
      g_assert_cmpstr (json_object_get_string_member (header, "event_id"), ==,
                       "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");

      g_assert_cmpuint (fc_document_get_n_profiles (doc), ==, 1);
      g_assert_cmpuint (fc_document_get_n_transactions (doc), ==, 1);
      g_assert_cmpuint (fc_document_get_n_other_items (doc), ==, 1);

      profile = fc_document_get_profile (doc, 0);
      g_assert_cmpint (fc_profile_get_format (profile), ==, FC_FORMAT_V1);
      g_assert_true (fc_profile_get_linked_event (profile) == fc_document_get_transaction (doc, 0));
      g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, 2);
      fc_profile_get_time_range (profile, &first, &last);
      /* 2024-08-27T12:43:45.575655Z + 0 and + 10 ms */
      g_assert_cmpint (first, ==, G_GINT64_CONSTANT (1724762625575655000));
      g_assert_cmpint (last, ==, G_GINT64_CONSTANT (1724762625585655000));
      g_assert_cmpstr (thread_name_of (profile, "1"), ==, "MainThread");

      item = fc_document_get_other_item (doc, 0);
      g_assert_cmpstr (json_object_get_string_member (item->header, "type"), ==, "client_report");
      g_assert_cmpuint (g_bytes_get_size (item->payload), ==, strlen ("{\"discarded_events\":[]}"));
    }
}

/* What Flamecast itself recorded (tests/data/record-payloads.sh): a native V2 chunk, and a V1
 * profile with its transaction in an envelope, read strictly and accepted by the validator. */
static gboolean
has_function (FcProfile  *profile,
              const char *name)
{
  for (guint32 f = 0; f < fc_profile_get_n_frames (profile); f++)
    if (g_strcmp0 (fc_profile_string (profile, fc_profile_get_frame (profile, f)->function), name) == 0)
      return TRUE;
  return FALSE;
}

static void
test_recorded (void)
{
  g_autofree char *chunk_path = fc_test_data_path ("recorded/burner-chunk.json");
  g_autofree char *envelope_path = fc_test_data_path ("recorded/burner.envelope");
  g_autoptr(FcDocument) chunk = load_ok (chunk_path, FC_READ_FLAGS_NONE);
  g_autoptr(FcDocument) envelope = load_ok (envelope_path, FC_READ_FLAGS_NONE);
  g_autoptr(GPtrArray) chunk_problems = fc_validate_document (chunk);
  g_autoptr(GPtrArray) envelope_problems = fc_validate_document (envelope);
  FcProfile *profile;

  g_assert_cmpint (fc_document_get_kind (chunk), ==, FC_DOCUMENT_V2);
  profile = fc_document_get_profile (chunk, 0);
  g_assert_cmpstr (fc_profile_get_platform (profile), ==, "native");
  g_assert_cmpstr (fc_profile_get_release (profile), ==, "burner@1.0");
  g_assert_cmpuint (fc_profile_get_n_samples (profile), >, 0);
  g_assert_true (has_function (profile, "hot_a"));
  g_assert_true (has_function (profile, "hot_b"));
  g_assert_cmpuint (fc_document_get_problems (chunk)->len, ==, 0);
  g_assert_cmpuint (chunk_problems->len, ==, 0);

  g_assert_cmpint (fc_document_get_kind (envelope), ==, FC_DOCUMENT_ENVELOPE);
  g_assert_cmpuint (fc_document_get_n_profiles (envelope), ==, 1);
  g_assert_cmpuint (fc_document_get_n_transactions (envelope), ==, 1);
  profile = fc_document_get_profile (envelope, 0);
  g_assert_cmpint (fc_profile_get_format (profile), ==, FC_FORMAT_V1);
  g_assert_true (fc_profile_get_linked_event (profile) == fc_document_get_transaction (envelope, 0));
  g_assert_true (has_function (profile, "hot_a"));
  g_assert_cmpuint (envelope_problems->len, ==, 0);
}

static void
test_envelope_node (void)
{
  g_autofree char *path = fc_test_data_path ("good/node-v2.envelope");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);
  g_autofree char *contents = NULL;
  FcProfile *profile;
  gsize len;

  /* profiling-node style: no lengths, no final newline */
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpint (contents[len - 1], !=, '\n');
  g_assert_null (strstr (contents, "\"length\""));

  g_assert_cmpint (fc_document_get_kind (doc), ==, FC_DOCUMENT_ENVELOPE);
  g_assert_cmpuint (fc_document_get_n_profiles (doc), ==, 1);
  g_assert_cmpuint (fc_document_get_n_transactions (doc), ==, 1);
  g_assert_cmpuint (fc_document_get_n_other_items (doc), ==, 0);

  profile = fc_document_get_profile (doc, 0);
  g_assert_cmpint (fc_profile_get_format (profile), ==, FC_FORMAT_V2);
  g_assert_cmpstr (fc_profile_get_platform (profile), ==, "node");
  /* linked by profiler_id, written with dashes in the transaction */
  g_assert_true (fc_profile_get_linked_event (profile) == fc_document_get_transaction (doc, 0));
  g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, 3);
  g_assert_cmpuint (fc_profile_get_source_size (profile), >, 100);
}

static void
test_envelope_length_no_final_newline (void)
{
  g_autofree char *path = fc_test_data_path ("good/length-no-final-newline.envelope");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);
  const FcEnvelopeItem *item;

  g_assert_cmpuint (fc_document_get_n_profiles (doc), ==, 1);
  g_assert_cmpuint (fc_document_get_n_other_items (doc), ==, 1);
  item = fc_document_get_other_item (doc, 0);
  g_assert_cmpstr (json_object_get_string_member (item->header, "type"), ==, "attachment");
  g_assert_cmpuint (g_bytes_get_size (item->payload), ==, 0);
  g_assert_null (fc_profile_get_linked_event (fc_document_get_profile (doc, 0)));
}

static void
test_compact_payload (void)
{
  g_autofree char *path = fc_test_data_path ("good/compact-v2.json");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);

  g_assert_cmpint (fc_document_get_kind (doc), ==, FC_DOCUMENT_V2);
  g_assert_null (fc_document_get_envelope_header (doc));
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), ==, 3);
}

/* Key order is free, timestamps may use exponents, frames may be anonymous. */
static void
test_key_order (void)
{
  g_autofree char *path = fc_test_data_path ("good/key-order.json");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);
  FcProfile *profile = fc_document_get_profile (doc, 0);
  const FcSample *s;
  const FcThread *t;
  const FcFrame *f;
  guint32 index;
  guint n;

  g_assert_cmpint (fc_profile_get_format (profile), ==, FC_FORMAT_V2);
  s = fc_profile_get_samples (profile, &n);
  g_assert_cmpuint (n, ==, 3);

  /* sorted by time: 1710805788.4999995, 1.7108057885e9, 171080578851e-2 */
  g_assert_cmpint (s[0].timestamp_ns, ==, G_GINT64_CONSTANT (1710805788499999500));
  g_assert_cmpint (s[1].timestamp_ns, ==, G_GINT64_CONSTANT (1710805788500000000));
  g_assert_cmpint (s[2].timestamp_ns, ==, G_GINT64_CONSTANT (1710805788510000000));
  g_assert_cmpuint (fc_profile_get_stack (profile, s[0].stack)->depth, ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, s[1].stack)->depth, ==, 2);
  g_assert_cmpuint (s[2].stack, ==, FC_STACK_EMPTY);
  g_assert_cmpstr (fc_profile_string (profile, s[1].extra), ==, "{\"state\":\"running\"}");

  /* the leaf of the deeper stack: an anonymous function with a padded address */
  f = fc_profile_get_frame (profile, fc_profile_get_stack (profile, s[1].stack)->frame);
  g_assert_cmpstr (fc_profile_string (profile, f->function), ==, "");
  g_assert_true (f->has_instruction_addr);
  g_assert_cmpuint (f->instruction_addr, ==, G_GUINT64_CONSTANT (0x102adc700));
  g_assert_cmpint (f->lineno, ==, 3);

  f = fc_profile_get_frame (profile, fc_profile_get_stack (profile, s[0].stack)->frame);
  g_assert_cmpstr (fc_profile_string (profile, f->extra), ==, "{\"x_custom\":[1,{\"a\":null}]}");

  g_assert_cmpuint (fc_profile_get_n_threads (profile), ==, 3);
  g_assert_true (fc_profile_lookup_thread (profile, "42", &index));
  t = fc_profile_get_thread (profile, index);
  g_assert_false (t->has_metadata);
  g_assert_cmpuint (t->n_samples, ==, 2);
  g_assert_true (fc_profile_lookup_thread (profile, "43", &index));
  t = fc_profile_get_thread (profile, index);
  g_assert_cmpstr (fc_profile_string (profile, t->name), ==, "idle");
  g_assert_cmpint (t->priority, ==, 3);
  g_assert_true (fc_profile_lookup_thread (profile, "99", &index));
  t = fc_profile_get_thread (profile, index);
  g_assert_true (t->has_metadata);
  g_assert_cmpuint (t->n_samples, ==, 0);

  g_assert_true (json_object_has_member (fc_profile_get_profile_extra (profile), "queue_metadata"));
  g_assert_true (json_object_has_member (fc_profile_get_meta (profile), "measurements"));
  g_assert_cmpstr (fc_profile_get_meta_string (profile, "version"), ==, "2");
}

static void
test_v1_unordered (void)
{
  g_autofree char *path = fc_test_data_path ("good/v1-unordered.json");
  g_autoptr(FcDocument) doc = load_ok (path, FC_READ_FLAGS_NONE);
  FcProfile *profile = fc_document_get_profile (doc, 0);
  const FcSample *s;
  GPtrArray *problems;
  guint n;

  s = fc_profile_get_samples (profile, &n);
  g_assert_cmpuint (n, ==, 3);
  /* 2024-08-27T12:43:45.575655Z + 10, 20, 30 ms */
  g_assert_cmpint (s[0].timestamp_ns, ==, G_GINT64_CONSTANT (1724762625585655000));
  g_assert_cmpint (s[1].timestamp_ns, ==, G_GINT64_CONSTANT (1724762625595655000));
  g_assert_cmpint (s[2].timestamp_ns, ==, G_GINT64_CONSTANT (1724762625605655000));
  g_assert_cmpuint (fc_profile_get_n_threads (profile), ==, 2);
  g_assert_cmpstr (thread_name_of (profile, "7"), ==, "main");
  g_assert_cmpstr (thread_name_of (profile, "8"), ==, NULL);

  /* array order is gone from the model, so the reader reports it */
  problems = fc_document_get_problems (doc);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpint (((FcProblem *)g_ptr_array_index (problems, 0))->severity, ==, FC_PROBLEM_WARNING);
  g_assert_true (has_problem (doc, "profile.samples[1].elapsed_since_start_ns", "goes back in time"));
}

/* ---- broken inputs ---- */

typedef struct {
  const char *name;
  FcFormatError code;
  const char *message_part;
} Broken;

static const Broken broken[] = {
  { "truncated.json", FC_FORMAT_ERROR_SYNTAX, "truncated JSON" },
  { "not-json.txt", FC_FORMAT_ERROR_SYNTAX, "invalid JSON at byte" },
  { "empty.json", FC_FORMAT_ERROR_SYNTAX, "empty" },
  { "whitespace-only.json", FC_FORMAT_ERROR_SYNTAX, "empty" },
  { "top-level-array.json", FC_FORMAT_ERROR_TYPE, "expected a JSON object at the top level, got an array" },
  { "trailing-garbage.json", FC_FORMAT_ERROR_SYNTAX, "trailing garbage" },
  { "samples-not-array.json", FC_FORMAT_ERROR_TYPE, "profile.samples: expected an array, got an object" },
  { "sample-not-object.json", FC_FORMAT_ERROR_TYPE, "profile.samples[0]: expected an object" },
  { "stacks-not-arrays.json", FC_FORMAT_ERROR_TYPE, "profile.stacks[0]: expected an array of frame indexes" },
  { "frames-not-objects.json", FC_FORMAT_ERROR_TYPE, "profile.frames[0]: expected an object" },
  { "thread-metadata-array.json", FC_FORMAT_ERROR_TYPE, "profile.thread_metadata: expected an object" },
  { "stack-id-string.json", FC_FORMAT_ERROR_TYPE, "profile.samples[1].stack_id: expected an integer, got a string" },
  { "stack-id-negative.json", FC_FORMAT_ERROR_RANGE, "profile.samples[0].stack_id: negative value -1" },
  { "stack-id-huge.json", FC_FORMAT_ERROR_RANGE, "profile.samples[0].stack_id: 4294967296 is out of range" },
  { "stack-id-dangling.json", FC_FORMAT_ERROR_RANGE, "profile.samples[2].stack_id: 7 but only 2 stacks" },
  { "frame-id-dangling.json", FC_FORMAT_ERROR_RANGE, "profile.stacks[1][0]: frame 9 but only 2 frames" },
  { "frame-id-negative.json", FC_FORMAT_ERROR_RANGE, "profile.stacks[0][0]: negative value -3" },
  { "frame-id-float.json", FC_FORMAT_ERROR_TYPE, "profile.stacks[0][0]: expected an integer, got 0.5" },
  { "empty-samples.json", FC_FORMAT_ERROR_MISSING, "profile.samples: empty array" },
  { "timestamp-absurd.json", FC_FORMAT_ERROR_RANGE, "profile.samples[1].timestamp: absurd timestamp 1e300" },
  { "timestamp-negative.json", FC_FORMAT_ERROR_RANGE, "profile.samples[1].timestamp: absurd timestamp -1710805788.51" },
  { "timestamp-string.json", FC_FORMAT_ERROR_TYPE, "profile.samples[1].timestamp: expected a number of seconds" },
  { "v1-elapsed-negative.json", FC_FORMAT_ERROR_RANGE, "profile.samples[0].elapsed_since_start_ns: negative value -5" },
  { "v1-elapsed-garbage.json", FC_FORMAT_ERROR_TYPE, "profile.samples[0].elapsed_since_start_ns: expected an integer, got 12ms" },
  { "v1-bad-timestamp.json", FC_FORMAT_ERROR_TYPE, "timestamp: not an RFC 3339 date-time" },
  { "v1-missing-timestamp.json", FC_FORMAT_ERROR_MISSING, "timestamp: missing" },
  { "deep-nesting.json", FC_FORMAT_ERROR_SYNTAX, "nested deeper than 64 levels" },
  { "invalid-utf8.json", FC_FORMAT_ERROR_SYNTAX, "UTF8" },
  { "missing-profile.json", FC_FORMAT_ERROR_MISSING, "missing the \"profile\" object" },
  { "missing-stack-id.json", FC_FORMAT_ERROR_MISSING, "profile.samples[0]: missing \"stack_id\"" },
  { "missing-thread-id.json", FC_FORMAT_ERROR_MISSING, "profile.samples[0]: missing \"thread_id\"" },
  { "missing-timestamp.json", FC_FORMAT_ERROR_MISSING, "profile.samples[0]: missing \"timestamp\"" },
  { "missing-frames.json", FC_FORMAT_ERROR_MISSING, "profile: missing \"frames\"" },
  { "numeric-thread-id-v2.json", FC_FORMAT_ERROR_TYPE, "profile.samples[0].thread_id: a number, but V2 thread ids are strings" },
  { "unknown-version.json", FC_FORMAT_ERROR_UNSUPPORTED, "version \"3\"" },
  { "version-number.json", FC_FORMAT_ERROR_TYPE, "version: expected the string \"1\" or \"2\"" },
  { "duplicate-samples.json", FC_FORMAT_ERROR_SYNTAX, "profile.samples: duplicate key" },
  { "lineno-string.json", FC_FORMAT_ERROR_TYPE, "profile.frames[0].lineno: expected an integer, got a string" },
  { "instruction-addr-garbage.json", FC_FORMAT_ERROR_TYPE, "profile.frames[0].instruction_addr: expected a hex address" },
  { "in-app-string.json", FC_FORMAT_ERROR_TYPE, "profile.frames[0].in_app: expected a boolean" },
  { "thread-priority-negative.json", FC_FORMAT_ERROR_RANGE, "profile.thread_metadata.1.priority: negative value -2" },
  { "not-a-profile.json", FC_FORMAT_ERROR_UNSUPPORTED, "not a Sentry profile" },
  { "envelope-length-past-end.envelope", FC_FORMAT_ERROR_ENVELOPE, "envelope item 1 (profile_chunk): length 1148 runs past the end" },
  { "envelope-bad-item-header.envelope", FC_FORMAT_ERROR_ENVELOPE, "envelope item 1: the item header is not a JSON object" },
  { "envelope-item-without-type.envelope", FC_FORMAT_ERROR_ENVELOPE, "envelope item 1: the item header has no \"type\"" },
  { "envelope-byte-after-payload.envelope", FC_FORMAT_ERROR_ENVELOPE, "expected a newline after the 3-byte payload" },
  { "envelope-negative-length.envelope", FC_FORMAT_ERROR_ENVELOPE, "\"length\" is not a non-negative integer" },
  { "envelope-broken-chunk.envelope", FC_FORMAT_ERROR_TYPE, "envelope item 2 (profile_chunk): profile.samples[1].stack_id: expected an integer" },
  { "envelope-bad-transaction.envelope", FC_FORMAT_ERROR_SYNTAX, "envelope item 1 (transaction): the transaction is not a JSON object" },
  { "envelope-empty-transaction.envelope", FC_FORMAT_ERROR_SYNTAX, "envelope item 1 (transaction): the transaction is not a JSON object" },
  { "gzip-truncated.json.gz", FC_FORMAT_ERROR_SYNTAX, "corrupt or truncated gzip data" },
  { "gzip-corrupt.json.gz", FC_FORMAT_ERROR_SYNTAX, "corrupt or truncated gzip data" },
};

static void
test_broken_corpus (void)
{
  g_autofree char *dir = fc_test_data_path ("broken");
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_files = 0;

  /* the corpus and this table stay in step */
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      gboolean listed = FALSE;

      for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
        listed |= g_str_equal (broken[i].name, name);
      if (!listed)
        g_test_message ("not in the table: %s", name);
      g_assert_true (listed);
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, G_N_ELEMENTS (broken));

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autofree char *path = g_build_filename (dir, broken[i].name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) lenient_error = NULL;
      g_autoptr(FcDocument) doc = load_path (path, FC_READ_FLAGS_NONE, &error);
      g_autoptr(FcDocument) lenient = NULL;

      g_test_message ("%s: %s", broken[i].name, error ? error->message : "(no error)");
      g_assert_null (doc);
      g_assert_error (error, FC_FORMAT_ERROR, (gint)broken[i].code);
      g_assert_nonnull (strstr (error->message, broken[i].message_part));

      /* lenient mode never crashes either: it fails with our domain or recovers */
      lenient = load_path (path, FC_READ_LENIENT, &lenient_error);
      g_assert_true ((lenient == NULL) != (lenient_error == NULL));
      if (lenient_error != NULL)
        g_assert_true (lenient_error->domain == FC_FORMAT_ERROR);
    }
}

static void
test_lenient_recovery (void)
{
  g_autofree char *numeric = fc_test_data_path ("broken/numeric-thread-id-v2.json");
  g_autofree char *dangling = fc_test_data_path ("broken/stack-id-dangling.json");
  g_autofree char *frames = fc_test_data_path ("broken/frame-id-dangling.json");
  g_autofree char *empty = fc_test_data_path ("broken/empty-samples.json");
  g_autoptr(FcDocument) doc = NULL;
  FcProfile *profile;
  guint32 stack_frames[4];
  const FcSample *s;
  char buf[64];
  guint n;

  doc = load_ok (numeric, FC_READ_LENIENT);
  profile = fc_document_get_profile (doc, 0);
  g_assert_cmpuint (fc_profile_get_n_samples (profile), ==, 2);
  g_assert_cmpstr (thread_name_of (profile, "1"), ==, "MainThread");
  g_assert_true (has_problem (doc, "profile.samples[0].thread_id", "V2 thread ids are strings"));
  g_clear_object (&doc);

  doc = load_ok (dangling, FC_READ_LENIENT);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), ==, 2);
  g_assert_true (has_problem (doc, "profile.samples[2].stack_id", "7 but only 2 stacks; sample dropped"));
  g_clear_object (&doc);

  doc = load_ok (frames, FC_READ_LENIENT);
  profile = fc_document_get_profile (doc, 0);
  g_assert_true (has_problem (doc, "profile.stacks[1][0]", "frame 9 but only 2 frames"));
  s = fc_profile_get_samples (profile, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (fc_profile_stack_frames (profile, s[1].stack, stack_frames, 4), ==, 2);
  g_assert_cmpstr (fc_profile_frame_label (profile, stack_frames[0], buf, sizeof buf), ==, "<missing frame 9>");
  g_assert_cmpstr (fc_profile_frame_label (profile, stack_frames[1], buf, sizeof buf), ==, "main");
  g_clear_object (&doc);

  /* the validator reports empty profiles; the lenient reader opens them */
  doc = load_ok (empty, FC_READ_LENIENT);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), ==, 0);
}

/* Every prefix of a payload and of an envelope fails cleanly, and random
 * byte flips never crash. */
static void
test_truncation_and_flips (void)
{
  const char *names[] = { "good/compact-v2.json", "good/python-v1.envelope", "good/key-order.json" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240827);

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *path = fc_test_data_path (names[k]);
      g_autofree char *contents = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &contents, &len, NULL));

      for (gsize cut = 0; cut < len - 1; cut++)
        {
          g_autoptr(GBytes) bytes = g_bytes_new (contents, cut);
          g_autoptr(GError) error = NULL;
          g_autoptr(FcDocument) doc = fc_reader_load_bytes (bytes, FC_READ_LENIENT, &error);

          /* an envelope cut right after an item is still a valid envelope */
          if (doc == NULL)
            g_assert_true (error->domain == FC_FORMAT_ERROR);
        }

      for (guint round = 0; round < 1000; round++)
        {
          g_autofree char *copy = g_memdup2 (contents, len);
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(GError) error = NULL;
          g_autoptr(FcDocument) doc = NULL;

          /* half random bytes, half JSON and envelope punctuation */
          for (guint flips = g_rand_int_range (rand, 1, 4); flips > 0; flips--)
            copy[g_rand_int_range (rand, 0, len)] = g_rand_boolean (rand)
              ? (char)g_rand_int_range (rand, 0, 256)
              : "{}[],:\"0123456789-.e \n"[g_rand_int_range (rand, 0, 22)];

          bytes = g_bytes_new_take (g_steal_pointer (&copy), len);
          doc = fc_reader_load_bytes (bytes, FC_READ_LENIENT, &error);
          g_assert_true ((doc == NULL) != (error == NULL));
          if (doc == NULL)
            g_assert_true (error->domain == FC_FORMAT_ERROR);
        }
    }
}

static void
test_too_large (void)
{
  g_autofree char *tmpdir = g_dir_make_tmp ("fc-reader-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (tmpdir, "huge.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = NULL;
  FILE *f;

  /* sparse: no disk space is used */
  f = fopen (path, "w");
  g_assert_nonnull (f);
  g_assert_cmpint (ftruncate (fileno (f), (off_t)FC_READER_MAX_SIZE + 1), ==, 0);
  fclose (f);

  doc = load_path (path, FC_READ_LENIENT, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "larger than the reader's limit"));
  g_assert_null (doc);

  g_unlink (path);
  g_rmdir (tmpdir);
}

static void
test_parse_payload (void)
{
  g_autofree char *path = fc_test_data_path ("broken/frame-id-dangling.json");
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify)fc_problem_free);
  g_autoptr(FcProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));

  profile = fc_reader_parse_payload (contents, len, FC_READ_FLAGS_NONE, problems, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE);
  g_assert_null (profile);
  g_clear_error (&error);

  profile = fc_reader_parse_payload (contents, len, FC_READ_LENIENT, problems, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpstr (((FcProblem *)g_ptr_array_index (problems, 0))->location, ==, "profile.stacks[1][0]");
  g_assert_cmpuint (fc_profile_get_source_size (profile), ==, len);

  g_clear_object (&profile);
  profile = fc_reader_parse_payload ("{\"version\":\"2\"}", 15, FC_READ_LENIENT, NULL, &error);
  g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING);
  g_assert_null (profile);
}

static void
load_async_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  FcDocument **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = fc_reader_load_file_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v1-node-stored.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(FcDocument) doc = NULL;

  fc_reader_load_file_async (file, FC_READ_FLAGS_NONE, NULL, load_async_cb, &doc);
  while (doc == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), ==, 44);
}

static void
test_cancelled (void)
{
  g_autofree char *path = fc_test_data_path ("payloads/v1-node-stored.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = NULL;

  g_cancellable_cancel (cancellable);
  doc = fc_reader_load_file (file, FC_READ_FLAGS_NONE, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (doc);
}

/* Sample timestamps as SDKs write them take a shortcut in the parser; it
 * must read exactly what fc_time_parse_seconds() reads, and leave the
 * rest (exponents, more than nine decimals, out of range) to it. */
static void
test_timestamps (void)
{
  static const char *texts[] = {
    "1710805788.123456", "1710805788", "1710805788.5", "1710805788.123456789", "0.000000001", "0",
    "1710805788.25", "1710805788.1234567891", "1710805788.9999999999", "1.7108057881e9", "17108057881e-1",
    "7258118400", "7258118399.999999999", "0.5e1",
  };
  g_autoptr(GString) json = g_string_new ("{\"version\":\"2\",\"platform\":\"python\",\"profile\":{"
                                          "\"frames\":[{\"function\":\"f\"}],\"stacks\":[[0]],\"samples\":[");
  g_autoptr(FcProfile) profile = NULL;
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GError) error = NULL;
  const FcSample *samples;
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      gint64 ns = 0;

      g_assert_true (fc_time_parse_seconds (texts[i], strlen (texts[i]), &ns));
      g_array_append_val (expected, ns);
      /* each sample on its own thread: the model keeps them in time order */
      g_string_append_printf (json, "%s{\"stack_id\":0,\"thread_id\":\"%u\",\"timestamp\":%s}",
                              i ? "," : "", i + 1, texts[i]);
    }
  g_string_append (json, "]}}");

  profile = fc_reader_parse_payload (json->str, json->len, FC_READ_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  samples = fc_profile_get_samples (profile, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (texts));
  for (guint i = 0; i < n; i++)
    {
      guint thread = (guint) g_ascii_strtoull (fc_profile_string (profile, fc_profile_get_thread (profile, samples[i].thread)->tid),
                                               NULL, 10);

      g_test_message ("%s", texts[thread - 1]);
      g_assert_cmpint (samples[i].timestamp_ns, ==, g_array_index (expected, gint64, thread - 1));
    }

  /* past 2200 is refused, however written */
  {
    const char *late = "{\"version\":\"2\",\"platform\":\"python\",\"profile\":{\"frames\":[{\"function\":\"f\"}],"
                       "\"stacks\":[[0]],\"samples\":[{\"stack_id\":0,\"thread_id\":\"1\",\"timestamp\":7258118400.5}]}}";
    g_autoptr(FcProfile) refused = fc_reader_parse_payload (late, strlen (late), FC_READ_FLAGS_NONE, NULL, &error);

    g_assert_null (refused);
    g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_RANGE);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/reader/fixtures", test_fixtures);
  g_test_add_func ("/core/reader/timestamps", test_timestamps);
  g_test_add_func ("/core/reader/fixtures-all", test_fixtures_all);
  g_test_add_func ("/core/reader/unsupported", test_unsupported_messages);
  g_test_add_func ("/core/reader/valid-python-lenient", test_valid_python_lenient);
  g_test_add_func ("/core/reader/meta-lossless", test_meta_lossless);
  g_test_add_func ("/core/reader/frame-fields", test_frames_fields);
  g_test_add_func ("/core/reader/envelope-python", test_envelope_python);
  g_test_add_func ("/core/reader/envelope-node", test_envelope_node);
  g_test_add_func ("/core/reader/recorded", test_recorded);
  g_test_add_func ("/core/reader/envelope-length-no-final-newline", test_envelope_length_no_final_newline);
  g_test_add_func ("/core/reader/compact-payload", test_compact_payload);
  g_test_add_func ("/core/reader/v1-unordered", test_v1_unordered);
  g_test_add_func ("/core/reader/key-order", test_key_order);
  g_test_add_func ("/core/reader/broken-corpus", test_broken_corpus);
  g_test_add_func ("/core/reader/lenient-recovery", test_lenient_recovery);
  g_test_add_func ("/core/reader/truncation-and-flips", test_truncation_and_flips);
  g_test_add_func ("/core/reader/too-large", test_too_large);
  g_test_add_func ("/core/reader/parse-payload", test_parse_payload);
  g_test_add_func ("/core/reader/async", test_async);
  g_test_add_func ("/core/reader/cancelled", test_cancelled);

  return g_test_run ();
}
