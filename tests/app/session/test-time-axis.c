/* test-time-axis.c - FcTimeAxis: pixels and nanoseconds, and the session moving it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-session.h"
#include "fc-test-profiles.h"
#include "fc-time-axis.h"
#include "fc-test-util.h"

static void
count_cb (FcTimeAxis *axis,
          guint      *count)
{
  (*count)++;
}

static void
test_mapping (void)
{
  g_autoptr(FcTimeAxis) axis = fc_time_axis_new ();
  /* absolute nanoseconds near today's, where doubles step by 256 ns */
  gint64 base = FC_TEST_BASE_NS;

  fc_time_axis_set_visible (axis, base + 1000, base + 2000);
  fc_time_axis_set_total (axis, base, base + 10000);

  g_assert_cmpint (fc_time_axis_time_at (axis, 0, 100), ==, base + 1000);
  g_assert_cmpint (fc_time_axis_time_at (axis, 50, 100), ==, base + 1500);
  g_assert_cmpint (fc_time_axis_time_at (axis, 100, 100), ==, base + 2000);
  g_assert_cmpfloat (fc_time_axis_x_at (axis, base + 1250, 100), ==, 25.0);
  /* outside the range: outside the width, on the same line */
  g_assert_cmpfloat (fc_time_axis_x_at (axis, base, 100), ==, -100.0);

  g_assert_cmpint (fc_time_axis_overview_time_at (axis, 50, 100), ==, base + 5000);
  g_assert_cmpfloat (fc_time_axis_overview_x_at (axis, base + 2500, 100), ==, 25.0);

  /* round trips at whole pixels */
  for (int x = 0; x <= 400; x++)
    g_assert_cmpfloat (fc_time_axis_overview_x_at (axis, fc_time_axis_overview_time_at (axis, x, 400), 400), ==, x);

  /* an empty range and no width: one nanosecond across one pixel, no division by zero */
  fc_time_axis_set_visible (axis, base, base);
  g_assert_cmpint (fc_time_axis_time_at (axis, 1, 0), ==, base + 1);
  g_assert_cmpfloat (fc_time_axis_x_at (axis, base + 1, 0), ==, 1.0);
}

static void
test_changed (void)
{
  g_autoptr(FcTimeAxis) axis = fc_time_axis_new ();
  guint changed = 0;
  gint64 b, e;

  g_signal_connect (axis, "changed", G_CALLBACK (count_cb), &changed);

  fc_time_axis_set_visible (axis, 10, 20);
  g_assert_cmpuint (changed, ==, 1);
  /* both ends at once: one "changed" */
  fc_time_axis_set_visible (axis, 30, 40);
  g_assert_cmpuint (changed, ==, 2);
  /* nothing moved: no signal */
  fc_time_axis_set_visible (axis, 30, 40);
  g_assert_cmpuint (changed, ==, 2);
  fc_time_axis_set_total (axis, 0, 100);
  g_assert_cmpuint (changed, ==, 3);

  fc_time_axis_get_visible (axis, &b, &e);
  g_assert_cmpint (b, ==, 30);
  g_assert_cmpint (e, ==, 40);
  fc_time_axis_get_total (axis, &b, &e);
  g_assert_cmpint (b, ==, 0);
  g_assert_cmpint (e, ==, 100);
}

/* The detail says which range moved: the views drawn over the visible range
 * alone (flamechart, ruler, span track) are not drawn again when a live
 * profile's thread range grows under them. */
static void
test_changed_detail (void)
{
  g_autoptr(FcTimeAxis) axis = fc_time_axis_new ();
  guint visible = 0, total = 0, any = 0;

  g_signal_connect (axis, "changed::visible", G_CALLBACK (count_cb), &visible);
  g_signal_connect (axis, "changed::total", G_CALLBACK (count_cb), &total);
  g_signal_connect (axis, "changed", G_CALLBACK (count_cb), &any);

  fc_time_axis_set_total (axis, 0, 100);
  fc_time_axis_set_total (axis, 0, 200);
  g_assert_cmpuint (total, ==, 2);
  g_assert_cmpuint (visible, ==, 0);
  fc_time_axis_set_visible (axis, 10, 20);
  g_assert_cmpuint (total, ==, 2);
  g_assert_cmpuint (visible, ==, 1);
  g_assert_cmpuint (any, ==, 3);
}

/* the session owns one axis and keeps it on its thread range and visible range */
static void
test_session (void)
{
  g_autoptr(FcSession) session = fc_session_new ();
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcDocument) document = fc_document_new (FC_DOCUMENT_V2);
  FcTimeAxis *axis = fc_session_get_time_axis (session);
  gint64 base = FC_TEST_BASE_NS;
  gint64 b, e, rb, re;
  guint changed = 0;

  g_assert_true (FC_IS_TIME_AXIS (axis));
  g_signal_connect (axis, "changed", G_CALLBACK (count_cb), &changed);

  fc_document_add_profile (document, profile);
  fc_session_set_document (session, document);
  g_assert_cmpuint (changed, >, 0);
  fc_time_axis_get_total (axis, &b, &e);
  fc_session_get_thread_range (session, &rb, &re);
  g_assert_cmpint (b, ==, rb);
  g_assert_cmpint (e, ==, re);

  changed = 0;
  fc_session_zoom_to (session, base + 10 * FC_TEST_MS, base + 20 * FC_TEST_MS);
  g_assert_cmpuint (changed, ==, 1);
  fc_time_axis_get_visible (axis, &b, &e);
  g_assert_cmpint (b, ==, fc_session_get_visible_begin_ns (session));
  g_assert_cmpint (e, ==, fc_session_get_visible_end_ns (session));
  g_assert_cmpint (fc_time_axis_time_at (axis, 500, 1000), ==, base + 15 * FC_TEST_MS);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/app/time-axis/mapping", test_mapping);
  g_test_add_func ("/app/time-axis/changed", test_changed);
  g_test_add_func ("/app/time-axis/changed-detail", test_changed_detail);
  g_test_add_func ("/app/time-axis/session", test_session);

  return g_test_run ();
}
