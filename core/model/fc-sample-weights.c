/* fc-sample-weights.c - how much time each sample of a thread stands for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-sample-weights.h"

#include <stdlib.h>

static int
compare_gint64 (const void *a,
                const void *b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
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
      qsort (intervals, n - 1, sizeof (gint64), compare_gint64);
      self->median_interval_ns = intervals[(n - 1) / 2];
      /* Samples sharing a timestamp would make every sample weigh nothing. */
      if (self->median_interval_ns <= 0)
        {
          for (guint i = 0; i + 1 < n; i++)
            if (intervals[i] > 0)
              {
                self->median_interval_ns = intervals[i];
                break;
              }
          if (self->median_interval_ns <= 0)
            self->median_interval_ns = FC_SAMPLE_WEIGHTS_DEFAULT_NS;
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
