/* test-import-fuzzed.c - what the import-format fuzzers found, each as a small hand-made input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The inputs the fuzzers saved are replayed by the 'fuzz' suite
 * (fuzz/crashes/HARNESS/); these tests say what each bug was and what the
 * reader or writer does now: a located error, or a profile that the V2
 * writer and its own format's writer give back readable.
 */

#include <string.h>

#include "fc-format-error.h"
#include "fc-folded.h"
#include "fc-otlp.h"
#include "fc-perf-script.h"
#include "fc-pprof.h"
#include "fc-reader.h"
#include "fc-speedscope.h"
#include "fc-time.h"
#include "fc-writer.h"
#include "fc-test-profiles.h"

typedef FcDocument *(*ReadFunc) (GBytes  *bytes,
                                 GError **error);

static void
assert_refused (ReadFunc    read,
                const char *text,
                gsize       len,
                const char *message)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, len);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = read (bytes, &error);

  g_assert_null (doc);
  g_assert_nonnull (error);
  g_assert_true (error->domain == FC_FORMAT_ERROR);
  if (strstr (error->message, message) == NULL)
    g_error ("expected \"%s\" in \"%s\"", message, error->message);
}

static FcDocument *
read_ok (ReadFunc    read,
         const char *text,
         gsize       len)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, len);
  g_autoptr(GError) error = NULL;
  FcDocument *doc = read (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (doc);
  return doc;
}

/* What every harness checks of a document it read: each profile written as
 * V2 reads back, with its samples and their times. */
