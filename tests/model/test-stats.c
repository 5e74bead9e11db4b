/* test-stats.c - top functions and busiest thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"
#include "fc-stats.h"
#include "fc-test-profiles.h"

static const char *
label (FcProfile      *profile,
       GArray         *stats,
       guint           i)
{
  static char buf[128];

  return fc_profile_frame_label (profile, g_array_index (stats, FcFunctionStat, i).frame, buf, sizeof buf);
}

#define STAT(stats, i) (&g_array_index ((stats), FcFunctionStat, (i)))

static void
test_top_all_threads (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GArray) self = fc_stats_top_functions (profile, -1, TRUE, 0);
  g_autoptr(GArray) total = fc_stats_top_functions (profile, -1, FALSE, 0);
  g_autoptr(GArray) two = fc_stats_top_functions (profile, -1, FALSE, 2);

  /* self: baz 2+2, bar 3, foo 1; main is never a leaf */
  g_assert_cmpuint (self->len, ==, 3);
  g_assert_cmpstr (label (profile, self, 0), ==, "baz");
  g_assert_cmpuint (STAT (self, 0)->self, ==, 4);
  g_assert_cmpstr (label (profile, self, 1), ==, "bar");
  g_assert_cmpuint (STAT (self, 1)->self, ==, 3);
  g_assert_cmpstr (label (profile, self, 2), ==, "foo");
  g_assert_cmpuint (STAT (self, 2)->self, ==, 1);

  /* total: main 8 (the empty sample counts for nobody), then baz and foo
   * with 4 each, baz first for its higher self count, then bar */
  g_assert_cmpstr (label (profile, total, 0), ==, "main");
  g_assert_cmpuint (STAT (total, 0)->total, ==, 8);
  g_assert_cmpstr (label (profile, total, 1), ==, "baz");
  g_assert_cmpuint (STAT (total, 1)->total, ==, 4);
  g_assert_cmpstr (label (profile, total, 2), ==, "foo");
  g_assert_cmpuint (STAT (total, 2)->total, ==, 4);
  g_assert_cmpstr (label (profile, total, 3), ==, "bar");
  g_assert_cmpuint (STAT (total, 3)->total, ==, 3);

  g_assert_cmpuint (two->len, ==, 2);
  g_assert_cmpstr (label (profile, two, 1), ==, "baz");
}

static void
test_top_one_thread (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(GArray) t0 = fc_stats_top_functions (profile, 0, FALSE, 0);
  g_autoptr(GArray) t1 = fc_stats_top_functions (profile, 1, TRUE, 0);

  g_assert_cmpstr (label (profile, t0, 0), ==, "main");
  g_assert_cmpuint (STAT (t0, 0)->total, ==, 6);
  g_assert_cmpstr (label (profile, t0, 3), ==, "baz");
  g_assert_cmpuint (STAT (t0, 3)->total, ==, 2);

  /* thread "2" only ever runs main>baz: foo and bar are not listed, nor
   * main, which is never its leaf */
  g_assert_cmpuint (t1->len, ==, 1);
  g_assert_cmpstr (label (profile, t1, 0), ==, "baz");
  g_assert_cmpuint (STAT (t1, 0)->self, ==, 2);
  g_assert_cmpuint (STAT (t1, 0)->total, ==, 2);
}

/* Recursion counts a function once per sample; lines of one function merge. */
static void
test_recursion_and_lines (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(GArray) total = NULL;
  guint32 a = fc_test_frame (profile, "a", "m", TRUE);
  guint32 b = fc_test_frame (profile, "b", "m", TRUE);
  guint32 b2 = fc_test_frame (profile, "b", "m", TRUE);   /* another line */
  guint32 t = fc_profile_ensure_thread (profile, "1");

  g_assert_cmpuint (b, !=, b2);
  fc_test_sample (profile, t, 0, 4, a, b, a, b);
  fc_test_sample (profile, t, 10, 2, a, b2);

  total = fc_stats_top_functions (profile, -1, FALSE, 0);
  g_assert_cmpuint (total->len, ==, 2);
  for (guint i = 0; i < total->len; i++)
    g_assert_cmpuint (STAT (total, i)->total, ==, 2);
  /* b is the leaf of both samples, a of none */
  g_assert_cmpstr (label (profile, total, 0), ==, "b");
  g_assert_cmpuint (STAT (total, 0)->self, ==, 2);
  g_assert_cmpuint (STAT (total, 1)->self, ==, 0);
}

