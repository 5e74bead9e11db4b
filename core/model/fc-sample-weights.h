/* fc-sample-weights.h - how much time each sample of a thread stands for
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/* The samples of one thread in time order, each weighted by the time to the
 * thread's next sample, capped at twice the median interval so that a pause
 * in sampling does not turn into a giant box. The last sample weighs the
 * median interval (FC_SAMPLE_WEIGHTS_DEFAULT_NS for a single sample). */

#define FC_SAMPLE_WEIGHTS_DEFAULT_NS (G_GINT64_CONSTANT (10000000))

typedef struct {
  guint32 *samples;           /* indices into fc_profile_get_samples(), time order */
  gint64  *timestamps_ns;     /* parallel to samples */
  gint64  *durations_ns;      /* parallel to samples */
  guint    n_samples;
  gint64   median_interval_ns;
} FcSampleWeights;

FcSampleWeights *fc_sample_weights_new   (FcProfile       *profile,
                                          guint32          thread_index);
void             fc_sample_weights_free  (FcSampleWeights *self);
/* index of the first sample with timestamp >= @t (n_samples if none) */
guint            fc_sample_weights_lower_bound (const FcSampleWeights *self,
                                                gint64                 t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcSampleWeights, fc_sample_weights_free)

G_END_DECLS