static void
assert_v2_round_trip (FcDocument *doc)
{
  for (guint i = 0; i < fc_document_get_n_profiles (doc); i++)
    {
      FcProfile *profile = fc_document_get_profile (doc, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) v2 = fc_writer_write_profile_full (profile, FC_WRITE_KEEP_CLIENT_SDK, &error);
      g_autoptr(FcProfile) back = NULL;
      gint64 first = 0, last = 0, back_first = 0, back_last = 0;
      gsize len = 0;
      const char *data;

      g_assert_no_error (error);
      data = g_bytes_get_data (v2, &len);
      back = fc_reader_parse_payload (data, len, FC_READ_LENIENT, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (fc_profile_get_n_samples (back), ==, fc_profile_get_n_samples (profile));
      fc_profile_get_time_range (profile, &first, &last);
      fc_profile_get_time_range (back, &back_first, &back_last);
      /* V2 keeps microseconds */
      g_assert_cmpint (back_first / 1000, ==, first / 1000);
      g_assert_cmpint (back_last / 1000, ==, last / 1000);
    }
}

/* ...and the format's own writer gives what the reader detects and reads */
static FcDocument *
load_written (GBytes *written)
{
  g_autoptr(GError) error = NULL;
  FcDocument *doc = fc_reader_load_bytes (written, FC_READ_LENIENT, &error);

  if (doc == NULL)
    g_error ("the writer's output does not read back: %s\n%.*s", error->message,
             (int) MIN (g_bytes_get_size (written), 400), (const char *) g_bytes_get_data (written, NULL));
  return doc;
}

/* ---- JSON formats: an empty document ---- */

/* json-glib parses "" and blanks without an error, to no root at all; the
 * readers went on with NULL (a critical in fc_pb_json_read and json-glib) */
static void
test_json_empty (void)
{
  /* (an empty GBytes has no data at all: json-glib refused NULL with a critical too) */
  assert_refused (fc_otlp_read_json, "", 0, "OTLP/JSON: no JSON value, the text is empty");
  assert_refused (fc_otlp_read_json, " \n\t", 3, "OTLP/JSON: no JSON value, the text is blank");
  assert_refused (fc_otlp_read_json, "[1]", 3, "OTLP/JSON: the document is an array, expected a JSON object");
  assert_refused (fc_speedscope_read, "", 0, "speedscope: no JSON value, the text is empty");
  assert_refused (fc_speedscope_read, "\n", 1, "speedscope: no JSON value, the text is blank");
  assert_refused (fc_speedscope_read, "7", 1, "speedscope: the document is a single value, expected a JSON object");
}

/* A field given by both its names, or two members of one oneof: the first
 * value leaked (fuzz-otlp-json, field-given-twice), and an integer in the
 * oneof's union was freed as a string when a string member came after it. */
static void
test_otlp_json_field_twice (void)
{
  static const char twice[] =
    "{\"resourceProfiles\":[],\"dictionary\":{\"mappingTable\":[{}],\"mapping_table\":[{},{}]}}";
  static const char oneof[] =
    "{\"resourceProfiles\":[{\"resource\":{\"attributes\":[{\"key\":\"service.version\","
    "\"value\":{\"intValue\":\"5\",\"stringValue\":\"1.0\"}}]}}]}";

  assert_refused (fc_otlp_read_json, twice, sizeof twice - 1,
                  "dictionary.mapping_table: the field is given twice (by its name and its JSON name)");
  assert_refused (fc_otlp_read_json, oneof, sizeof oneof - 1,
                  "resourceProfiles[0].resource.attributes[0].value.stringValue: another member of the same oneof "
                  "is given too");
}

/* ---- sample times outside 1970..2200 ---- */

#define OTLP_JSON_ONE_SAMPLE(timestamps)                                                              \
  "{\"resourceProfiles\":[{\"scopeProfiles\":[{\"profiles\":[{\"samples\":[{\"stackIndex\":1,"     \
  "\"timestampsUnixNano\":[" timestamps "]}]}]}]}],\"dictionary\":{\"stackTable\":[{},"              \
  "{\"locationIndices\":[1]}],\"locationTable\":[{},{\"address\":\"4096\"}],\"stringTable\":[\"\"]}}"

/* OTLP's timestamps are unsigned 64-bit: past 2^63 they were negative
 * times in the model, which V2 cannot carry (fuzz-otlp, timestamp-past-int64) */
static void
test_otlp_time_range (void)
{
  static const char ok[] = OTLP_JSON_ONE_SAMPLE ("\"1710805788500000000\",\"1710805788510000000\"");
  static const char past_int64[] = OTLP_JSON_ONE_SAMPLE ("\"1710805788500000000\",\"18446744073709551615\"");
  static const char past_2200[] = OTLP_JSON_ONE_SAMPLE ("\"7258118400000000001\"");
  g_autoptr(FcDocument) doc = read_ok (fc_otlp_read_json, ok, sizeof ok - 1);

  assert_v2_round_trip (doc);
  assert_refused (fc_otlp_read_json, past_int64, sizeof past_int64 - 1,
                  "resource_profiles[0].scope_profiles[0].profiles[0]: sample 1 is at -1 ns since 1970, "
                  "outside 1970..2200");
  assert_refused (fc_otlp_read_json, past_2200, sizeof past_2200 - 1, "outside 1970..2200");
}

/* Samples 228 years apart: the OTLP writer's duration (last + one period -
 * first, the period being their gap) overflowed 64 bits (fuzz-otlp-json,
 * duration-overflow); the period is now at most a minute. */
static void
test_otlp_years_apart (void)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(FcDocument) back = NULL;
  guint32 main_f = fc_test_frame (p, "main", "app", TRUE);
  guint32 t = fc_profile_ensure_thread (p, "1");
  guint32 stack = fc_profile_intern_stack_frames (p, &main_f, 1);
  gint64 first = 0, last = 0;

  fc_profile_append_sample (p, G_GINT64_CONSTANT (31536000) * FC_TIME_NS_PER_S, t, stack, 0);   /* 1971 */
  fc_profile_append_sample (p, FC_TIME_MAX_S * FC_TIME_NS_PER_S - FC_TIME_NS_PER_S, t, stack, 0); /* 2199 */
  fc_profile_sort_samples (p);
  fc_document_add_profile (doc, p);

  written = fc_otlp_write (doc, &error);
  g_assert_no_error (error);
  back = load_written (written);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (back, 0)), ==, 2);
  fc_profile_get_time_range (fc_document_get_profile (back, 0), &first, &last);
  g_assert_cmpint (first, ==, G_GINT64_CONSTANT (31536000) * FC_TIME_NS_PER_S);
  g_assert_cmpint (last, ==, FC_TIME_MAX_S * FC_TIME_NS_PER_S - FC_TIME_NS_PER_S);
}

