/* test-interop.c - OTLP, pprof, speedscope, folded and perf script: written, checked by their real
 * consumers (protoc, go tool pprof, speedscope's JSON schema), read back, and bad input refused
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>
#include <string.h>

#include "fc-chunk-meta.h"
#include "fc-format-error.h"
#include "fc-folded.h"
#include "fc-otlp.h"
#include "fc-pprof.h"
#include "fc-reader.h"
#include "fc-speedscope.h"
#include "fc-test-profiles.h"

/* ---- a profile with native frames, an inlined call and two named threads ---- */

static guint32
native_frame (FcProfile  *p,
              const char *function,
              const char *file,
              gint32      line,
              guint64     addr)
{
  FcFrame frame;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (p, function);
  frame.abs_path = fc_profile_intern (p, file);
  frame.filename = frame.abs_path;
  frame.package = fc_profile_intern (p, "/usr/bin/app");
  frame.module = frame.package;
  frame.lineno = line;
  frame.has_instruction_addr = TRUE;
  frame.instruction_addr = addr;
  frame.in_app = FC_IN_APP_YES;
  return fc_profile_intern_frame (p, &frame);
}

static FcDocument *
native_document_new (void)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  JsonObject *meta = fc_profile_get_meta (p);
  /* outer() inlines leaf() at 0x1010: two frames at one address */
  guint32 leaf = native_frame (p, "leaf", "/src/app.c", 5, 0x1010);
  guint32 outer = native_frame (p, "outer", "/src/app.c", 21, 0x1010);
  guint32 work = native_frame (p, "work", "/src/work.c", 40, 0x1200);
  guint32 main_f = native_frame (p, "main", "/src/main.c", 9, 0x1400);
  guint32 t_main = fc_profile_ensure_thread (p, "4242");
  guint32 t_work = fc_profile_ensure_thread (p, "4243");

  json_object_set_string_member (meta, "version", "2");
  json_object_set_string_member (meta, "platform", "native");
  json_object_set_string_member (meta, "release", "app@1.2");
  json_object_set_string_member (meta, "environment", "ci");
  json_object_set_string_member (meta, "chunk_id", "0123456789abcdef0123456789abcdef");
  json_object_set_string_member (meta, "profiler_id", "fedcba9876543210fedcba9876543210");
  fc_profile_add_image (p, fc_chunk_meta_new_elf_image ("/usr/bin/app", "b0c1d2e3f4a5968778695a4b3c2d1e0f11223344",
                                                       0x1000, 4096, FC_DEBUG_IMAGE_UNKNOWN));

  fc_profile_set_thread_name (p, t_main, "main");
  fc_profile_set_thread_name (p, t_work, "worker");
  fc_test_sample (p, t_main, 0, 3, main_f, outer, leaf);
  fc_test_sample (p, t_work, 3, 2, main_f, work);
  fc_test_sample (p, t_main, 10, 3, main_f, outer, leaf);
  fc_test_sample (p, t_main, 20, 2, main_f, work);
  fc_test_sample (p, t_work, 13, 4, main_f, work, outer, leaf);
  fc_test_sample (p, t_main, 30, 0);
  fc_profile_sort_samples (p);
  fc_document_add_profile (doc, p);
  return g_steal_pointer (&doc);
}

/* "tid name | f file:line < ..." for a sample */
static char *
describe_sample (FcProfile      *p,
                 const FcSample *s)
{
  const FcThread *t = fc_profile_get_thread (p, s->thread);
  GString *out = g_string_new (NULL);
  guint32 frames[64];
  guint n = fc_profile_stack_frames (p, s->stack, frames, G_N_ELEMENTS (frames));

  g_string_append_printf (out, "%s %s |", fc_profile_string (p, t->tid), fc_profile_string (p, t->name));
  for (guint i = 0; i < n; i++)
    {
      const FcFrame *f = fc_profile_get_frame (p, frames[i]);
      const char *file = fc_profile_string (p, f->abs_path);

      if (file == NULL)
        file = fc_profile_string (p, f->filename);
      g_string_append_printf (out, " %s %s:%d <", fc_profile_string (p, f->function), file, f->lineno);
    }
  return g_string_free (out, FALSE);
}