static void
test_busiest_thread (void)
{
  g_autoptr(FcProfile) profile = fc_test_profile_new ();
  g_autoptr(FcProfile) empty = fc_profile_new (FC_FORMAT_V2);
  g_autofree guint *counts = NULL;
  guint n = 0;

  g_assert_cmpint (fc_stats_busiest_thread (profile), ==, 0);
  g_assert_cmpint (fc_stats_busiest_thread (empty), ==, -1);
  counts = fc_stats_thread_samples (profile, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (counts[0], ==, 7);
  g_assert_cmpuint (counts[1], ==, 2);
}

/* Wall mode samples every thread alike: the default thread is the one that
 * ran, not the main thread parked in a futex. */
static void
test_busiest_on_cpu (void)
{
  g_autoptr(FcProfile) profile = fc_profile_new (FC_FORMAT_V2);
  g_autoptr(FcProfile) idle_only = fc_profile_new (FC_FORMAT_V2);
  guint32 main_f = fc_test_frame (profile, "main", "/srv/app", TRUE);
  guint32 futex = fc_test_frame (profile, "__futex_abstimed_wait_common64", "/usr/lib/libc.so.6", FALSE);
  guint32 epoll = fc_test_frame (profile, "epoll_wait", "/usr/lib/libc.so.6", FALSE);
  guint32 work = fc_test_frame (profile, "compress_block", "/srv/app", TRUE);
  guint32 parked = fc_profile_ensure_thread (profile, "1");
  guint32 worker = fc_profile_ensure_thread (profile, "2");
  guint32 poller = fc_profile_ensure_thread (profile, "3");
  g_autofree guint *busy = NULL;
  guint n = 0;

  for (gint64 ms = 0; ms < 100; ms += 10)
    {
      fc_test_sample (profile, parked, ms, 2, main_f, futex);
      /* the worker waits a quarter of the time */
      if (ms % 40 == 0)
        fc_test_sample (profile, worker, ms, 2, main_f, futex);
      else
        fc_test_sample (profile, worker, ms, 2, main_f, work);
      fc_test_sample (profile, poller, ms, 2, main_f, epoll);
      fc_test_sample (profile, poller, ms + 5, 0);
    }
  fc_profile_finish (profile);

  busy = fc_stats_thread_busy_samples (profile, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (busy[parked], ==, 0);
  g_assert_cmpuint (busy[worker], ==, 7);
  g_assert_cmpuint (busy[poller], ==, 0);
  g_assert_cmpint (fc_stats_busiest_thread (profile), ==, (gint) worker);

  /* everybody waits: the most samples decide, then the first thread */
  {
    guint32 f = fc_test_frame (idle_only, "nanosleep", "libc", FALSE);
    guint32 a = fc_profile_ensure_thread (idle_only, "1");
    guint32 b = fc_profile_ensure_thread (idle_only, "2");

    fc_test_sample (idle_only, a, 0, 1, f);
    fc_test_sample (idle_only, b, 1, 1, f);
    fc_test_sample (idle_only, b, 2, 1, f);
    fc_profile_finish (idle_only);
    g_assert_cmpint (fc_stats_busiest_thread (idle_only), ==, (gint) b);
  }

  g_assert_true (fc_stats_function_is_idle ("futex_wait"));
  g_assert_true (fc_stats_function_is_idle ("__lll_lock_wait_private"));
  g_assert_true (fc_stats_function_is_idle ("__read_nocancel"));
  g_assert_true (fc_stats_function_is_idle ("pthread_cond_wait"));
  g_assert_true (fc_stats_function_is_idle ("time.sleep"));
  g_assert_true (fc_stats_function_is_idle ("jdk.internal.misc.Unsafe.park"));
  g_assert_true (fc_stats_function_is_idle ("(idle)"));
  g_assert_false (fc_stats_function_is_idle ("readdir"));
  g_assert_false (fc_stats_function_is_idle ("compress_block"));
  g_assert_false (fc_stats_function_is_idle (NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/stats/top-all-threads", test_top_all_threads);
  g_test_add_func ("/core/stats/top-one-thread", test_top_one_thread);
  g_test_add_func ("/core/stats/recursion-and-lines", test_recursion_and_lines);
  g_test_add_func ("/core/stats/busiest-thread", test_busiest_thread);
  g_test_add_func ("/core/stats/busiest-on-cpu", test_busiest_on_cpu);

  return g_test_run ();
}
