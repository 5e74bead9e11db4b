/* test-range-index.c - next and previous elements past a bound, against a linear scan
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-range-index.h"

static gboolean
passes (gboolean maximum,
        guint32  value,
        guint32  bound)
{
  return maximum ? value >= bound : value <= bound;
}

static guint
scan_next (const guint32 *a,
           guint          from,
           guint          limit,
           guint32        bound,
           gboolean       maximum)
{
  for (guint i = from; i < limit; i++)
    if (passes (maximum, a[i], bound))
      return i;
  return limit;
}

static guint
scan_prev (const guint32 *a,
           guint          lower,
           guint          from,
           guint32        bound,
           gboolean       maximum)
{
  for (guint i = from + 1; i > lower; i--)
    if (passes (maximum, a[i - 1], bound))
      return i - 1;
  return FC_RANGE_INDEX_NONE;
}

/* Arrays of every size around the block and level edges (16, 256, 4096),
 * values from a small range so that answers are near and far, every kind
 * of range, both kinds of index: each answer is the linear scan's. */
static void
test_against_scan (void)
{
  static const guint sizes[] = { 0, 1, 2, 15, 16, 17, 31, 255, 256, 257, 4095, 4096, 4097, 70000 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint maximum = 0; maximum < 2; maximum++)
      for (guint spread = 2; spread <= 64; spread *= 8)
        {
          guint n = sizes[s];
          guint32 *values = g_new (guint32, MAX (n, 1));
          FcRangeIndex index;

          for (guint i = 0; i < n; i++)
            values[i] = g_rand_int_range (rand, 0, spread);
          /* a long stretch with nothing to find, as under a wide box */
          for (guint i = n / 3; i < 2 * n / 3; i++)
            values[i] = maximum ? 0 : spread;
          fc_range_index_init (&index, values, n, maximum);

          for (guint q = 0; q < 2000; q++)
            {
              guint a = n ? g_rand_int_range (rand, 0, n + 1) : 0;
              guint b = n ? g_rand_int_range (rand, 0, n + 1) : 0;
              guint lo = MIN (a, b), hi = MAX (a, b);
              guint32 bound = g_rand_int_range (rand, 0, spread + 1);

              g_assert_cmpuint (fc_range_index_next (&index, lo, hi, bound), ==,
                                scan_next (values, lo, hi, bound, maximum));
              if (n > 0 && hi > 0)
                g_assert_cmpuint (fc_range_index_prev (&index, lo, hi - 1, bound), ==,
                                  scan_prev (values, lo, hi - 1, bound, maximum));
            }
          g_assert_cmpuint (fc_range_index_next (&index, 0, n, maximum ? 0 : G_MAXUINT32), ==, 0);
          g_assert_cmpuint (fc_range_index_prev (&index, 1, 0, 0), ==, FC_RANGE_INDEX_NONE);
          /* the levels cost a fifteenth of the array */
          g_assert_cmpuint (fc_range_index_size (&index), <=, n * sizeof (guint32) * 16 / 15 + 64);
          fc_range_index_clear (&index);
        }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/range-index/against-scan", test_against_scan);

  return g_test_run ();
}
