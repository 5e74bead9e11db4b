/* test-flame-layout.c - flamechart runs, rows, lanes and hit-testing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-flame-layout.h"
#include "fc-test-profiles.h"

static void
assert_box (const FcFlameBox *box,
            guint32           frame,
            gint64            begin_ms,
            gint64            end_ms,
            guint             n_samples)
{
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, frame);
  g_assert_cmpint (box->begin_ns, ==, FC_TEST_BASE_NS + begin_ms * FC_TEST_MS);
  g_assert_cmpint (box->end_ns, ==, FC_TEST_BASE_NS + end_ms * FC_TEST_MS);
  g_assert_cmpuint (box->n_samples, ==, n_samples);
}

static void
test_runs (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, 0);
  const FcFlameBox *row;
  const FcFlameBox *all;
  guint n = 0;
  gint64 begin, end;

  g_assert_cmpint (fc_flame_layout_get_thread (layout), ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 3);
  g_assert_cmpuint (fc_flame_layout_get_n_lanes (layout), ==, 1);
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 0)->thread, ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 0)->first_row, ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_lane (layout, 0)->n_rows, ==, 3);

  fc_flame_layout_get_extent (layout, &begin, &end);
  g_assert_cmpint (begin, ==, FC_TEST_BASE_NS);
  g_assert_cmpint (end, ==, FC_TEST_BASE_NS + 210 * FC_TEST_MS);

  /* main runs through the first five samples, the empty one at 50 ends it,
   * and the pause before 200 keeps the last sample apart */
  row = fc_flame_layout_get_row (layout, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (&row[0], FC_TEST_MAIN, 0, 50, 5);
  assert_box (&row[1], FC_TEST_MAIN, 200, 210, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, row[0].stack)->depth, ==, 1);
  g_assert_cmpuint (row[0].row, ==, 0);

  row = fc_flame_layout_get_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 4);
  assert_box (&row[0], FC_TEST_FOO, 0, 30, 3);
  assert_box (&row[1], FC_TEST_BAZ, 30, 40, 1);
  assert_box (&row[2], FC_TEST_FOO, 40, 50, 1);
  assert_box (&row[3], FC_TEST_BAZ, 200, 210, 1);
  g_assert_cmpuint (row[0].row, ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, row[0].stack)->depth, ==, 2);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 1), ==, 0);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 3), ==, -1);

  row = fc_flame_layout_get_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (&row[0], FC_TEST_BAR, 0, 20, 2);
  assert_box (&row[1], FC_TEST_BAR, 40, 50, 1);
  /* the box's stack is the call path main>foo>bar */
  g_assert_cmpuint (fc_profile_get_stack (profile, row[0].stack)->frame, ==, FC_TEST_BAR);
  g_assert_cmpuint (fc_profile_get_stack (profile, row[0].stack)->depth, ==, 3);
  g_assert_cmpuint (row[0].stack, ==, row[1].stack);

  all = fc_flame_layout_get_boxes (layout, &n);
  g_assert_cmpuint (n, ==, 8);
  g_assert_true (all == fc_flame_layout_get_row (layout, 0, NULL));
  g_assert_null (fc_flame_layout_get_row (layout, 3, &n));
  g_assert_cmpuint (n, ==, 0);
}

static void
test_hit_test (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, 0);

#define AT(ms) (FC_TEST_BASE_NS + (ms) * FC_TEST_MS)
  assert_box (fc_flame_layout_hit_test (layout, 1, AT (35)), FC_TEST_BAZ, 30, 40, 1);
  assert_box (fc_flame_layout_hit_test (layout, 1, AT (30)), FC_TEST_BAZ, 30, 40, 1);
  assert_box (fc_flame_layout_hit_test (layout, 1, AT (29)), FC_TEST_FOO, 0, 30, 3);
  assert_box (fc_flame_layout_hit_test (layout, 0, AT (205)), FC_TEST_MAIN, 200, 210, 1);
  g_assert_null (fc_flame_layout_hit_test (layout, 2, AT (25)));
  g_assert_null (fc_flame_layout_hit_test (layout, 0, AT (60)));
  g_assert_null (fc_flame_layout_hit_test (layout, 0, AT (210)));
  g_assert_null (fc_flame_layout_hit_test (layout, 0, AT (-1)));
  g_assert_null (fc_flame_layout_hit_test (layout, 7, AT (5)));

  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (0)), ==, 0);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (45)), ==, 2);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (100)), ==, 3);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (300)), ==, 4);
