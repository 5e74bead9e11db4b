/* test-frame-names.c - every SDK's frames named: legacy and other spellings, nameless frames reported
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "flamecast.h"
#include "fc-test-fixtures.h"

/* An older Python SDK: frames say "name", "file" and "line". The second frame
 * has both spellings (the usual one wins); the fourth has nothing at all. */
static const char legacy_python[] =
  "{\"version\":\"1\",\"platform\":\"python\",\"event_id\":\"41fed0925670468bb0457f61a74688ec\","
  "\"timestamp\":\"2023-11-14T22:13:20Z\",\"release\":\"shop@1.0\","
  "\"device\":{\"architecture\":\"x86_64\"},\"os\":{\"name\":\"Linux\",\"version\":\"6.1\"},"
  "\"profile\":{"
  "\"frames\":["
  "{\"name\":\"handle_request\",\"file\":\"/srv/shop/views.py\",\"line\":42},"
  "{\"function\":\"render\",\"name\":\"old_render\",\"filename\":\"templates.py\",\"line\":7,\"lineno\":9},"
  "{\"symbol\":\"_PyEval_EvalFrameDefault\",\"instruction_addr\":\"0x7f00\"},"
  "{\"in_app\":false}"
  "],"
  "\"stacks\":[[0],[1,0],[2,1,0],[3]],"
  "\"samples\":["
  "{\"elapsed_since_start_ns\":\"0\",\"stack_id\":0,\"thread_id\":\"1\"},"
  "{\"elapsed_since_start_ns\":\"10000000\",\"stack_id\":1,\"thread_id\":\"1\"},"
  "{\"elapsed_since_start_ns\":\"20000000\",\"stack_id\":2,\"thread_id\":\"1\"},"
  "{\"elapsed_since_start_ns\":\"30000000\",\"stack_id\":3,\"thread_id\":\"1\"}"
  "],"
  "\"thread_metadata\":{\"1\":{\"name\":\"MainThread\"}}},"
  "\"transaction\":{\"id\":\"30976f2ddbe04ac9b6bffe6e35d4710c\",\"name\":\"checkout\","
  "\"trace_id\":\"4b25bc58f14243d8b208d1e22a054164\",\"active_thread_id\":\"1\","
  "\"relative_start_ns\":\"0\",\"relative_end_ns\":\"40000000\"}}";

static const FcFrame *
frame_named (FcProfile  *profile,
             const char *function)
{
  for (guint32 f = 0; f < fc_profile_get_n_frames (profile); f++)
    if (g_strcmp0 (fc_profile_string (profile, fc_profile_get_frame (profile, f)->function), function) == 0)
      return fc_profile_get_frame (profile, f);
  return NULL;
}

static void
test_legacy_python (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProfile) profile = fc_reader_parse_payload (legacy_python, strlen (legacy_python),
                                                          FC_READ_LENIENT, problems, &error);
  const FcFrame *frame;
  char buf[128];

  g_assert_no_error (error);
  g_assert_nonnull (profile);
  g_assert_cmpuint (fc_profile_get_n_frames (profile), ==, 4);

  frame = frame_named (profile, "handle_request");
  g_assert_nonnull (frame);
  g_assert_cmpstr (fc_profile_string (profile, frame->filename), ==, "/srv/shop/views.py");
  g_assert_cmpint (frame->lineno, ==, 42);

  /* "function" and "lineno" win over "name" and "line" */
  frame = frame_named (profile, "render");
  g_assert_nonnull (frame);
  g_assert_cmpint (frame->lineno, ==, 9);
  g_assert_null (frame_named (profile, "old_render"));

  /* cocoa's "symbol" names an unsymbolicated frame */
  frame = frame_named (profile, "_PyEval_EvalFrameDefault");
  g_assert_nonnull (frame);
  g_assert_true (frame->has_instruction_addr);

  /* the frame with nothing at all is <unknown>, and that is said once */
  g_assert_cmpstr (fc_profile_frame_label (profile, 3, buf, sizeof buf), ==, "<unknown>");
  fc_test_assert_problem (problems, FC_PROBLEM_WARNING, "profile.frames[3]", "1 of 4 frames have no name");
  g_assert_cmpuint (problems->len, ==, 1);
}

/* The other spellings stay in the frame's extra: written back, nothing is lost. */
static void
test_round_trip (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProfile) profile = fc_reader_parse_payload (legacy_python, strlen (legacy_python),
                                                          FC_READ_LENIENT, NULL, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(FcProfile) reread = NULL;
  g_autoptr(GString) why = g_string_new (NULL);
  const char *text;

  g_assert_no_error (error);
  bytes = fc_writer_write_profile (profile, &error);
  g_assert_no_error (error);
  text = g_bytes_get_data (bytes, NULL);
  g_assert_nonnull (g_strstr_len (text, g_bytes_get_size (bytes), "\"function\":\"handle_request\""));
  g_assert_nonnull (g_strstr_len (text, g_bytes_get_size (bytes), "\"name\":\"handle_request\""));

  reread = fc_reader_parse_payload (text, g_bytes_get_size (bytes), FC_READ_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  if (!fc_profile_equal_samples (profile, reread, why))
    g_error ("%s", why->str);
}

/* Payloads shaped as SDKs and Sentry write them: one Node frame has only a line
 * number, and is the only one said to have no name (frames with a file and no
 * function, anonymous functions, have a place for a name). */
static void
test_fixtures_named (void)
{
  const char *fixtures[] = {
    "payloads/v1-node-stored.json",      /* first: the one with a nameless frame */
    "payloads/v1-python-stored.json",
    "payloads/v2-python-cut.json",
    "payloads/v1-cocoa-symbolicated.json",
    "payloads/v2-cocoa.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *path = fc_test_fixture_path (fixtures[i]);
      g_autofree char *data = NULL;
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
      g_autoptr(GError) error = NULL;
      g_autoptr(FcProfile) profile = NULL;
      gsize len;

      g_assert_true (g_file_get_contents (path, &data, &len, &error));
      profile = fc_reader_parse_payload (data, len, FC_READ_LENIENT, problems, &error);
      g_assert_no_error (error);
      if (i == 0)
        fc_test_assert_problem (problems, FC_PROBLEM_WARNING, "profile.frames[181]", "1 of 303 frames have no name");
      else
        fc_test_assert_no_problem (problems, FC_PROBLEM_WARNING, NULL, "have no name");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/frame-names/legacy-python", test_legacy_python);
  g_test_add_func ("/core/frame-names/round-trip", test_round_trip);
  g_test_add_func ("/core/frame-names/fixtures", test_fixtures_named);

  return g_test_run ();
}
