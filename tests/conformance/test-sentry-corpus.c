/* test-sentry-corpus.c - the readers, the validator, the writer and the CLI on Sentry's own
 * fixtures (relay, vroom, vroomrs: ../shared/fixtures/sentry beside the repository)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one test allowed to read outside the repository (meson passes the folder as
 * FC_SENTRY_CORPUS_DIR). Where the folder is not there it says so in one line and is skipped;
 * everything it checks on Sentry's files is checked on the project's own files in tests/data
 * by the main suite. Here the expectations are those of the real files, and one more check
 * ties the two: the hand-written SDK payloads of tests/data have exactly the keys and value
 * types of Relay's fixtures, so that tests comparing our output with them compare it with
 * what the SDKs send.
 */

#include <string.h>

#include "flamecast.h"
#include "fc-reader.h"
#include "fc-validate.h"
#include "fc-writer.h"
#include "fc-test-fixtures.h"

#define E FC_PROBLEM_ERROR
#define W FC_PROBLEM_WARNING

static const char *corpus;

static char *
corpus_path (const char *relative)
{
  return g_build_filename (corpus, relative, NULL);
}

static FcDocument *
load_path (const char   *path,
           FcReadFlags   flags,
           GError      **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  return fc_reader_load_file (file, flags, NULL, error);
}

static FcDocument *
load_corpus (const char  *relative,
             FcReadFlags  flags)
{
  g_autofree char *path = corpus_path (relative);
  g_autoptr(GError) error = NULL;
  FcDocument *document = load_path (path, flags, &error);

  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

/* the files that read (the others are an Android trace and a legacy cocoa profile) */
static const char * const readable[] = {
  "relay/sample/v1/valid.json",
  "relay/sample/v2/valid.json",
  "vroom/test/data/node.json",
  "vroomrs/sample/v1/valid_cocoa.json",
  "vroomrs/sample/v1/valid_python.json",
  "vroomrs/sample/v2/valid_android.json",
  "vroomrs/sample/v2/valid_cocoa.json",
  "vroomrs/sample/v2/valid_python.json",
};

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
} Expected;

static const Expected expected[] = {
  { "relay/sample/v2/valid.json", FC_DOCUMENT_V2, 4, 2, 2,
    G_GINT64_CONSTANT (1710805788500000000), G_GINT64_CONSTANT (1710805788530000000),
    { { "0x0000000102adc700", "com.apple.main-thread" }, { "0x000000016d8fb180", "com.apple.network.connections" } },
    NULL },
  { "relay/sample/v1/valid.json", FC_DOCUMENT_V1, 4, 2, 2,
    G_GINT64_CONSTANT (1662025500010500500), G_GINT64_CONSTANT (1662025500040500500),
    { { "1", NULL }, { "2", NULL } },
    NULL },
  { "vroomrs/sample/v2/valid_cocoa.json", FC_DOCUMENT_V2, 4, 2, 2,
    G_GINT64_CONSTANT (1710805788500000000), G_GINT64_CONSTANT (1710805788530000000),
    { { "0x0000000102adc700", "com.apple.main-thread" } },
    NULL },
  { "vroomrs/sample/v2/valid_android.json", FC_DOCUMENT_V2, 5, 2, 4,
    G_GINT64_CONSTANT (1710805688117936800), G_GINT64_CONSTANT (1710805688137936800),
    { { "1", "main" }, { "2", "sentry.io-thread" } },
    NULL },
  /* one frame, but a stack of seven: six placeholders */
  { "vroomrs/sample/v2/valid_python.json", FC_DOCUMENT_V2, 1, 3, 7,
    G_GINT64_CONSTANT (1724762625575655500), G_GINT64_CONSTANT (1724762625575655500),
    { { "6154596352", "sentry.profiler.ThreadContinuousScheduler" }, { "8572500672", "MainThread" },
      { "6171422720", "sentry.monitor" } },
    "profile.stacks[0][1]: frame 1 but only 1 frames" },
  /* the fourth sample points past the stacks and is dropped */
  { "vroomrs/sample/v1/valid_cocoa.json", FC_DOCUMENT_V1, 3, 4, 23,
    G_GINT64_CONSTANT (1747723006492586875), G_GINT64_CONSTANT (1747723006516515917),
    { { "259", "main" }, { "16131", NULL } },
    "profile.stacks[0][0]: frame 510 but only 7 frames" },
  { "vroomrs/sample/v1/valid_python.json", FC_DOCUMENT_V1, 4, 4, 11,
    G_GINT64_CONSTANT (1747662420483898821), G_GINT64_CONSTANT (1747662420483898821),
    { { "133875472791232", "ThreadPoolExecutor-2_1" }, { "133875912132288", NULL } },
    "profile.stacks[0][4]: frame 4 but only 4 frames" },
  /* 303 frames in the file, 200 distinct */
  { "vroom/test/data/node.json", FC_DOCUMENT_V1, 44, 1, 200,
    G_GINT64_CONSTANT (1673511894614055000), G_GINT64_CONSTANT (1673511895098554000),
    { { "0", "main" } },
    NULL },
};