/* same samples in the same order: thread, name, frames with file and line, timestamp */
static void
assert_same_samples (FcProfile *a,
                     FcProfile *b)
{
  guint na = 0, nb = 0;
  const FcSample *sa = fc_profile_get_samples (a, &na);
  const FcSample *sb = fc_profile_get_samples (b, &nb);

  g_assert_cmpuint (na, ==, nb);
  for (guint i = 0; i < na; i++)
    {
      g_autofree char *da = describe_sample (a, &sa[i]);
      g_autofree char *db = describe_sample (b, &sb[i]);

      g_assert_cmpstr (da, ==, db);
      g_assert_cmpint (sa[i].timestamp_ns, ==, sb[i].timestamp_ns);
    }
}

/* the samples as a multiset (pprof keeps no order and no timestamps) */
static GHashTable *
sample_counts (FcProfile *p)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n = 0;
  const FcSample *s = fc_profile_get_samples (p, &n);

  for (guint i = 0; i < n; i++)
    {
      char *d = describe_sample (p, &s[i]);
      guint c = GPOINTER_TO_UINT (g_hash_table_lookup (counts, d));

      g_hash_table_replace (counts, d, GUINT_TO_POINTER (c + 1));
    }
  return counts;
}

static FcProfile *
read_back (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_reader_load_bytes (bytes, FC_READ_FLAGS_NONE, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (fc_document_get_n_profiles (doc), ==, 1);
  return g_object_ref (fc_document_get_profile (doc, 0));
}

static char *
write_temp (GBytes     *bytes,
            const char *name)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  return path;
}

/* runs a shell command line, asserting exit 0; returns its standard output */
static char *
run (const char *command)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;
  const char *argv[] = { "/bin/sh", "-c", command, NULL };

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", command, err);
  return out;
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("\"%s\" not found in:\n%s", needle, haystack);
}

/* ---- OTLP ---- */

static void
test_otlp_round_trip (void)
{
  g_autoptr(FcDocument) doc = native_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_otlp_write (doc, &error);
  g_autoptr(GBytes) json = NULL;
  g_autoptr(FcProfile) back = NULL;
  g_autoptr(FcProfile) back_json = NULL;
  FcProfile *orig = fc_document_get_profile (doc, 0);

  g_assert_no_error (error);
  back = read_back (bytes);
  assert_same_samples (orig, back);
  g_assert_cmpstr (fc_profile_get_release (back), ==, "app@1.2");
  g_assert_cmpstr (fc_profile_get_environment (back), ==, "ci");
  g_assert_cmpstr (fc_profile_get_platform (back), ==, "native");

  /* the mapping's build id and range come back as a debug image */
  {
    const FcDebugImage *image = g_ptr_array_index (fc_profile_get_images (back), 0);

    g_assert_cmpstr (image->code_file, ==, "/usr/bin/app");
    g_assert_cmpstr (image->code_id, ==, "b0c1d2e3f4a5968778695a4b3c2d1e0f11223344");
    g_assert_cmpuint (image->image_addr, ==, 0x1000);
    g_assert_cmpuint (image->image_size, ==, 4096);
  }

  json = fc_otlp_write_json (doc, &error);
  g_assert_no_error (error);
  back_json = read_back (json);
  assert_same_samples (orig, back_json);
}

static void
test_otlp_protoc_decode (void)
{
  g_autoptr(FcDocument) doc = native_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_otlp_write (doc, &error);
  g_autofree char *path = write_temp (bytes, "fc-interop.otlp");
  g_autofree char *cmd = g_strdup_printf ("protoc --proto_path='%s' "
                                          "--decode=opentelemetry.proto.profiles.v1development.ProfilesData "
                                          "otel-profiles.proto < '%s'", g_getenv ("FC_PROTO_DIR"), path);
  g_autofree char *out = run (cmd);
  g_autofree char *dict = NULL;

  /* tables start with their zero entries; samples carry every timestamp */
  assert_contains (out, "dictionary {\n  mapping_table {\n  }\n");
  assert_contains (out, "  location_table {\n  }\n  location_table {\n");
  assert_contains (out, "  string_table: \"\"\n");
  assert_contains (out, "string_table: \"leaf\"");
  assert_contains (out, "string_table: \"/src/app.c\"");
  assert_contains (out, "string_table: \"thread.id\"");
  assert_contains (out, "string_table: \"process.executable.build_id.gnu\"");
  assert_contains (out, "int_value: 4242");
  assert_contains (out, "string_value: \"worker\"");
  assert_contains (out, "timestamps_unix_nano: 1700000000000000000\n");
  assert_contains (out, "timestamps_unix_nano: 1700000000013000000\n");
  assert_contains (out, "key: \"service.version\"");
  assert_contains (out, "period: 10000000\n");
  /* the inlined call: one location with two lines */
  dict = g_strdup (strstr (out, "location_table {\n    mapping_index: 1\n    address: 4112\n"));
  g_assert_nonnull (dict);
  g_assert_nonnull (strstr (dict, "lines {"));
  g_assert_nonnull (strstr (strstr (dict, "lines {") + 1, "lines {"));
  g_unlink (path);
}

