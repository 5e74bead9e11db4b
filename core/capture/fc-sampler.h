/* fc-sampler.h - captures registers and stack bytes of a target's threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "fc-snapshot.h"

G_BEGIN_DECLS

typedef enum {
  FC_SAMPLER_MODE_WALL,   /* every thread every tick, running or not: perf events for running
                           * threads and switch-out samples (or one ptrace stop per sleep) for
                           * sleeping ones, or ptrace stops alone */
  FC_SAMPLER_MODE_CPU,    /* perf events: on-CPU time, the target is never stopped */
} FcSamplerMode;

#define FC_TYPE_SAMPLER_MODE (fc_sampler_mode_get_type ())
GType fc_sampler_mode_get_type (void);

typedef struct {
  guint   n_threads;
  guint64 n_ticks;
  guint64 n_samples;        /* snapshots captured, reused included */
  guint64 n_reused;
  guint64 dropped_ticks;    /* ticks skipped because the sampler fell behind */
  guint64 lost_samples;     /* perf samples lost by the kernel */
  double  median_stop_us;   /* time a thread was held, interrupt to resume (wall mode) */
  double  p99_stop_us;
  double  max_stop_us;      /* the longest, of the sampler's life */
  guint64 n_stops;          /* threads stopped with ptrace to take their stack */
  guint64 n_group_stops;    /* stops of the user's (SIGSTOP, ^Z) seen and left in place */
} FcSamplerStats;

/* Wall mode, per thread: every tick while it lived in the recording is requested, and ends
 * captured or lost for one reason: requested = captured + late + refused + too_short. */
typedef struct {
  guint64 requested;
  guint64 captured;    /* a stack handed on: new, or the same as before because it did not run */
  guint64 late;        /* the sampler was late: the tick was skipped, or its stops over budget */
  guint64 refused;     /* the kernel would not stop or read the thread */
  guint64 too_short;   /* the thread had not started yet, or ended before its stack was taken */
} FcTickCount;

typedef struct _FcSampler FcSampler;

FcSampler *fc_sampler_new            (FcSnapshotSink       sink,
                                      gpointer             sink_data);
FcSampler *fc_sampler_new_full       (FcSnapshotSink       sink,
                                      FcSnapshotBatchEnd   batch_end,
                                      gpointer             sink_data);
void       fc_sampler_free           (FcSampler           *self);
gboolean   fc_sampler_attach         (FcSampler           *self,
                                      GPid                 pid,
                                      FcSamplerMode        mode,
                                      GError             **error);
gboolean   fc_sampler_spawn          (FcSampler           *self,
                                      const char * const  *argv,
                                      const char          *cwd,
                                      FcSamplerMode        mode,
                                      GError             **error);
gboolean   fc_sampler_start          (FcSampler           *self,
                                      guint                frequency,
                                      guint                stack_size,
                                      GError             **error);
void       fc_sampler_set_options    (FcSampler           *self,
                                      guint                frequency,
                                      guint                stack_size);
void       fc_sampler_stop           (FcSampler           *self);
void       fc_sampler_detach         (FcSampler           *self);
GPid       fc_sampler_get_pid        (FcSampler           *self);
gboolean   fc_sampler_is_spawned     (FcSampler           *self);
gboolean   fc_sampler_is_attached    (FcSampler           *self);
void       fc_sampler_get_stats      (FcSampler           *self,
                                      FcSamplerStats      *stats);
void       fc_sampler_set_force_ptrace (FcSampler         *self,
                                        gboolean           force);
char      *fc_sampler_dup_method     (FcSampler           *self,
                                      char               **reason);
GHashTable *fc_sampler_dup_tick_counts (FcSampler         *self);
gboolean   fc_sampler_get_target_was_stopped (FcSampler   *self);
void       fc_sampler_set_follow_children (FcSampler      *self,
                                           gboolean        follow);
void       fc_sampler_set_launch_environ  (FcSampler          *self,
                                           const char * const *envp);
guint64    fc_sampler_get_target_cpu_ns (FcSampler        *self);
guint      fc_sampler_dup_unsampled  (FcSampler           *self,
                                      char               **reason);

G_END_DECLS
