/* fc-range-index.c - the next or previous element past a bound, in arrays of millions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-range-index.h"

/* 16 entries of 4 bytes: a cache line per block */
#define BLOCK 16u

static inline gboolean
passes (const FcRangeIndex *self,
        guint32             value,
        guint32             bound)
{
  return self->maximum ? value >= bound : value <= bound;
}

void
fc_range_index_init (FcRangeIndex *self,
                     guint32      *values,
                     guint         n,
                     gboolean      maximum)
{
  g_return_if_fail (self != NULL);

  *self = (FcRangeIndex) { 0 };
  self->maximum = !!maximum;
  self->levels[0] = values;
  self->lengths[0] = n;
  self->n_levels = 1;

  /* up to a level of one block: 16^8 entries is more than a guint counts */
  while (self->lengths[self->n_levels - 1] > BLOCK && self->n_levels < FC_RANGE_INDEX_MAX_LEVELS)
    {
      const guint32 *below = self->levels[self->n_levels - 1];
      guint n_below = self->lengths[self->n_levels - 1];
      guint n_level = (n_below + BLOCK - 1) / BLOCK;
      guint32 *level = g_new (guint32, n_level);

      for (guint b = 0; b < n_level; b++)
        {
          guint end = MIN (n_below, (b + 1) * BLOCK);
          guint32 v = below[b * BLOCK];

          for (guint i = b * BLOCK + 1; i < end; i++)
            v = maximum ? MAX (v, below[i]) : MIN (v, below[i]);
          level[b] = v;
        }
      self->levels[self->n_levels] = level;
      self->lengths[self->n_levels] = n_level;
      self->n_levels++;
    }
}

void
fc_range_index_clear (FcRangeIndex *self)
{
  g_return_if_fail (self != NULL);

  for (guint l = 0; l < self->n_levels; l++)
    g_free (self->levels[l]);
  *self = (FcRangeIndex) { 0 };
}

gsize
fc_range_index_size (const FcRangeIndex *self)
{
  gsize size = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint l = 0; l < self->n_levels; l++)
    size += sizeof (guint32) * self->lengths[l];
  return size;
}

/* the first i in [from, limit) of level @lv that passes, or limit */
static guint
next_at (const FcRangeIndex *self,
         guint               lv,
         guint               from,
         guint               limit,
         guint32             bound)
{
  const guint32 *a = self->levels[lv];
  guint i = from;

  /* the rest of @from's block */
  for (; i < limit && i % BLOCK != 0; i++)
    if (passes (self, a[i], bound))
      return i;
  if (i >= limit)
    return limit;

  /* whole blocks: the level above says which holds the answer */
  if (lv + 1 < self->n_levels)
    {
      guint full = limit / BLOCK;

      if (i / BLOCK < full)
        {
          guint b = next_at (self, lv + 1, i / BLOCK, full, bound);

          if (b < full)
            {
              for (i = b * BLOCK;; i++)
                if (passes (self, a[i], bound))
                  return i;
            }
          i = full * BLOCK;
        }
    }

  for (; i < limit; i++)
    if (passes (self, a[i], bound))
      return i;
  return limit;
}

guint
fc_range_index_next (const FcRangeIndex *self,
                     guint               from,
                     guint               limit,
                     guint32             bound)
{
  g_return_val_if_fail (self != NULL, limit);

  limit = MIN (limit, self->lengths[0]);
  if (from >= limit)
    return limit;
  return next_at (self, 0, from, limit, bound);
}

/* the last i in [lower, from] of level @lv that passes, or NONE */
static guint
prev_at (const FcRangeIndex *self,
         guint               lv,
         guint               lower,
         guint               from,
         guint32             bound)
{
  const guint32 *a = self->levels[lv];
  /* one past the element to look at next, so that it never goes below 0 */
  guint end = from + 1;

  /* down to the start of @from's block */
  for (; end > lower && end % BLOCK != 0; end--)
    if (passes (self, a[end - 1], bound))
      return end - 1;
  if (end <= lower)
    return FC_RANGE_INDEX_NONE;

  /* whole blocks [first_full, end / BLOCK) */
  if (lv + 1 < self->n_levels)
    {
      guint first_full = (lower + BLOCK - 1) / BLOCK;

      if (first_full < end / BLOCK)
        {
          guint b = prev_at (self, lv + 1, first_full, end / BLOCK - 1, bound);

          if (b != FC_RANGE_INDEX_NONE)
            {
              for (guint i = b * BLOCK + BLOCK - 1;; i--)
                if (passes (self, a[i], bound))
                  return i;
            }
          end = first_full * BLOCK;
        }
    }

  for (; end > lower; end--)
    if (passes (self, a[end - 1], bound))
      return end - 1;
  return FC_RANGE_INDEX_NONE;
}

guint
fc_range_index_prev (const FcRangeIndex *self,
                     guint               lower,
                     guint               from,
                     guint32             bound)
{
  g_return_val_if_fail (self != NULL, FC_RANGE_INDEX_NONE);

  if (self->lengths[0] == 0 || lower > from)
    return FC_RANGE_INDEX_NONE;
  from = MIN (from, self->lengths[0] - 1);
  if (lower > from)
    return FC_RANGE_INDEX_NONE;
  return prev_at (self, 0, lower, from, bound);
}