static void
test_otlp_json_rules (void)
{
  g_autoptr(FcDocument) doc = native_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_otlp_write_json (doc, &error);
  const char *text = g_bytes_get_data (bytes, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, text, g_bytes_get_size (bytes), NULL));
  /* lowerCamelCase keys, 64-bit integers as strings, 32-bit as numbers, bytes as base64 */
  assert_contains (text, "\"resourceProfiles\":[");
  assert_contains (text, "\"stringTable\":[\"\",");
  assert_contains (text, "\"timestampsUnixNano\":[\"1700000000000000000\",");
  assert_contains (text, "\"period\":\"10000000\"");
  assert_contains (text, "\"stackIndex\":");
  assert_contains (text, "\"intValue\":\"4242\"");
  assert_contains (text, "\"profileId\":\"ASNFZ4mrze8BI0VniavN7w==\"");
  g_assert_null (strstr (text, "_strindex"));
}

static void
test_otlp_links (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "good", "python-v1.envelope", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (fixture);
  g_autoptr(FcDocument) doc = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) json = NULL;
  JsonObject *txn;
  const char *trace_id;

  g_assert_no_error (error);
  txn = json_object_get_object_member (fc_profile_get_meta (fc_document_get_profile (doc, 0)), "transaction");
  trace_id = json_object_get_string_member (txn, "trace_id");
  bytes = fc_otlp_write (doc, &error);
  g_assert_no_error (error);
  json = fc_otlp_write_json (doc, &error);
  g_assert_no_error (error);
  /* traceId in hex, as OTLP/JSON wants */
  {
    g_autofree char *needle = g_strdup_printf ("\"linkTable\":[{},{\"traceId\":\"%s\"", trace_id);
    assert_contains (g_bytes_get_data (json, NULL), needle);
  }
  assert_contains (g_bytes_get_data (json, NULL), "\"linkIndex\":1");
}

/* ---- pprof ---- */

static void
test_pprof_round_trip (void)
{
  g_autoptr(FcDocument) doc = native_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_pprof_write (doc, &error);
  g_autoptr(FcProfile) back = NULL;
  g_autoptr(GHashTable) want = NULL;
  g_autoptr(GHashTable) got = NULL;
  GHashTableIter iter;
  gpointer key, value;
  const guint8 *data;

  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, NULL);
  g_assert_cmpuint (data[0], ==, 0x1f);   /* gzip */
  g_assert_cmpuint (data[1], ==, 0x8b);
  back = read_back (bytes);
  want = sample_counts (fc_document_get_profile (doc, 0));
  got = sample_counts (back);
  g_assert_cmpuint (g_hash_table_size (want), ==, g_hash_table_size (got));
  g_hash_table_iter_init (&iter, want);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (g_hash_table_lookup (got, key) != value)
        g_error ("%s: %u samples, got %u", (char *) key, GPOINTER_TO_UINT (value),
                 GPOINTER_TO_UINT (g_hash_table_lookup (got, key)));
    }
}

static void
test_pprof_go_tool (void)
{
  g_autoptr(FcDocument) doc = native_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_pprof_write (doc, &error);
  g_autofree char *path = write_temp (bytes, "fc-interop.pprof");
  g_autofree char *tmp = g_dir_make_tmp ("fc-go-XXXXXX", NULL);
  g_autofree char *cmd = g_strdup_printf ("HOME='%s' GOCACHE='%s/cache' GOPATH='%s/path' GOFLAGS= GOPROXY=off "
                                          "go tool pprof -raw '%s'", tmp, tmp, tmp, path);
  g_autofree char *out = run (cmd);

  assert_contains (out, "PeriodType: wall nanoseconds");
  assert_contains (out, "samples/count wall/nanoseconds");
  /* the busiest stack: main > outer > leaf on thread 4242, twice */
  assert_contains (out, "          2   20000000: 1 2 \n                thread.id:[4242] thread.name:[main]");
  assert_contains (out, "leaf /src/app.c:5");
  assert_contains (out, "outer /src/app.c:21");
  assert_contains (out, "/usr/bin/app b0c1d2e3f4a5968778695a4b3c2d1e0f11223344");
  g_unlink (path);
  {
    g_autofree char *rm = g_strdup_printf ("rm -rf '%s'", tmp);
    g_free (run (rm));
  }
}

