/* fc-sample-weights.c - how much time each sample of a thread stands for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-sample-weights.h"

#include <stdlib.h>

/* The @k-th smallest of @v[0..n) (Hoare's selection; @v is reordered).
 * Linear on average where sorting was n log n: the median interval is asked
 * for on every thread switch, range change and layout of a big profile. */
static gint64
select_nth (gint64 *v,
            gsize   n,
            gsize   k)
{
  gint64 lo = 0, hi = (gint64) n - 1;

  g_assert (k < n);
  while (lo < hi)
    {
      gint64 pivot = v[lo + (hi - lo) / 2];
      gint64 i = lo, j = hi;

      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              gint64 t = v[i];

              v[i++] = v[j];
              v[j--] = t;
            }
        }
      /* v[lo..j] <= pivot <= v[i..hi]; whatever lies between equals it */
      if ((gint64) k <= j)
        hi = j;
      else if ((gint64) k >= i)
        lo = i;
      else
        break;
    }
  return v[k];
}

typedef struct {
  const FcSample *samples;
} SortContext;

static int
compare_sample_index (gconstpointer a,
                      gconstpointer b,
                      gpointer      user_data)
{
  const SortContext *ctx = user_data;
  guint32 i = *(const guint32 *) a;
  guint32 j = *(const guint32 *) b;
  gint64 x = ctx->samples[i].timestamp_ns;
  gint64 y = ctx->samples[j].timestamp_ns;

  if (x != y)
    return (x > y) - (x < y);
  return (i > j) - (i < j);
}

FcSampleWeights *
fc_sample_weights_new (FcProfile *profile,
                       guint32    thread_index)
{
  FcSampleWeights *self;
  const guint32 *indices;
  const FcSample *samples;
  guint n_all = 0;
  guint n = 0;
  gboolean sorted = TRUE;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  self = g_new0 (FcSampleWeights, 1);
  self->median_interval_ns = FC_SAMPLE_WEIGHTS_DEFAULT_NS;

  if (thread_index >= fc_profile_get_n_threads (profile))
    return self;

  /* the indexes first: on a live profile the samples fetched after them hold
   * every sample they point to */
  indices = fc_profile_get_thread_samples (profile, thread_index, &n);
  samples = fc_profile_get_samples (profile, &n_all);
  if (indices == NULL || n == 0)
    return self;

  self->n_samples = n;
  self->samples = g_memdup2 (indices, sizeof (guint32) * n);
  for (guint i = 1; i < n; i++)
    if (samples[self->samples[i]].timestamp_ns < samples[self->samples[i - 1]].timestamp_ns)
      {
        sorted = FALSE;
        break;
      }
  /* Readers sort samples, but a live profile may receive late batches. */
  if (!sorted)
    {
      SortContext ctx = { samples };

      g_qsort_with_data (self->samples, n, sizeof (guint32), compare_sample_index, &ctx);
    }

  self->timestamps_ns = g_new (gint64, n);
  self->durations_ns = g_new (gint64, n);
  for (guint i = 0; i < n; i++)
    self->timestamps_ns[i] = samples[self->samples[i]].timestamp_ns;

  if (n > 1)
    {
      g_autofree gint64 *intervals = g_new (gint64, n - 1);

      for (guint i = 0; i + 1 < n; i++)
        intervals[i] = self->timestamps_ns[i + 1] - self->timestamps_ns[i];
      self->median_interval_ns = select_nth (intervals, n - 1, (n - 1) / 2);
      /* Samples sharing a timestamp would make every sample weigh nothing:
       * the shortest real interval instead. */
      if (self->median_interval_ns <= 0)
        {
          gint64 shortest = G_MAXINT64;

          for (guint i = 0; i + 1 < n; i++)
            {
              gint64 interval = self->timestamps_ns[i + 1] - self->timestamps_ns[i];

              if (interval > 0)
                shortest = MIN (shortest, interval);
            }
          self->median_interval_ns = shortest < G_MAXINT64 ? shortest : FC_SAMPLE_WEIGHTS_DEFAULT_NS;
        }
    }

  for (guint i = 0; i < n; i++)
    {
      gint64 cap = 2 * self->median_interval_ns;

      if (i + 1 < n)
        self->durations_ns[i] = MIN (self->timestamps_ns[i + 1] - self->timestamps_ns[i], cap);
      else
        self->durations_ns[i] = self->median_interval_ns;
    }

  return self;
}

void
fc_sample_weights_free (FcSampleWeights *self)
{
  if (self == NULL)
    return;

  g_free (self->samples);
  g_free (self->timestamps_ns);
  g_free (self->durations_ns);
  g_free (self);
}

guint
fc_sample_weights_lower_bound (const FcSampleWeights *self,
                               gint64                 t)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (self != NULL, 0);

  hi = self->n_samples;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->timestamps_ns[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo;
}