/* a pprof Profile, encoded by hand: string_table [""], one sample whose
 * value[0] is @count, time_nanos and period */
static void
append_varint (GByteArray *out,
               guint64     v)
{
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (out, &b, 1);
      v >>= 7;
    }
  while (v != 0);
}

static GBytes *
pprof_new (guint64 count,
           gint64  time_nanos,
           gint64  period)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GByteArray) value = g_byte_array_new ();
  static const guint8 empty_string[] = { 6 << 3 | 2, 0 };

  g_byte_array_append (out, empty_string, sizeof empty_string);
  append_varint (value, count);
  append_varint (out, 2 << 3 | 2);              /* sample */
  append_varint (out, value->len + 2);
  append_varint (out, 2 << 3 | 2);              /*   value, packed */
  append_varint (out, value->len);
  g_byte_array_append (out, value->data, value->len);
  append_varint (out, 9 << 3);                  /* time_nanos */
  append_varint (out, (guint64) time_nanos);
  append_varint (out, 12 << 3);                 /* period */
  append_varint (out, (guint64) period);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static void
assert_pprof_refused (GBytes     *bytes,
                      const char *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_pprof_read (bytes, &error);

  g_assert_null (doc);
  g_assert_error (error, FC_FORMAT_ERROR, error->code);
  if (strstr (error->message, message) == NULL)
    g_error ("expected \"%s\" in \"%s\"", message, error->message);
}

/* pprof counts expand into samples a period apart from time_nanos: the
 * cursor overflowed 64 bits (undefined; UBSan) with a large period, and
 * times past 2200 were imported (fuzz-pprof, fuzz-otlp) */
static void
test_pprof_time_range (void)
{
  g_autoptr(GBytes) ok = pprof_new (3, G_GINT64_CONSTANT (1710805788500000000), 10000000);
  g_autoptr(GBytes) past_2200 = pprof_new (1, FC_TIME_MAX_S * FC_TIME_NS_PER_S + 1, 10000000);
  g_autoptr(GBytes) overflow = pprof_new (3, G_GINT64_CONSTANT (7000000000000000000),
                                          G_GINT64_CONSTANT (4000000000000000000));
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) doc = fc_pprof_read (ok, &error);
  g_autoptr(GBytes) written = NULL;
  g_autoptr(FcDocument) back = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), ==, 3);
  assert_v2_round_trip (doc);
  written = fc_pprof_write (doc, &error);
  g_assert_no_error (error);
  back = load_written (written);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (back, 0)), ==, 3);

  assert_pprof_refused (past_2200, "pprof: sample 0 is at 7258118400000000001 ns since 1970, outside 1970..2200");
  /* the second sample's time saturates instead of wrapping */
  assert_pprof_refused (overflow, "pprof: sample 1 is at 9223372036854775807 ns since 1970");
}

/* perf script: "18446744074.000000:" times 10^9 wrapped around 64 bits to
 * 0.29 s and was taken; larger ones turned negative (fuzz-perf-script,
 * seconds-wrap-around-64-bits, seconds-past-uint64) */