/* A real Go program writes a real CPU profile with runtime/pprof. */
static void
test_pprof_go_cpu_profile (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("fc-go-XXXXXX", NULL);
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, "data", "interop", "burn.go", NULL);
  g_autofree char *cmd = g_strdup_printf ("cd '%s' && cp '%s' main.go && HOME='%s' GOCACHE='%s/cache' "
                                          "GOPATH='%s/path' GO111MODULE=off GOFLAGS= GOPROXY=off "
                                          "go build -o burn main.go && ./burn cpu.pprof",
                                          tmp, src, tmp, tmp, tmp);
  g_autofree char *profile_path = g_build_filename (tmp, "cpu.pprof", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (profile_path);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = NULL;
  FcProfile *p;
  gboolean found = FALSE;

  g_free (run (cmd));
  doc = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  p = fc_document_get_profile (doc, 0);
  g_assert_cmpuint (fc_profile_get_n_samples (p), >, 5);
  for (guint i = 0; i < fc_profile_get_n_frames (p); i++)
    {
      const FcFrame *f = fc_profile_get_frame (p, i);

      if (g_strcmp0 (fc_profile_string (p, f->function), "main.burnFlamecast") == 0)
        {
          g_assert_true (g_str_has_suffix (fc_profile_string (p, f->filename), "/main.go"));
          g_assert_cmpint (f->lineno, >, 0);
          found = TRUE;
        }
    }
  g_assert_true (found);
  {
    g_autofree char *rm = g_strdup_printf ("chmod -R u+w '%s'; rm -rf '%s'", tmp, tmp);
    g_free (run (rm));
  }
}

/* ---- speedscope ---- */

static void
test_speedscope_schema (void)
{
  g_autoptr(FcDocument) doc = native_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = fc_speedscope_write (doc, &error);
  g_autofree char *path = write_temp (bytes, "fc-interop.speedscope.json");
  g_autofree char *schema = g_test_build_filename (G_TEST_DIST, "data", "interop",
                                                   "speedscope-file-format-schema.json", NULL);
  g_autofree char *cmd = g_strdup_printf ("/usr/bin/python3 -c 'import json, sys, jsonschema; "
                                          "jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))); "
                                          "print(\"valid\")' '%s' '%s'", path, schema);
  g_autofree char *out = run (cmd);
  g_autoptr(FcProfile) back = NULL;
  const char *text = g_bytes_get_data (bytes, NULL);

  assert_contains (out, "valid");
  /* one evented profile per thread: frames open when a sample first has
   * them and close when one no longer does; the same stack twice closes
   * and reopens its leaf; the empty sample at 30 ms closes everything;
   * frames shared, with file and line */
  assert_contains (text, "{\"name\":\"leaf\",\"file\":\"/src/app.c\",\"line\":5}");
  assert_contains (text, "\"type\":\"evented\",\"name\":\"main (4242)\",\"unit\":\"nanoseconds\","
                         "\"startValue\":0,\"endValue\":40000000,\"events\":["
                         "{\"type\":\"O\",\"frame\":0,\"at\":0},{\"type\":\"O\",\"frame\":1,\"at\":0},"
                         "{\"type\":\"O\",\"frame\":2,\"at\":0},"
                         "{\"type\":\"C\",\"frame\":2,\"at\":10000000},{\"type\":\"O\",\"frame\":2,\"at\":10000000},"
                         "{\"type\":\"C\",\"frame\":2,\"at\":20000000},{\"type\":\"C\",\"frame\":1,\"at\":20000000},"
                         "{\"type\":\"O\",\"frame\":3,\"at\":20000000},"
                         "{\"type\":\"C\",\"frame\":3,\"at\":30000000},{\"type\":\"C\",\"frame\":0,\"at\":30000000}]}");
  /* the worker's last sample lasts one period */
  assert_contains (text, "\"type\":\"evented\",\"name\":\"worker (4243)\",\"unit\":\"nanoseconds\","
                         "\"startValue\":3000000,\"endValue\":23000000,\"events\":["
                         "{\"type\":\"O\",\"frame\":0,\"at\":3000000},{\"type\":\"O\",\"frame\":3,\"at\":3000000},"
                         "{\"type\":\"O\",\"frame\":1,\"at\":13000000},{\"type\":\"O\",\"frame\":2,\"at\":13000000},"
                         "{\"type\":\"C\",\"frame\":2,\"at\":23000000},{\"type\":\"C\",\"frame\":1,\"at\":23000000},"
                         "{\"type\":\"C\",\"frame\":3,\"at\":23000000},{\"type\":\"C\",\"frame\":0,\"at\":23000000}]}");

  /* and a broken copy is refused by the schema: the check can fail */
  {
    g_autofree char *bad = g_strdup_printf ("/usr/bin/python3 -c 'import json, sys, jsonschema; "
                                            "d = json.load(open(sys.argv[1])); d[\"profiles\"][0][\"unit\"] = \"parsecs\"; "
                                            "jsonschema.validate(d, json.load(open(sys.argv[2])))' '%s' '%s' 2>/dev/null",
                                            path, schema);
    const char *argv[] = { "/bin/sh", "-c", bad, NULL };
    int status = 0;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_false (g_spawn_check_wait_status (status, NULL));
  }

  /* read back: every sample with frames (see round-trip) */
  back = read_back (bytes);
  g_assert_cmpuint (fc_profile_get_n_samples (back), ==, 5);
  g_unlink (path);
}