static const char *
thread_name_of (FcProfile  *profile,
                const char *tid)
{
  guint32 index;

  g_assert_true (fc_profile_lookup_thread (profile, tid, &index));
  return fc_profile_string (profile, fc_profile_get_thread (profile, index)->name);
}

static void
test_read (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const Expected *f = &expected[i];
      g_autofree char *path = corpus_path (f->path);
      g_autoptr(FcDocument) doc = load_corpus (f->path, FC_READ_LENIENT);
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

      strict = load_path (path, FC_READ_FLAGS_NONE, &error);
      if (f->strict_error == NULL)
        {
          g_assert_no_error (error);
          g_assert_nonnull (strict);
          /* node.json's frame 181 has only a line number: a warning, no error */
          g_assert_cmpuint (fc_document_get_problems (doc)->len, ==, g_str_has_suffix (f->path, "node.json") ? 1 : 0);
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

/* Every file reads, including ones added to the corpus later; the two foreign formats say so,
 * each in its own words. */
static void
test_read_all (void)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  guint n_unsupported = 0;

  collect_json (corpus, paths);
  g_assert_cmpuint (paths->len, >=, 10);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(FcDocument) doc = load_path (path, FC_READ_LENIENT, &error);

      g_test_message ("%s", path);
      if (g_str_has_suffix (path, "vroomrs/android/chunk/valid.json"))
        {
          g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED);
          g_assert_nonnull (strstr (error->message, "Android trace"));
          n_unsupported++;
        }
      else if (g_str_has_suffix (path, "vroom/test/data/cocoa.json"))
        {
          g_assert_error (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_UNSUPPORTED);
          g_assert_nonnull (strstr (error->message, "legacy"));
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

static GPtrArray *
validate (const char *relative)
{
  g_autoptr(FcDocument) document = load_corpus (relative, FC_READ_LENIENT);
  GPtrArray *problems = fc_validate_document (document);

  g_test_message ("%s:", relative);
  fc_test_print_problems (problems);
  return problems;
}

/* What an SDK sends: Relay accepts both. */
static void
test_validate_sdk (void)
{
  g_autoptr(GPtrArray) v2 = validate ("relay/sample/v2/valid.json");
  g_autoptr(GPtrArray) v1 = validate ("relay/sample/v1/valid.json");

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

/* What Sentry stores: complete files pass, cut-down ones fail where they are incomplete. */
static void
test_validate_stored (void)
{
  g_autoptr(GPtrArray) node = validate ("vroom/test/data/node.json");
  g_autoptr(GPtrArray) cocoa2 = validate ("vroomrs/sample/v2/valid_cocoa.json");
  g_autoptr(GPtrArray) android = validate ("vroomrs/sample/v2/valid_android.json");
  g_autoptr(GPtrArray) python2 = validate ("vroomrs/sample/v2/valid_python.json");
  g_autoptr(GPtrArray) python1 = validate ("vroomrs/sample/v1/valid_python.json");
  g_autoptr(GPtrArray) cocoa1 = validate ("vroomrs/sample/v1/valid_cocoa.json");

  g_assert_false (fc_problems_has_errors (node));
  fc_test_assert_problem (node, W, "transactions[0].segment_id", "missing");

  g_assert_false (fc_problems_has_errors (cocoa2));
  fc_test_assert_no_problem (cocoa2, E, "measurements.cpu.unit", NULL);

  g_assert_false (fc_problems_has_errors (android));
  fc_test_assert_problem (android, W, "platform", "Android trace");

  g_assert_true (fc_problems_has_errors (python2));
  fc_test_assert_problem (python2, E, "profile.samples", "not enough samples");
  fc_test_assert_problem (python2, E, "profile.stacks[0][1]", "frame 1");
  fc_test_assert_problem (python2, W, "thread 6154596352", "Relay drops this thread");

  g_assert_true (fc_problems_has_errors (python1));
  fc_test_assert_problem (python1, E, "profile.samples", "not enough samples");
  fc_test_assert_problem (python1, E, "profile.stacks[2][0]", "frame 8");
  fc_test_assert_problem (python1, W, "thread 133875912132288", "no thread_metadata");
  fc_test_assert_problem (python1, W, "transaction.relative_start_ns", "missing");
  fc_test_assert_no_problem (python1, E, "device.architecture", NULL);
  fc_test_assert_no_problem (python1, E, "timestamp", NULL);

  g_assert_true (fc_problems_has_errors (cocoa1));
  fc_test_assert_problem (cocoa1, E, "profile.stacks[3][0]", "frame 512");
  fc_test_assert_problem (cocoa1, E, "profile.samples[3].stack_id", "only 4 stacks");
  fc_test_assert_no_problem (cocoa1, E, "transaction.active_thread_id", NULL);
}

/* read -> write -> read gives the same samples and metadata; writing again the same bytes */
static void
test_round_trip (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (readable); i++)
    {
      g_autoptr(FcDocument) document = load_corpus (readable[i], FC_READ_LENIENT);
      FcProfile *original = fc_document_get_profile (document, 0);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) first = NULL;
      g_autoptr(GBytes) second = NULL;
      g_autoptr(FcDocument) again = NULL;
      g_autoptr(GString) why = g_string_new (NULL);
      g_autoptr(GList) keys = NULL;
      FcProfile *reread;

      g_test_message ("%s", readable[i]);
      first = fc_writer_write_profile_full (original, FC_WRITE_KEEP_CLIENT_SDK, &error);
      g_assert_no_error (error);
      again = fc_test_load_bytes (first);
      reread = fc_document_get_profile (again, 0);
      g_assert_cmpint (fc_profile_get_format (reread), ==, fc_profile_get_format (original));
      if (!fc_profile_equal_samples (original, reread, why))
        g_error ("%s: %s", readable[i], why->str);

      keys = json_object_get_members (fc_profile_get_meta (original));
      for (GList *l = keys; l != NULL; l = l->next)
        {
          JsonNode *a = json_object_get_member (fc_profile_get_meta (original), l->data);
          JsonNode *b = json_object_get_member (fc_profile_get_meta (reread), l->data);

          g_assert_nonnull (b);
          if (g_strcmp0 (l->data, "timestamp") == 0 && fc_profile_get_format (original) == FC_FORMAT_V1)
            g_assert_cmpint (fc_profile_get_start_ns (reread), ==, fc_profile_get_start_ns (original));
          else
            g_assert_true (json_node_equal (a, b));
        }

      second = fc_writer_write_profile_full (reread, FC_WRITE_KEEP_CLIENT_SDK, &error);
      g_assert_no_error (error);
      g_assert_true (g_bytes_equal (first, second));
    }
}

static const char *
type_of (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "array";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return "string";
    case G_TYPE_BOOLEAN:
      return "boolean";
    default:
      return "number";
    }
}

