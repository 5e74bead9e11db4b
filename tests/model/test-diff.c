/* test-diff.c - two hand-made profiles with known shares compared by function and by call path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-diff.h"
#include "fc-test-profiles.h"

/* @spec: "main;foo 6" lines, each stack given root first, count samples 1 ms apart */
static FcProfile *
profile_new (const char * const *spec)
{
  FcProfile *p = fc_profile_new (FC_FORMAT_V2);
  guint32 thread = fc_profile_ensure_thread (p, "1");
  gint64 ms = 0;

  for (guint i = 0; spec[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (spec[i], " ", 2);
      g_auto(GStrv) names = g_strsplit (parts[0], ";", -1);
      guint n = g_strv_length (names);
      guint32 frames[16];
      guint64 count = g_ascii_strtoull (parts[1], NULL, 10);

      for (guint f = 0; f < n; f++)
        {
          FcFrame frame;

          fc_frame_init (&frame);
          frame.function = fc_profile_intern (p, names[f]);
          frames[n - 1 - f] = fc_profile_intern_frame (p, &frame);
        }
      for (guint64 c = 0; c < count; c++)
        fc_profile_append_sample (p, FC_TEST_BASE_NS + ms++ * FC_TEST_MS, thread,
                                  fc_profile_intern_stack_frames (p, frames, n), 0);
    }
  return p;
}

static const char * const before_spec[] = { "main;foo 6", "main;bar 3", "main 1", NULL };
static const char * const after_spec[] = { "main;foo 1", "main;bar;baz 3", "main 1", NULL };

static const FcDiffEntry *
entry (GPtrArray *entries,
       guint      i)
{
  g_assert_cmpuint (i, <, entries->len);
  return g_ptr_array_index (entries, i);
}

#define assert_share(a, b) g_assert_cmpfloat_with_epsilon ((a), (b), 1e-9)

static void
test_shares (void)
{
  g_autoptr(FcProfile) before = profile_new (before_spec);
  g_autoptr(FcProfile) after = profile_new (after_spec);
  g_autoptr(FcDiff) diff = fc_diff_new (before, after, FC_DIFF_FLAGS_NONE);
  GPtrArray *functions = fc_diff_get_functions (diff);
  GPtrArray *paths = fc_diff_get_paths (diff);

  g_assert_cmpuint (fc_diff_get_n_before (diff), ==, 10);
  g_assert_cmpuint (fc_diff_get_n_after (diff), ==, 5);

  /* 10 samples before, 5 after: shares, biggest |delta_self| first */
  g_assert_cmpuint (functions->len, ==, 4);
  g_assert_cmpstr (entry (functions, 0)->name, ==, "baz");
  assert_share (entry (functions, 0)->before_self, 0);
  assert_share (entry (functions, 0)->after_self, 0.6);
  assert_share (fc_diff_entry_delta_self (entry (functions, 0)), 0.6);
  g_assert_cmpstr (entry (functions, 1)->name, ==, "foo");
  assert_share (entry (functions, 1)->before_self, 0.6);
  assert_share (entry (functions, 1)->after_self, 0.2);
  g_assert_cmpstr (entry (functions, 2)->name, ==, "bar");
  assert_share (fc_diff_entry_delta_self (entry (functions, 2)), -0.3);
  assert_share (entry (functions, 2)->before_total, 0.3);
  assert_share (entry (functions, 2)->after_total, 0.6);
  g_assert_cmpstr (entry (functions, 3)->name, ==, "main");
  assert_share (entry (functions, 3)->before_self, 0.1);
  assert_share (entry (functions, 3)->after_self, 0.2);
  assert_share (entry (functions, 3)->before_total, 1);
  assert_share (entry (functions, 3)->after_total, 1);

  /* call paths by |delta_total|: the new one first, the unchanged root last */
  g_assert_cmpstr (entry (paths, 0)->name, ==, "main;bar;baz");
  assert_share (entry (paths, 0)->before_total, 0);
  assert_share (entry (paths, 0)->after_total, 0.6);
  g_assert_cmpstr (entry (paths, 1)->name, ==, "main;foo");
  assert_share (fc_diff_entry_delta_total (entry (paths, 1)), -0.4);
  g_assert_cmpstr (entry (paths, 2)->name, ==, "main;bar");
  assert_share (fc_diff_entry_delta_total (entry (paths, 2)), 0.3);
  assert_share (entry (paths, 2)->before_self, 0.3);
  assert_share (entry (paths, 2)->after_self, 0);
  g_assert_cmpstr (entry (paths, 3)->name, ==, "main");
  g_assert_cmpuint (entry (paths, 3)->before_count, ==, 1);
  g_assert_cmpuint (entry (paths, 3)->after_count, ==, 1);

  /* the same paths as a tree: main, under it bar (+0.3 after foo's -0.4
   * by size) and foo, under bar the new baz; functions have no tree */
  {
    GPtrArray *roots = fc_diff_get_roots (diff);
    const FcDiffEntry *main_path = entry (roots, 0);

    g_assert_cmpuint (roots->len, ==, 1);
    g_assert_true (main_path == entry (paths, 3));
    g_assert_cmpstr (main_path->label, ==, "main");
    g_assert_cmpuint (main_path->children->len, ==, 2);
    g_assert_cmpstr (entry (main_path->children, 0)->label, ==, "foo");
    g_assert_cmpstr (entry (main_path->children, 1)->label, ==, "bar");
    g_assert_cmpstr (entry (main_path->children, 1)->name, ==, "main;bar");
    g_assert_cmpuint (entry (main_path->children, 1)->children->len, ==, 1);
    g_assert_true (entry (entry (main_path->children, 1)->children, 0) == entry (paths, 0));
    g_assert_null (entry (paths, 0)->children);
    g_assert_null (entry (functions, 0)->children);
    g_assert_null (entry (functions, 0)->label);
  }
}

static void
test_absolute (void)
{
  g_autoptr(FcProfile) before = profile_new (before_spec);
  g_autoptr(FcProfile) after = profile_new (after_spec);
  g_autoptr(FcDiff) diff = fc_diff_new (before, after, FC_DIFF_ABSOLUTE);
  GPtrArray *functions = fc_diff_get_functions (diff);

  /* counts: foo 6 -> 1 is the biggest change; baz and bar tie at 3, baz's total moved */
  g_assert_cmpstr (entry (functions, 0)->name, ==, "foo");
  assert_share (fc_diff_entry_delta_self (entry (functions, 0)), -5);
  g_assert_cmpstr (entry (functions, 1)->name, ==, "baz");
  g_assert_cmpstr (entry (functions, 2)->name, ==, "bar");
  assert_share (entry (functions, 2)->before_total, 3);
  assert_share (entry (functions, 2)->after_total, 3);
}

static void
test_recursion_counts_once (void)
{
  static const char * const spec[] = { "main;rec;rec;rec 2", "main;other 2", NULL };
  static const char * const empty[] = { NULL };
  g_autoptr(FcProfile) before = profile_new (empty);
  g_autoptr(FcProfile) after = profile_new (spec);
  g_autoptr(FcDiff) diff = fc_diff_new (before, after, FC_DIFF_FLAGS_NONE);
  GPtrArray *functions = fc_diff_get_functions (diff);

  for (guint i = 0; i < functions->len; i++)
    if (g_str_equal (entry (functions, i)->name, "rec"))
      {
        assert_share (entry (functions, i)->after_total, 0.5);
        assert_share (entry (functions, i)->after_self, 0.5);
        /* an empty "before" has no shares, not NaN */
        assert_share (entry (functions, i)->before_total, 0);
        return;
      }
  g_assert_not_reached ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/model/diff/shares", test_shares);
  g_test_add_func ("/model/diff/absolute", test_absolute);
  g_test_add_func ("/model/diff/recursion-counts-once", test_recursion_counts_once);

  return g_test_run ();
}
