/* fc-range-index.h - the next or previous element past a bound, in arrays of millions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * An array of guint32 with, above it, levels of block minimums (or
 * maximums): each entry of a level is the least (greatest) of 16 entries of
 * the level below. Finding the first or last element at most (at least) a
 * bound in a range then skips whole blocks, at each level, instead of
 * reading every element: a few dozen reads however far the answer is. The
 * levels take a fifteenth of the array's size. Immutable once built; any
 * number of threads may query it.
 */

#define FC_RANGE_INDEX_NONE G_MAXUINT
#define FC_RANGE_INDEX_MAX_LEVELS 8

typedef struct {
  /*< private >*/
  guint32  *levels[FC_RANGE_INDEX_MAX_LEVELS];  /* [0] is the array itself */
  guint     lengths[FC_RANGE_INDEX_MAX_LEVELS];
  guint     n_levels;
  gboolean  maximum;                           /* levels of maximums: finds elements >= a bound */
} FcRangeIndex;

/* takes @values (g_malloc'ed, @n of them) */
void     fc_range_index_init  (FcRangeIndex       *self,
                               guint32            *values,
                               guint               n,
                               gboolean            maximum);
void     fc_range_index_clear (FcRangeIndex       *self);
/* the bytes it holds */
gsize    fc_range_index_size  (const FcRangeIndex *self);

static inline guint32
fc_range_index_get (const FcRangeIndex *self,
                    guint               i)
{
  return self->levels[0][i];
}

/* The first i in [@from, @limit) whose element is <= @bound (a minimum
 * index) or >= @bound (a maximum index); @limit when there is none. */
guint    fc_range_index_next  (const FcRangeIndex *self,
                               guint               from,
                               guint               limit,
                               guint32             bound);
/* The last i in [@lower, @from] whose element is <= @bound (>= @bound);
 * FC_RANGE_INDEX_NONE when there is none. */
guint    fc_range_index_prev  (const FcRangeIndex *self,
                               guint               lower,
                               guint               from,
                               guint32             bound);

G_END_DECLS
