/* test-flame-layout.c - flamechart runs, rows, lanes and hit-testing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-flame-layout.h"
#include "fc-test-profiles.h"

static void
assert_box (FcFlameLayout    *layout,
            const FcFlameBox *box,
            guint32           frame,
            gint64            begin_ms,
            gint64            end_ms,
            guint             n_samples)
{
  g_assert_nonnull (box);
  g_assert_cmpuint (box->frame, ==, frame);
  g_assert_cmpint (fc_flame_layout_box_begin_ns (layout, box), ==, FC_TEST_BASE_NS + begin_ms * FC_TEST_MS);
  g_assert_cmpint (fc_flame_layout_box_end_ns (layout, box), ==, FC_TEST_BASE_NS + end_ms * FC_TEST_MS);
  g_assert_cmpuint (fc_flame_layout_box_n_samples (layout, box), ==, n_samples);
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
  assert_box (layout, &row[0], FC_TEST_MAIN, 0, 50, 5);
  assert_box (layout, &row[1], FC_TEST_MAIN, 200, 210, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 1);
  g_assert_cmpuint (fc_flame_layout_box_row (layout, &row[0]), ==, 0);

  row = fc_flame_layout_get_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 4);
  assert_box (layout, &row[0], FC_TEST_FOO, 0, 30, 3);
  g_assert_cmpint (fc_flame_layout_box_sampled_ns (layout, &row[0]), ==, 30 * FC_TEST_MS);
  assert_box (layout, &row[1], FC_TEST_BAZ, 30, 40, 1);
  assert_box (layout, &row[2], FC_TEST_FOO, 40, 50, 1);
  assert_box (layout, &row[3], FC_TEST_BAZ, 200, 210, 1);
  g_assert_cmpuint (fc_flame_layout_box_row (layout, &row[0]), ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 2);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 1), ==, 0);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 3), ==, -1);

  row = fc_flame_layout_get_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], FC_TEST_BAR, 0, 20, 2);
  assert_box (layout, &row[1], FC_TEST_BAR, 40, 50, 1);
  /* the box's stack is the call path main>foo>bar */
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->frame, ==, FC_TEST_BAR);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 3);
  g_assert_cmpuint (fc_flame_layout_box_stack (layout, &row[0]), ==, fc_flame_layout_box_stack (layout, &row[1]));

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
  assert_box (layout, fc_flame_layout_hit_test (layout, 1, AT (35)), FC_TEST_BAZ, 30, 40, 1);
  assert_box (layout, fc_flame_layout_hit_test (layout, 1, AT (30)), FC_TEST_BAZ, 30, 40, 1);
  assert_box (layout, fc_flame_layout_hit_test (layout, 1, AT (29)), FC_TEST_FOO, 0, 30, 3);
  assert_box (layout, fc_flame_layout_hit_test (layout, 0, AT (205)), FC_TEST_MAIN, 200, 210, 1);
  g_assert_null (fc_flame_layout_hit_test (layout, 2, AT (25)));
  g_assert_null (fc_flame_layout_hit_test (layout, 0, AT (60)));
  g_assert_null (fc_flame_layout_hit_test (layout, 0, AT (210)));
  g_assert_null (fc_flame_layout_hit_test (layout, 0, AT (-1)));
  g_assert_null (fc_flame_layout_hit_test (layout, 7, AT (5)));

  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (0)), ==, 0);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (45)), ==, 2);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (100)), ==, 3);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound (layout, 1, AT (300)), ==, 4);
  /* galloping from an earlier answer finds the same box, and from past the end, the end */
  for (guint from = 0; from <= 2; from++)
    g_assert_cmpuint (fc_flame_layout_row_lower_bound_from (layout, 1, from, AT (45)), ==, 2);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound_from (layout, 1, 0, AT (300)), ==, 4);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound_from (layout, 1, 3, AT (100)), ==, 3);
  g_assert_cmpuint (fc_flame_layout_row_lower_bound_from (layout, 1, 99, AT (0)), ==, 4);
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
  g_assert_cmpuint (fc_flame_layout_box_row (layout, &row[0]), ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 1);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 0), ==, 0);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 4), ==, 1);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, 7), ==, -1);

  row = fc_flame_layout_get_row (layout, 6, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_box (layout, &row[0], FC_TEST_BAZ, 0, 10, 2);
  g_assert_cmpint (fc_flame_layout_get_lane_of_row (layout, fc_flame_layout_box_row (layout, &row[0])), ==, 1);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[0]))->depth, ==, 2);
  g_assert_cmpuint (fc_flame_layout_box_row (layout, &row[0]), ==, 6);
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
  assert_box (layout, &row[0], f, 0, 4, 4);
  assert_box (layout, &row[1], h, 4, 5, 1);

  row = fc_flame_layout_get_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], g, 0, 4, 4);
  assert_box (layout, &row[1], g, 4, 5, 1);

  /* the recursive f leaves for one sample and comes back: two runs */
  row = fc_flame_layout_get_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], f, 0, 2, 2);
  assert_box (layout, &row[1], f, 3, 4, 1);
}