/* a thread's samples as "offset_ns f file:line < ..." lines, the thread
 * left out: speedscope names threads by profile, not by id */
static char *
thread_samples (FcProfile *p,
                guint32    thread,
                gint64     origin)
{
  GString *out = g_string_new (NULL);
  guint n_all = 0, n = 0;
  const FcSample *all = fc_profile_get_samples (p, &n_all);
  const guint32 *idx = fc_profile_get_thread_samples (p, thread, &n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *d = describe_sample (p, &all[idx[i]]);

      if (fc_profile_get_stack (p, all[idx[i]].stack)->depth == 0)
        continue;
      g_string_append_printf (out, "%" G_GINT64_FORMAT "%s\n", all[idx[i]].timestamp_ns - origin, strchr (d, '|'));
    }
  return g_string_free (out, FALSE);
}

/* V2 -> speedscope -> the reader: per thread, the samples in their order
 * with their frames, files, lines and time offsets; a thread's idle gap
 * stays a gap; repeated stacks stay separate samples */
static void
test_speedscope_round_trip (void)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FcProfile) back = NULL;
  guint32 a = native_frame (p, "a", "/src/a.c", 1, 0x1000);
  guint32 b = native_frame (p, "b", "/src/b.c", 2, 0x1100);
  guint32 c = native_frame (p, "c", "/src/c.c", 3, 0x1200);
  guint32 t1 = fc_profile_ensure_thread (p, "7");
  guint32 t2 = fc_profile_ensure_thread (p, "8");
  gint64 first = 0, last = 0, back_first = 0, back_last = 0;

  fc_profile_set_thread_name (p, t1, "one");
  fc_profile_set_thread_name (p, t2, "two");
  /* t1: a;b twice, a, a;c, then off CPU for 200 ms, then a;b;c, a;b */
  fc_test_sample (p, t1, 0, 2, a, b);
  fc_test_sample (p, t1, 10, 2, a, b);
  fc_test_sample (p, t1, 20, 1, a);
  fc_test_sample (p, t1, 30, 2, a, c);
  fc_test_sample (p, t1, 230, 3, a, b, c);
  fc_test_sample (p, t1, 240, 2, a, b);
  /* t2: recursion, and a stack that shares nothing with the one before */
  fc_test_sample (p, t2, 5, 3, b, b, b);
  fc_test_sample (p, t2, 15, 2, c, a);
  fc_test_sample (p, t2, 25, 2, b, b);
  fc_profile_sort_samples (p);
  fc_document_add_profile (doc, p);

  bytes = fc_speedscope_write (doc, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (g_bytes_get_data (bytes, NULL), "\"type\":\"evented\""));
  back = read_back (bytes);
  g_assert_cmpuint (fc_profile_get_n_samples (back), ==, 9);
  g_assert_cmpuint (fc_profile_get_n_threads (back), ==, 2);
  fc_profile_get_time_range (p, &first, &last);
  fc_profile_get_time_range (back, &back_first, &back_last);
  for (guint32 t = 0; t < 2; t++)
    {
      g_autofree char *before = thread_samples (p, t, first);
      g_autofree char *after = thread_samples (back, t, back_first);

      g_assert_cmpstr (after, ==, before);
    }
}