#undef AT
}

static void
test_lanes (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = NULL;
  const FcFlameLane *lane;
  const FcFlameBox *row;
  guint n = 0;

  /* an idle thread is left out of "all threads" */
  fc_profile_ensure_thread (profile, "3");
  layout = fc_flame_layout_new (profile, -1);

  g_assert_cmpuint (fc_flame_layout_get_n_lanes (layout), ==, 2);
  /* row 0 is lane 0's header, rows 1-3 its frames, row 4 lane 1's header */
  lane = fc_flame_layout_get_lane (layout, 0);
  g_assert_cmpuint (lane->thread, ==, 0);
  g_assert_cmpuint (lane->first_row, ==, 1);
  g_assert_cmpuint (lane->n_rows, ==, 3);
  lane = fc_flame_layout_get_lane (layout, 1);
  g_assert_cmpuint (lane->thread, ==, 1);
  g_assert_cmpuint (lane->first_row, ==, 5);
  g_assert_cmpuint (lane->n_rows, ==, 2);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 7);

  fc_flame_layout_get_row (layout, 0, &n);
  g_assert_cmpuint (n, ==, 0);
  fc_flame_layout_get_row (layout, 4, &n);
  g_assert_cmpuint (n, ==, 0);
  row = fc_flame_layout_get_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (row[0].row, ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, row[0].stack)->depth, ==, 1);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 0), ==, 0);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 4), ==, 1);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 7), ==, -1);

  row = fc_flame_layout_get_row (layout, 6, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_box (&row[0], FC_TEST_BAZ, 0, 10, 2);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, row[0].row), ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, row[0].stack)->depth, ==, 2);
  g_assert_cmpuint (row[0].row, ==, 6);
}

static void
test_recursion_and_same_frame (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V1);
  g_autoptr(FcFlameLayout) layout = NULL;
  guint32 f = fc_test_frame (profile, "f", "m", TRUE);
  guint32 g = fc_test_frame (profile, "g", "m", TRUE);
  guint32 h = fc_test_frame (profile, "h", "m", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "7");
  const FcFlameBox *row;
  guint n = 0;

  /* g at depth 1 under f, then under h: same frame, same depth, but a
   * different caller, so two boxes */
  fc_test_sample (profile, t, 0, 3, f, g, f);
  fc_test_sample (profile, t, 1, 3, f, g, f);
  fc_test_sample (profile, t, 2, 2, f, g);
  fc_test_sample (profile, t, 3, 3, f, g, f);
  fc_test_sample (profile, t, 4, 2, h, g);
  layout = fc_flame_layout_new (profile, 0);

  row = fc_flame_layout_get_row (layout, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (&row[0], f, 0, 4, 4);
  assert_box (&row[1], h, 4, 5, 1);

  row = fc_flame_layout_get_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (&row[0], g, 0, 4, 4);
  assert_box (&row[1], g, 4, 5, 1);

  /* the recursive f leaves for one sample and comes back: two runs */
  row = fc_flame_layout_get_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (&row[0], f, 0, 2, 2);
  assert_box (&row[1], f, 3, 4, 1);
}

static void
built_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  FcFlameLayout **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = fc_flame_layout_new_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcFlameLayout) layout = NULL;
  guint n = 0;

  fc_flame_layout_new_async (profile, 0, NULL, built_cb, &layout);
  while (layout == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (fc_flame_layout_get_profile (layout) == profile);
  fc_flame_layout_get_boxes (layout, &n);
  g_assert_cmpuint (n, ==, 8);
}

static void
test_empty (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcFlameLayout) layout = fc_flame_layout_new (profile, -1);
  g_autoptr(FcFlameLayout) missing = fc_flame_layout_new (profile, 2);
  gint64 begin = -1, end = -1;
  guint n = 1;

  fc_flame_layout_get_boxes (layout, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_lanes (missing), ==, 0);
  fc_flame_layout_get_extent (layout, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 0);
  g_assert_null (fc_flame_layout_hit_test (layout, 0, 0));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/flame-layout/runs", test_runs);
  g_test_add_func ("/core/flame-layout/hit-test", test_hit_test);
  g_test_add_func ("/core/flame-layout/lanes", test_lanes);
  g_test_add_func ("/core/flame-layout/recursion-and-same-frame", test_recursion_and_same_frame);
  g_test_add_func ("/core/flame-layout/async", test_async);
  g_test_add_func ("/core/flame-layout/empty", test_empty);

  return g_test_run ();
}
