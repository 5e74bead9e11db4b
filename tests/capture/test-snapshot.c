/* test-snapshot.c - snapshots are made again from the memory of freed ones
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-snapshot.h"

/* A freed 32 KiB snapshot serves the next of about its size: no new memory from malloc, and
 * nothing of the old one left in its header. */
static void
test_reuse (void)
{
  FcSnapshot *a = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, 7, 32768);
  FcSnapshot *b;
  guint n;

  a->pid = 3;
  a->context = a;
  a->stack[32767] = 1;
  fc_snapshot_free (a);
  n = fc_snapshot_get_n_allocated ();
  b = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, 9, 30000);
  g_assert_cmpuint (fc_snapshot_get_n_allocated (), ==, n);
  g_assert_cmpint (b->tid, ==, 9);
  g_assert_cmpint (b->pid, ==, 0);
  g_assert_null (b->context);
  g_assert_cmpuint (b->stack_len, ==, 30000);
  g_assert_cmpuint (b->stack_capacity, >=, 30000);
  fc_snapshot_free (b);

  /* another size class comes from malloc */
  b = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, 9, 65536);
  g_assert_cmpuint (fc_snapshot_get_n_allocated (), ==, n + 1);
  fc_snapshot_free (b);
}

/* A freed snapshot without a stack (a thread's last stack again, one per thread and tick) is
 * the next one, with nothing of the old one left in its header. */
static void
test_reuse_bare (void)
{
  FcSnapshot *a = fc_snapshot_new (FC_SNAPSHOT_REUSE, 7, 0);
  FcSnapshot *b;

  a->pid = 3;
  a->time_ns = 5;
  a->context = a;
  fc_snapshot_free (a);
  b = fc_snapshot_new (FC_SNAPSHOT_REUSE, 9, 0);
  g_assert_true (b == a);
  g_assert_cmpint (b->kind, ==, FC_SNAPSHOT_REUSE);
  g_assert_cmpint (b->tid, ==, 9);
  g_assert_cmpint (b->pid, ==, 0);
  g_assert_cmpint (b->time_ns, ==, 0);
  g_assert_null (b->context);
  g_assert_cmpuint (b->stack_len, ==, 0);
  fc_snapshot_free (b);
}

/* Only a bounded number wait: freeing many more keeps only so many. */
static void
test_bounded (void)
{
  FcSnapshot *snaps[300];
  guint n;

  for (guint i = 0; i < G_N_ELEMENTS (snaps); i++)
    snaps[i] = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, 1, 8192);
  for (guint i = 0; i < G_N_ELEMENTS (snaps); i++)
    fc_snapshot_free (snaps[i]);
  n = fc_snapshot_get_n_allocated ();
  for (guint i = 0; i < G_N_ELEMENTS (snaps); i++)
    snaps[i] = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, 1, 8192);
  /* some came back from the freed ones, not all 300 */
  g_assert_cmpuint (fc_snapshot_get_n_allocated (), >, n);
  g_assert_cmpuint (fc_snapshot_get_n_allocated (), <, n + G_N_ELEMENTS (snaps));
  for (guint i = 0; i < G_N_ELEMENTS (snaps); i++)
    fc_snapshot_free (snaps[i]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/snapshot/reuse", test_reuse);
  g_test_add_func ("/core/snapshot/reuse-bare", test_reuse_bare);
  g_test_add_func ("/core/snapshot/bounded", test_bounded);
  return g_test_run ();
}
