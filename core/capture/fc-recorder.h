/* fc-recorder.h - records a target into profile chunks: sampler + unwinder + symbolizer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "fc-capture-summary.h"
#include "fc-profile.h"
#include "fc-python-splice.h"
#include "fc-sampler.h"

G_BEGIN_DECLS

#define FC_TYPE_RECORDER (fc_recorder_get_type ())
G_DECLARE_FINAL_TYPE (FcRecorder, fc_recorder, FC, RECORDER, GObject)

/*
 * Properties (ranges and defaults in fc-record-options.h): frequency (Hz), mode (FcSamplerMode;
 * read when attaching), chunk-duration-ms, stack-size (bytes copied per sample), platform,
 * release, environment, follow-children (read when attaching), stacks (FcStacksMode; auto: a
 * CPython program's chunks are platform python with its Python frames; read when attaching);
 * read-only: profiler-id, n-samples, n-threads, dropped-ticks, median-stop-us.
 *
 * Signals, all emitted on the main context that was the thread default when the recorder was
 * created: "samples-added" (guint first, guint n) for samples appended to the live profile (the
 * target's), at least 10 times a second while sampling; "process-samples-added" (FcProfile *live,
 * guint first, guint n) for samples appended to any process's live chunk, the target's included
 * (following children, each process is its own session: its own profiler_id and chunks);
 * "chunk-ready" (FcProfile *chunk) when a chunk of any process is complete (every
 * chunk-duration-ms, at stop, and when a child followed exits); "target-exited" (int wait status, -1 if unknown);
 * "stopped" () when everything captured before a stop() has been delivered and its chunk finished
 * (after that chunk's "chunk-ready", if it had samples).
 *
 * fc_recorder_stop() never waits for the unwinder: it ends the sampling run and returns; the chunk
 * in progress is finished on the main context when the run's last samples arrive. start() may be
 * called again at once: samples taken after it go to the next chunk. fc_recorder_get_stopping()
 * is TRUE until the last stop's "stopped". fc_recorder_detach() stops, releases the target and
 * hands over everything captured (chunk-ready, stopped) before it returns: it blocks while the
 * unwinder works through its backlog, without iterating any main context; wait for "stopped"
 * first to find it empty.
 */

typedef struct {
  guint64 n_unwound;        /* snapshots unwound */
  guint64 n_complete;       /* reached the outermost frame */
  guint64 unwind_ns;        /* the worker's CPU time in libunwind (estimated: one stack in 8 is timed) */
  guint64 symbolize_ns;     /* the worker's CPU time symbolizing (estimated likewise) */
} FcUnwindStats;

FcRecorder *fc_recorder_new                (void);
gboolean    fc_recorder_attach             (FcRecorder          *self,
                                            GPid                 pid,
                                            GError             **error);
gboolean    fc_recorder_spawn              (FcRecorder          *self,
                                            const char * const  *argv,
                                            const char          *cwd,
                                            GError             **error);
gboolean    fc_recorder_start              (FcRecorder          *self,
                                            GError             **error);
void        fc_recorder_stop               (FcRecorder          *self);
gboolean    fc_recorder_get_stopping       (FcRecorder          *self);
void        fc_recorder_detach             (FcRecorder          *self);
FcProfile  *fc_recorder_get_live_profile   (FcRecorder          *self);

GPid        fc_recorder_get_pid            (FcRecorder          *self);
gboolean    fc_recorder_get_target_exited  (FcRecorder          *self,
                                            int                 *status);
guint       fc_recorder_get_frequency      (FcRecorder          *self);
void        fc_recorder_set_frequency      (FcRecorder          *self,
                                            guint                frequency);
FcSamplerMode fc_recorder_get_mode         (FcRecorder          *self);
void        fc_recorder_set_mode           (FcRecorder          *self,
                                            FcSamplerMode        mode);
guint       fc_recorder_get_chunk_duration_ms (FcRecorder       *self);
void        fc_recorder_set_chunk_duration_ms (FcRecorder       *self,
                                            guint                ms);
const char *fc_recorder_get_platform       (FcRecorder          *self);
void        fc_recorder_set_platform       (FcRecorder          *self,
                                            const char          *platform);
const char *fc_recorder_get_release        (FcRecorder          *self);
void        fc_recorder_set_release        (FcRecorder          *self,
                                            const char          *release);
const char *fc_recorder_get_environment    (FcRecorder          *self);
void        fc_recorder_set_environment    (FcRecorder          *self,
                                            const char          *environment);
const char *fc_recorder_get_profiler_id    (FcRecorder          *self);
guint       fc_recorder_get_n_samples      (FcRecorder          *self);
guint       fc_recorder_get_n_threads      (FcRecorder          *self);
guint64     fc_recorder_get_dropped_ticks  (FcRecorder          *self);
double      fc_recorder_get_median_stop_us (FcRecorder          *self);
void        fc_recorder_get_sampler_stats  (FcRecorder          *self,
                                            FcSamplerStats      *stats);
void        fc_recorder_get_unwind_stats   (FcRecorder          *self,
                                            FcUnwindStats       *stats);
FcCaptureSummary *fc_recorder_dup_summary  (FcRecorder          *self);
char             *fc_recorder_dup_access_note (FcRecorder       *self);
void        fc_recorder_end_target         (FcRecorder          *self,
                                            int                  signal_number,
                                            guint                grace_ms);
void        fc_recorder_set_force_ptrace   (FcRecorder          *self,
                                            gboolean             force);
void        fc_recorder_set_follow_children (FcRecorder         *self,
                                            gboolean             follow);
gboolean    fc_recorder_get_follow_children (FcRecorder         *self);
void        fc_recorder_set_launch_environ (FcRecorder          *self,
                                            const char * const  *envp);
void        fc_recorder_set_stacks         (FcRecorder          *self,
                                            FcStacksMode         stacks);
FcStacksMode fc_recorder_get_stacks        (FcRecorder          *self);
guint       fc_recorder_get_n_held_processes (FcRecorder        *self);

G_END_DECLS
