/* test-big-alloc.c - huge-page blocks keep their bytes across every size change, in columns too
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-big-alloc.h"
#include "fc-column.h"

static void
fill (guint32 *data,
      gsize    from,
      gsize    to)
{
  for (gsize i = from; i < to; i++)
    data[i] = (guint32) (i * 2654435761u);
}

static void
check (const guint32 *data,
       gsize          n)
{
  for (gsize i = 0; i < n; i++)
    if (data[i] != (guint32) (i * 2654435761u))
      g_error ("element %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " changed", i, n);
}

/* small -> big -> bigger -> smaller big -> small: the kept bytes are the same */
static void
test_realloc_sizes (void)
{
  static const gsize sizes[] = { 1024, 3 << 20, 9 << 20, (9 << 20) + 4, 5 << 20, 100 << 10, 8 };
  gsize bytes = 4096;
  guint32 *data = fc_big_alloc (bytes);

  fill (data, 0, bytes / 4);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      data = fc_big_realloc (data, bytes, sizes[i]);
      check (data, MIN (bytes, sizes[i]) / 4);
      if (sizes[i] >= FC_BIG_MIN)
        g_assert_cmpuint ((gsize) data % (2 << 20), ==, 0);
      if (sizes[i] > bytes)
        fill (data, bytes / 4, sizes[i] / 4);
      bytes = sizes[i];
    }
  fc_big_free (data, bytes);
  fc_big_free (NULL, 5 << 20);
}

/* a private column reserved past FC_BIG_MIN, filled, trimmed, grown, then
 * shared and grown again while a reader holds its elements */
static void
test_column (void)
{
  FcColumn column;
  guint n = (FC_BIG_MIN / 4) + 1000;
  const guint32 *held;
  guint n_held;

  fc_column_init (&column, sizeof (guint32));
  fc_column_reserve (&column, n, TRUE);
  for (guint i = 0; i < n; i++)
    fc_column_append (&column, guint32, (guint32) (i * 2654435761u));
  fc_column_trim (&column);
  check (fc_column_read (&column, NULL), n);

  for (guint i = n; i < 2 * n; i++)
    fc_column_append (&column, guint32, (guint32) (i * 2654435761u));
  check (fc_column_read (&column, NULL), 2 * n);

  fc_column_share (&column);
  fc_column_publish (&column);
  held = fc_column_read (&column, &n_held);
  for (guint i = 2 * n; i < 5 * n; i++)
    fc_column_append (&column, guint32, (guint32) (i * 2654435761u));
  fc_column_publish (&column);
  /* the block the reader holds is retired, never freed under it */
  check (held, n_held);
  check (fc_column_read (&column, NULL), 5 * n);
  fc_column_clear (&column);
}

/* what a profile's samples column adopts comes from fc_big_alloc() */
static void
test_adopt (void)
{
  FcColumn column;
  guint n = FC_BIG_MIN / 4 * 3;
  guint32 *data = fc_big_alloc ((gsize) n * 4);

  fill (data, 0, n);
  fc_column_init (&column, sizeof (guint32));
  fc_column_adopt (&column, data, n - 5, n);
  check (fc_column_read (&column, NULL), n - 5);
  fc_column_trim (&column);
  check (fc_column_read (&column, NULL), n - 5);
  fc_column_clear (&column);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/big-alloc/realloc-sizes", test_realloc_sizes);
  g_test_add_func ("/core/big-alloc/column", test_column);
  g_test_add_func ("/core/big-alloc/adopt", test_adopt);
  return g_test_run ();
}