static void
test_perf_script_time_range (void)
{
  static const char wraps[] = "burn 1/1 18446744074.000000: cycles:\n\t1234 main (/bin/x)\n";
  static const char saturates[] =
    "burn 1/1 5.000000: cycles:\n\t1234 main (/bin/x)\n\n"
    "burn 1/1 123454444444444444444444444444444444444.678901: cycles:\n\t1234 main (/bin/x)\n";
  static const char last_second[] = "burn 1/1 7258118399.999999: cycles:\n\t1234 main (/bin/x)\n";
  g_autoptr(FcDocument) doc = read_ok (fc_perf_script_read, last_second, sizeof last_second - 1);

  assert_v2_round_trip (doc);
  assert_refused (fc_perf_script_read, wraps, sizeof wraps - 1,
                  "perf script, line 1: the sample's time is past 7258118400 s (the year 2200)");
  assert_refused (fc_perf_script_read, saturates, sizeof saturates - 1, "perf script, line 4: the sample's time is past");
}

/* ---- limits on samples made from counts ---- */

static void
test_expansion_limit (void)
{
  g_autoptr(GBytes) pprof = pprof_new (10000001, G_GINT64_CONSTANT (1710805788500000000), 10000000);
  static const char folded[] = "main;a 6000000\nmain;b 4000001\n";
  /* two profiles of six million each: the limit is for the document */
  static const char otlp[] =
    "{\"resourceProfiles\":[{\"scopeProfiles\":[{\"profiles\":["
    "{\"timeUnixNano\":\"1710805788500000000\",\"samples\":[{\"values\":[\"6000000\"]}]},"
    "{\"timeUnixNano\":\"1710805788500000000\",\"samples\":[{\"values\":[\"6000000\"]}]}]}]}],"
    "\"dictionary\":{\"stackTable\":[{}],\"stringTable\":[\"\"]}}";
  /* a weight of 1e300 was cast to an integer (undefined) */
  static const char speedscope[] =
    "{\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"x\","
    "\"unit\":\"none\",\"startValue\":0,\"endValue\":1,\"samples\":[[0]],\"weights\":[1e300]}]}";

  assert_pprof_refused (pprof, "pprof sample[0].value[0]: more than 10000000 samples in all");
  assert_refused (fc_folded_read, folded, sizeof folded - 1, "folded stacks, line 2: more than 10000000 samples in all");
  assert_refused (fc_otlp_read_json, otlp, sizeof otlp - 1,
                  "resource_profiles[0].scope_profiles[0].profiles[1].samples[0].values[0]: more than 10000000 samples");
  assert_refused (fc_speedscope_read, speedscope, sizeof speedscope - 1,
                  "speedscope profiles[0].weights[0]: more than 10000000 samples in all");
}

/* ---- folded stacks: what the writer writes must read as folded stacks ---- */

static GBytes *
folded_round_trip (const char *text,
                   gboolean    per_thread)
{
  g_autoptr(FcDocument) doc = read_ok (fc_folded_read, text, strlen (text));
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = fc_folded_write (doc, per_thread, &error);
  g_autoptr(FcDocument) back = NULL;

  g_assert_no_error (error);
  assert_v2_round_trip (doc);
  back = load_written (written);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (back, 0)), ==,
                    fc_profile_get_n_samples (fc_document_get_profile (doc, 0)));
  return g_steal_pointer (&written);
}

/* A control byte in a name made the written text "binary" to the reader,
 * which took it for pprof (fuzz-folded, control-bytes-in-a-frame-name) */
static void
test_folded_control_bytes (void)
{
  g_autoptr(GBytes) written = folded_round_trip ("main;a\006b 2\nmain;c\033d;e 1\n", FALSE);

  g_assert_cmpstr (g_bytes_get_data (written, NULL), ==, "main;a b 2\nmain;c d;e 1\n");
}

