/* fc-view-threads.c - which thread a profile opens on, and the time a thread covers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-view-threads.h"

#include "fc-sample-weights.h"
#include "fc-stats.h"

/* the narrowest range a view shows: below a microsecond there is nothing left to see */
#define MIN_RANGE_NS 1000

/**
 * fc_view_threads_pick_default:
 * @profile: (nullable): a profile
 *
 * The thread a profile opens on, as in Sentry: the transaction's active
 * thread when it has samples, otherwise the busiest thread
 * (fc_stats_busiest_thread()). That reads every sample's stack: tens of
 * milliseconds on a big file, so a loader asks on its worker and hands the
 * answer on with the profile.
 *
 * Returns: a thread index, or %FC_VIEW_ALL_THREADS when no thread has samples
 */
gint
fc_view_threads_pick_default (FcProfile *profile)
{
  const char *active_tid;
  guint32 active;
  gint busiest;

  if (profile == NULL)
    return FC_VIEW_ALL_THREADS;

  g_return_val_if_fail (FC_IS_PROFILE (profile), FC_VIEW_ALL_THREADS);

  active_tid = fc_profile_get_active_thread_id (profile);
  if (active_tid != NULL &&
      fc_profile_lookup_thread (profile, active_tid, &active) &&
      fc_profile_get_thread (profile, active)->n_samples > 0)
    return (gint) active;

  busiest = fc_stats_busiest_thread (profile);
  return busiest >= 0 ? busiest : FC_VIEW_ALL_THREADS;
}

/**
 * fc_view_threads_pick_start:
 * @profile: (nullable): a profile
 * @start: (out): the thread @profile opens on and its range
 *
 * fc_view_threads_pick_default() and fc_view_threads_get_range() of that
 * thread: both read every sample of a big profile, so a loader asks on its
 * worker and the window only shows the answer.
 */
void
fc_view_threads_pick_start (FcProfile   *profile,
                            FcViewStart *start)
{
  g_return_if_fail (start != NULL);

  start->thread = fc_view_threads_pick_default (profile);
  fc_view_threads_get_range (profile, start->thread, &start->begin_ns, &start->end_ns);
}

static void
clamp_range (gint64  first,
             gint64  last,
             gint64 *begin_ns,
             gint64 *end_ns)
{
  if (first > last)
    first = last = 0;
  *begin_ns = first;
  *end_ns = MAX (last, first + MIN_RANGE_NS);
}

/**
 * fc_view_threads_get_range:
 * @profile: (nullable): a profile
 * @thread: a thread index, or %FC_VIEW_ALL_THREADS
 * @begin_ns: (out): the first sample's time
 * @end_ns: (out): where the last sample's time ends
 *
 * The time @thread covers (every thread's for %FC_VIEW_ALL_THREADS). A
 * sample stands for the time until the thread's next one (FcSampleWeights),
 * so the range ends where the last sample's weight ends, exactly where the
 * flamechart layout's boxes end: ending at the last timestamp would put the
 * last sample's boxes past the right edge. At least a microsecond long;
 * 0..1 µs when there is nothing to show.
 */
void
fc_view_threads_get_range (FcProfile *profile,
                           gint       thread,
                           gint64    *begin_ns,
                           gint64    *end_ns)
{
  gint64 first = G_MAXINT64;
  gint64 last = G_MININT64;

  g_return_if_fail (!profile || FC_IS_PROFILE (profile));
  g_return_if_fail (begin_ns != NULL && end_ns != NULL);

  for (guint i = 0; profile != NULL && i < fc_profile_get_n_threads (profile); i++)
    {
      g_autoptr(FcSampleWeights) weights = NULL;
      guint n;

      if ((thread >= 0 && (guint) thread != i) || fc_profile_get_thread (profile, i)->n_samples == 0)
        continue;

      weights = fc_sample_weights_new (profile, i);
      n = weights->n_samples;
      if (n == 0)
        continue;

      first = MIN (first, weights->timestamps_ns[0]);
      last = MAX (last, weights->timestamps_ns[n - 1] + weights->durations_ns[n - 1]);
    }

  clamp_range (first, last, begin_ns, end_ns);
}

/**
 * fc_view_threads_get_grown_range:
 *
 * As fc_view_threads_get_range() for a live profile that just grew, from
 * the threads' first and last sample times, without walking the samples
 * (a live view asks several times a second): the last sample's weight is
 * not known yet.
 */
void
fc_view_threads_get_grown_range (FcProfile *profile,
                                 gint       thread,
                                 gint64    *begin_ns,
                                 gint64    *end_ns)
{
  gint64 first = G_MAXINT64;
  gint64 last = G_MININT64;

  g_return_if_fail (!profile || FC_IS_PROFILE (profile));
  g_return_if_fail (begin_ns != NULL && end_ns != NULL);

  for (guint i = 0; profile != NULL && i < fc_profile_get_n_threads (profile); i++)
    {
      const FcThread *t = fc_profile_get_thread (profile, i);

      if ((thread >= 0 && (guint) thread != i) || t->n_samples == 0)
        continue;
      first = MIN (first, t->first_ns);
      last = MAX (last, t->last_ns);
    }

  clamp_range (first, last, begin_ns, end_ns);
}