static void
test_speedscope_sampled (void)
{
  const char *text =
    "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":"
    "[{\"name\":\"main\",\"file\":\"m.c\",\"line\":3},{\"name\":\"f\"}]},\"profiles\":[{\"type\":\"sampled\","
    "\"name\":\"T\",\"unit\":\"milliseconds\",\"startValue\":0,\"endValue\":30,\"samples\":[[0,1],[0],[0,1]],"
    "\"weights\":[10,10,10]}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(FcProfile) p = read_back (bytes);
  guint n = 0;
  const FcSample *s = fc_profile_get_samples (p, &n);
  g_autofree char *d0 = NULL;

  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (s[1].timestamp_ns - s[0].timestamp_ns, ==, 10 * FC_TEST_MS);
  d0 = describe_sample (p, &s[0]);
  g_assert_cmpstr (d0, ==, "1 T | f (null):-1 < main m.c:3 <");
}

/* ---- folded ---- */

static void
test_folded (void)
{
  g_autoptr(FcDocument) doc = native_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) all = fc_folded_write (doc, FALSE, &error);
  g_autoptr(GBytes) per_thread = fc_folded_write (doc, TRUE, &error);
  g_autoptr(FcProfile) back = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (g_bytes_get_data (all, NULL), ==,
                   "[no frames] 1\n"
                   "main;outer;leaf 2\n"
                   "main;work 2\n"
                   "main;work;outer;leaf 1\n");
  g_assert_cmpstr (g_bytes_get_data (per_thread, NULL), ==,
                   "main 4242 1\n"
                   "main 4242;main;outer;leaf 2\n"
                   "main 4242;main;work 1\n"
                   "worker 4243;main;work 1\n"
                   "worker 4243;main;work;outer;leaf 1\n");

  /* read back (the empty stack's line is a frame of its own then) */
  back = read_back (all);
  g_assert_cmpuint (fc_profile_get_n_samples (back), ==, 6);
}

/* ---- perf script ---- */

static void
test_perf_script (void)
{
  const char *text =
    "# ========\n"
    "# captured on: Tue Nov 24 02:00:00 2026\n"
    "# ========\n"
    "#\n"
    "burn 1200/1201 [001] 5000.000100:     250000 cpu-clock:pppH: \n"
    "\t    55d4c0a01234 leaf+0x14 (/usr/bin/burn)\n"
    "\t    55d4c0a01300 main+0x20 (/usr/bin/burn)\n"
    "\t    7f0000001234 __libc_start_main+0xf3 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
    "\n"
    "my worker 1200/1202 [000] 5000.004100:     250000 cpu-clock:pppH: \n"
    "\t    55d4c0a01300 main+0x20 (/usr/bin/burn)\n"
    "\t    ffffffff81000000 [unknown] ([kernel.kallsyms])\n"
    "\n";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));
  g_autoptr(FcProfile) p = read_back (bytes);
  guint n = 0;
  const FcSample *s = fc_profile_get_samples (p, &n);
  g_autofree char *d0 = NULL;
  g_autofree char *d1 = NULL;
  guint32 frames[8];

  g_assert_cmpuint (n, ==, 2);
  d0 = describe_sample (p, &s[0]);
  d1 = describe_sample (p, &s[1]);
  g_assert_cmpstr (d0, ==, "1201 burn | leaf (null):-1 < main (null):-1 < __libc_start_main (null):-1 <");
  g_assert_cmpstr (d1, ==, "1202 my worker | main (null):-1 < (null) (null):-1 <");
  g_assert_cmpint (s[0].timestamp_ns, ==, G_GINT64_CONSTANT (5000000100000));
  g_assert_cmpint (s[1].timestamp_ns - s[0].timestamp_ns, ==, 4000000);
  fc_profile_stack_frames (p, s[0].stack, frames, 8);
  g_assert_cmpstr (fc_profile_string (p, fc_profile_get_frame (p, frames[0])->package), ==, "/usr/bin/burn");
  g_assert_cmphex (fc_profile_get_frame (p, frames[0])->instruction_addr, ==, 0x55d4c0a01234);
}

/* ---- bad input: located errors ---- */