/* a profile whose outermost frame or thread has @name, as folded stacks */
static char *
folded_named (const char *name,
              gboolean    per_thread)
{
  g_autoptr(FcDocument) doc = fc_document_new (FC_DOCUMENT_V2);
  g_autoptr(FcProfile) p = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = NULL;
  g_autoptr(FcDocument) back = NULL;
  guint32 frames[2] = { fc_test_frame (p, "a", "app", TRUE), fc_test_frame (p, per_thread ? "x" : name, "app", TRUE) };
  guint32 t = fc_profile_ensure_thread (p, "1");

  if (per_thread)
    fc_profile_set_thread_name (p, t, name);
  fc_profile_append_sample (p, FC_TEST_BASE_NS, t, fc_profile_intern_stack_frames (p, frames, 2), 0);
  fc_profile_sort_samples (p);
  fc_document_add_profile (doc, p);
  written = fc_folded_write (doc, per_thread, &error);
  g_assert_no_error (error);
  back = load_written (written);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (back, 0)), ==, 1);
  return g_strndup (g_bytes_get_data (written, NULL), g_bytes_get_size (written));
}

/* A line starting with '#' was a comment to the reader (a profile of no
 * samples); with blanks then '{', JSON; a blank name left no stack */
static void
test_folded_line_starts (void)
{
  static const struct {
    const char *name;
    gboolean    per_thread;
    const char *text;
  } cases[] = {
    { "#x", FALSE, "_#x;a 1\n" },
    { "{x", FALSE, "_{x;a 1\n" },
    { " {x", FALSE, "_ {x;a 1\n" },
    { "  ", FALSE, "_  ;a 1\n" },
    { "\xef\xbb\xbf{x", FALSE, "_\xef\xbb\xbf{x;a 1\n" },
    { "#t", TRUE, "_#t 1;x;a 1\n" },
    { "\t{t", TRUE, "_ {t 1;x;a 1\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = folded_named (cases[i].name, cases[i].per_thread);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* The speedscope writer kept a pointer to the open stack in a table that
 * grows as it adds stacks: a use after free, seen under ASan (fuzz-speedscope,
 * evented-stack-table-grows). The sanitizer build of this test catches it. */
static void
test_speedscope_stack_table_grows (void)
{
  static const char text[] =
    "{\"shared\":{\"frames\":[{\"name\":\"a\",\"file\":\"a.c\",\"line\":3},{\"name\":\"b\"}]},\"profiles\":"
    "[{\"type\":\"evented\",\"name\":\"x\",\"unit\":\"milliseconds\",\"startValue\":0,\"endValue\":4,\"events\":"
    "[{\"type\":\"O\",\"at\":0,\"frame\":0},{\"type\":\"O\",\"at\":1,\"frame\":1},"
    "{\"type\":\"C\",\"at\":3,\"frame\":1},{\"type\":\"C\",\"at\":4,\"frame\":0}]}]}";
  g_autoptr(FcDocument) doc = read_ok (fc_speedscope_read, text, sizeof text - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) written = fc_speedscope_write (doc, &error);
  g_autoptr(FcDocument) back = NULL;

  g_assert_no_error (error);
  assert_v2_round_trip (doc);
  back = load_written (written);
  /* a at 0, a;b at 1, a at 3 */
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (doc, 0)), ==, 3);
  g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (back, 0)), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/formats/import-fuzzed/json-empty", test_json_empty);
  g_test_add_func ("/formats/import-fuzzed/otlp-json-field-twice", test_otlp_json_field_twice);
  g_test_add_func ("/formats/import-fuzzed/otlp-time-range", test_otlp_time_range);
  g_test_add_func ("/formats/import-fuzzed/otlp-years-apart", test_otlp_years_apart);
  g_test_add_func ("/formats/import-fuzzed/pprof-time-range", test_pprof_time_range);
  g_test_add_func ("/formats/import-fuzzed/perf-script-time-range", test_perf_script_time_range);
  g_test_add_func ("/formats/import-fuzzed/expansion-limit", test_expansion_limit);
  g_test_add_func ("/formats/import-fuzzed/folded-control-bytes", test_folded_control_bytes);

  g_test_add_func ("/formats/import-fuzzed/folded-line-starts", test_folded_line_starts);
  g_test_add_func ("/formats/import-fuzzed/speedscope-stack-table-grows", test_speedscope_stack_table_grows);

  return g_test_run ();
}