/* The same keys with the same types of values, in objects and in the first element of arrays,
 * all the way down. */
static void
assert_same_shape (const char *where,
                   JsonNode   *ours,
                   JsonNode   *theirs)
{
  g_test_message ("%s", where);
  g_assert_cmpstr (type_of (ours), ==, type_of (theirs));
  if (JSON_NODE_HOLDS_OBJECT (ours))
    {
      JsonObject *a = json_node_get_object (ours);
      JsonObject *b = json_node_get_object (theirs);
      g_autoptr(GList) keys = json_object_get_members (b);
      g_autoptr(GList) our_keys = json_object_get_members (a);

      g_assert_cmpuint (json_object_get_size (a), ==, json_object_get_size (b));
      /* thread and queue metadata are keyed by id: the first entry against the first */
      if (g_str_has_suffix (where, "thread_metadata") || g_str_has_suffix (where, "queue_metadata"))
        {
          g_autofree char *inner = g_strdup_printf ("%s[first]", where);

          if (keys != NULL)
            assert_same_shape (inner, json_object_get_member (a, our_keys->data),
                               json_object_get_member (b, keys->data));
          return;
        }
      for (GList *l = keys; l != NULL; l = l->next)
        {
          g_autofree char *inner = g_strdup_printf ("%s.%s", where, (const char *) l->data);
          JsonNode *mine = json_object_get_member (a, l->data);

          if (mine == NULL)
            g_error ("%s: Relay's fixture has it, ours does not", inner);
          assert_same_shape (inner, mine, json_object_get_member (b, l->data));
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (ours))
    {
      JsonArray *a = json_node_get_array (ours);
      JsonArray *b = json_node_get_array (theirs);

      if (json_array_get_length (a) > 0 && json_array_get_length (b) > 0)
        {
          g_autofree char *inner = g_strdup_printf ("%s[0]", where);

          assert_same_shape (inner, json_array_get_element (a, 0), json_array_get_element (b, 0));
        }
    }
}

static JsonNode *
parse_file (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_sdk_shapes (void)
{
  static const char * const pairs[][2] = {
    { "payloads/v2-cocoa.json", "relay/sample/v2/valid.json" },
    { "payloads/v1-cocoa.json", "relay/sample/v1/valid.json" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autofree char *ours_path = fc_test_data_path (pairs[i][0]);
      g_autofree char *theirs_path = corpus_path (pairs[i][1]);
      g_autoptr(JsonNode) ours = parse_file (ours_path);
      g_autoptr(JsonNode) theirs = parse_file (theirs_path);

      assert_same_shape (pairs[i][0], ours, theirs);
    }
}

/* `flamecast-cli validate`: the exit status and a line of its report, per file */
static void
test_cli_validate (void)
{
  static const struct {
    const char *file;
    int         status;
    const char *line;
  } cases[] = {
    { "relay/sample/v2/valid.json", 0, "ok (2 warnings)" },
    { "relay/sample/v1/valid.json", 0, "warning: transactions[0].active_thread_id" },
    { "vroom/test/data/node.json", 0, "ok (" },
    { "vroomrs/sample/v2/valid_cocoa.json", 0, "ok (" },
    { "vroomrs/sample/v2/valid_android.json", 0, "warning: platform" },
    { "vroomrs/sample/v2/valid_python.json", 1, "error: profile.samples: not enough samples" },
    { "vroomrs/sample/v1/valid_python.json", 1, "error: profile.stacks[0][4]: frame 4 but only 4 frames" },
    { "vroomrs/sample/v1/valid_cocoa.json", 1, "error: profile.samples[3].stack_id" },
    { "vroomrs/android/chunk/valid.json", 2, "Android trace" },
    { "vroom/test/data/cocoa.json", 2, "legacy" },
  };
  const char *cli = g_getenv ("FC_CLI");

  g_assert_nonnull (cli);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = corpus_path (cases[i].file);
      const char *argv[] = { cli, "validate", path, NULL };
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *out = NULL;

      process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s -> %d\n%s", cases[i].file, g_subprocess_get_exit_status (process), out);
      g_assert_cmpint (g_subprocess_get_exit_status (process), ==, cases[i].status);
      g_assert_nonnull (strstr (out, cases[i].line));
    }
}

int
main (int   argc,
      char *argv[])
{
  corpus = g_getenv ("FC_SENTRY_CORPUS_DIR");
  if (corpus == NULL || !g_file_test (corpus, G_FILE_TEST_IS_DIR))
    {
      /* one line, TAP for "the whole program skipped" */
      g_print ("1..0 # SKIP needs sentry-corpus: %s not found (Sentry's fixtures beside the repository; "
               "tests/data has the project's own)\n", corpus ? corpus : "FC_SENTRY_CORPUS_DIR unset,");
      return 0;
    }

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/conformance/sentry/read", test_read);
  g_test_add_func ("/conformance/sentry/read-all", test_read_all);
  g_test_add_func ("/conformance/sentry/validate-sdk", test_validate_sdk);
  g_test_add_func ("/conformance/sentry/validate-stored", test_validate_stored);
  g_test_add_func ("/conformance/sentry/round-trip", test_round_trip);
  g_test_add_func ("/conformance/sentry/sdk-shapes", test_sdk_shapes);
  g_test_add_func ("/conformance/sentry/cli-validate", test_cli_validate);

  return g_test_run ();
}
