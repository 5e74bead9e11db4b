/* fc-perf.h - per-thread perf_event sampling with user registers and stack copies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-snapshot.h"

G_BEGIN_DECLS

typedef struct _FcPerfStream FcPerfStream;

typedef enum {
  FC_PERF_ENABLE_ON_EXEC = 1 << 0,  /* start counting when the thread calls execve() */
  FC_PERF_SWITCHES       = 1 << 1,  /* also report when the thread goes off and on a CPU */
  FC_PERF_SMALL_RING     = 1 << 2,  /* drained at every tick: a ring of 512 KiB, not 4 MiB */
  FC_PERF_NEWEST         = 1 << 3,  /* an overwritten ring just big enough for the newest sample,
                                     * read with fc_perf_stream_read_newest() */
  FC_PERF_OFF_CPU        = 1 << 4,  /* a sample each time the thread leaves a CPU (its user stack as
                                     * it goes to sleep or is preempted) instead of on-CPU time;
                                     * needs kernel events (perf_event_paranoid <= 1 or CAP_PERFMON) */
} FcPerfFlags;

typedef enum {
  FC_PERF_SWITCH_IN,
  FC_PERF_SWITCH_OUT_SLEEPING,      /* it blocked or was stopped */
  FC_PERF_SWITCH_OUT_PREEMPTED,     /* still runnable, another thread took the CPU */
} FcPerfSwitch;

/* time_ns is CLOCK_MONOTONIC */
typedef void (*FcPerfSwitchFunc) (FcPerfSwitch kind,
                                  gint64       time_ns,
                                  gpointer     user_data);

FcPerfStream *fc_perf_stream_open   (int             tid,
                                     guint           frequency,
                                     guint           stack_size,
                                     gboolean        enable_on_exec,
                                     GError        **error);
FcPerfStream *fc_perf_stream_open_full (int           tid,
                                        guint         frequency,
                                        guint         stack_size,
                                        FcPerfFlags   flags,
                                        GError      **error);
void          fc_perf_stream_free   (FcPerfStream   *self);
int           fc_perf_stream_get_fd (FcPerfStream   *self);
void          fc_perf_stream_set_frequency (FcPerfStream *self,
                                            guint         frequency);
void          fc_perf_stream_enable (FcPerfStream   *self,
                                     gboolean        enable);
/* Hands every sample in the ring buffer to sink as an FC_SNAPSHOT_SAMPLE; returns the number read. */
guint         fc_perf_stream_drain  (FcPerfStream   *self,
                                     FcSnapshotSink  sink,
                                     gpointer        sink_data,
                                     guint64        *lost);
/* The same, and context switches to switch_func (with sink_data) in the order they happened. */
guint         fc_perf_stream_drain_full (FcPerfStream    *self,
                                         FcSnapshotSink   sink,
                                         FcPerfSwitchFunc switch_func,
                                         gpointer         sink_data,
                                         guint64         *lost);

/* Starts loading the ring's head, ahead of fc_perf_stream_read_newest() on many streams. */
void          fc_perf_stream_prefetch (FcPerfStream *self);

/* FC_PERF_NEWEST streams: the newest sample and the newest context switch newer than since_ns,
 * found from the newest record back, so the cost does not grow with how many were written.
 * FALSE when nothing was written since the last call. */
gboolean      fc_perf_stream_read_newest (FcPerfStream  *self,
                                          gint64         since_ns,
                                          FcSnapshot   **sample,
                                          FcPerfSwitch  *switch_kind,
                                          gint64        *switch_ns);

G_END_DECLS