static void
assert_refused (const char *text,
                gssize      len,
                const char *message)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, len < 0 ? strlen (text) : (gsize) len);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_reader_load_bytes (bytes, FC_READ_FLAGS_NONE, &error);

  g_assert_null (doc);
  g_assert_true (error->domain == FC_FORMAT_ERROR);
  if (strstr (error->message, message) == NULL)
    g_error ("expected \"%s\" in \"%s\"", message, error->message);
}

static void
test_bad_input (void)
{
  /* folded: a line without a count */
  assert_refused ("main;foo 3\nmain;bar\n", -1, "folded stacks, line 2: expected");
  /* speedscope: a frame index out of range */
  assert_refused ("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":"
                  "[{\"name\":\"a\"}]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"none\","
                  "\"startValue\":0,\"endValue\":1,\"samples\":[[0],[0,3]],\"weights\":[1,1]}]}", -1,
                  "speedscope profiles[0].samples[1][1]: frame 3 but shared.frames has 1");
  /* speedscope: a frame index beyond any integer type (UBSan in fuzz-speedscope) */
  assert_refused ("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":"
                  "[{\"name\":\"a\"}]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\",\"unit\":\"none\","
                  "\"startValue\":0,\"endValue\":1,\"samples\":[[214444000000]],\"weights\":[1]}]}", -1,
                  "speedscope profiles[0].samples[0][0]: frame 214444000000 but shared.frames has 1");
  /* speedscope: unbalanced events */
  assert_refused ("{\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]},\"profiles\":[{\"type\":\"evented\","
                  "\"name\":\"x\",\"unit\":\"none\",\"startValue\":0,\"endValue\":1,\"events\":["
                  "{\"type\":\"O\",\"at\":0,\"frame\":0},{\"type\":\"C\",\"at\":1,\"frame\":1}]}]}", -1,
                  "speedscope profiles[0].events[1]: closes frame 1");
  /* OTLP/JSON: the place of a wrong type */
  assert_refused ("{\"resourceProfiles\":[{\"scopeProfiles\":[{\"profiles\":[{\"samples\":[{\"stackIndex\":\"x\"}]}]}]}]}",
                  -1, "resourceProfiles[0].scopeProfiles[0].profiles[0].samples[0].stackIndex: expected an integer");
  /* OTLP/JSON: a stack index beyond the dictionary */
  assert_refused ("{\"resourceProfiles\":[{\"scopeProfiles\":[{\"profiles\":[{\"samples\":[{\"stackIndex\":4}]}]}]}],"
                  "\"dictionary\":{\"stackTable\":[{}],\"stringTable\":[\"\"]}}", -1,
                  "resource_profiles[0].scope_profiles[0].profiles[0].samples[0].stack_index: 4 but the "
                  "dictionary's stack_table has 1 entries");
  /* perf script: a frame line that is not one */
  assert_refused ("burn 1/1 5.000001: cycles:\n\tnot-an-address main (/bin/x)\n", -1,
                  "perf script, line 2: expected \"ADDRESS SYMBOL (DSO)\"");
  /* binary that is no protobuf we know */
  assert_refused ("\x0a\xff\xff\xff\xff\x0f\x01\x02", 8, "neither JSON, a pprof profile nor OTLP ProfilesData");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/formats/interop/otlp/round-trip", test_otlp_round_trip);
  g_test_add_func ("/formats/interop/otlp/protoc-decode", test_otlp_protoc_decode);
  g_test_add_func ("/formats/interop/otlp/json-rules", test_otlp_json_rules);
  g_test_add_func ("/formats/interop/otlp/links", test_otlp_links);
  g_test_add_func ("/formats/interop/pprof/round-trip", test_pprof_round_trip);
  g_test_add_func ("/formats/interop/pprof/go-tool", test_pprof_go_tool);
  g_test_add_func ("/formats/interop/pprof/go-cpu-profile", test_pprof_go_cpu_profile);
  g_test_add_func ("/formats/interop/speedscope/schema", test_speedscope_schema);
  g_test_add_func ("/formats/interop/speedscope/round-trip", test_speedscope_round_trip);
  g_test_add_func ("/formats/interop/speedscope/sampled", test_speedscope_sampled);
  g_test_add_func ("/formats/interop/folded", test_folded);
  g_test_add_func ("/formats/interop/perf-script", test_perf_script);
  g_test_add_func ("/formats/interop/bad-input", test_bad_input);

  return g_test_run ();
}