/* A Node or Python SDK takes no samples while the process idles: Sentry's
 * and speedscope's flamecharts draw the frames on the stack on both sides
 * of such a gap as one box, so the root does not fall apart at every gap. */
static void
test_idle_gap (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcFlameLayout) layout = NULL;
  guint32 main_f = fc_test_frame (profile, "main", "app", TRUE);
  guint32 tick = fc_test_frame (profile, "processTicks", "node:internal", FALSE);
  guint32 a = fc_test_frame (profile, "a", "app", TRUE);
  guint32 b = fc_test_frame (profile, "b", "app", TRUE);
  guint32 t = fc_profile_ensure_thread (profile, "1");
  const FcFlameBox *row;
  guint n = 0;

  /* every 10 ms, idle from 30 ms to 1000 ms and from 1020 ms to 5000 ms */
  fc_test_sample (profile, t, 0, 3, main_f, tick, a);
  fc_test_sample (profile, t, 10, 3, main_f, tick, a);
  fc_test_sample (profile, t, 20, 3, main_f, tick, a);
  fc_test_sample (profile, t, 1000, 3, main_f, tick, a);
  fc_test_sample (profile, t, 1010, 3, main_f, tick, b);
  fc_test_sample (profile, t, 5000, 2, main_f, tick);
  fc_test_sample (profile, t, 5010, 2, main_f, tick);
  layout = fc_flame_layout_new (profile, 0);
  g_assert_cmpuint (fc_flame_layout_get_n_rows (layout), ==, 3);

  /* main and processTicks run through both gaps: one box each, from the
   * first sample to the end of the last (5010 + the 10 ms median) */
  row = fc_flame_layout_get_row (layout, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_box (layout, &row[0], main_f, 0, 5020, 7);
  /* ... but it ran for what its samples stand for, not through the gaps:
   * 10 + 10 + 20 (capped) + 10 + 20 (capped) + 10 + 10 ms */
  g_assert_cmpint (fc_flame_layout_box_sampled_ns (layout, &row[0]), ==, 90 * FC_TEST_MS);
  row = fc_flame_layout_get_row (layout, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_box (layout, &row[0], tick, 0, 5020, 7);
  g_assert_true (fc_flame_layout_hit_test (layout, 1, FC_TEST_BASE_NS + 3000 * FC_TEST_MS) == &row[0]);

  /* a goes on across the first gap; b, only after it, ends where its
   * sample's time ends (twice the median at most), not at the next sample */
  row = fc_flame_layout_get_row (layout, 2, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_box (layout, &row[0], a, 0, 1010, 4);
  assert_box (layout, &row[1], b, 1010, 1030, 1);
  g_assert_null (fc_flame_layout_hit_test (layout, 2, FC_TEST_BASE_NS + 3000 * FC_TEST_MS));
  g_assert_true (fc_flame_layout_hit_test (layout, 2, FC_TEST_BASE_NS + 500 * FC_TEST_MS) == &row[0]);
  g_assert_cmpuint (fc_profile_get_stack (profile, fc_flame_layout_box_stack (layout, &row[1]))->frame, ==, b);
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
  g_test_add_func ("/core/flame-layout/idle-gap", test_idle_gap);
  g_test_add_func ("/core/flame-layout/async", test_async);
  g_test_add_func ("/core/flame-layout/empty", test_empty);

  return g_test_run ();
}
