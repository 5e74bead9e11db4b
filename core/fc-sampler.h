/* fc-sampler.h - captures registers and stack bytes of a target's threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  FC_SAMPLER_MODE_WALL,   /* ptrace: every thread every tick, running or not */
  FC_SAMPLER_MODE_CPU,    /* perf events: on-CPU time, the target is never stopped */
} FcSamplerMode;

#define FC_TYPE_SAMPLER_MODE (fc_sampler_mode_get_type ())
GType fc_sampler_mode_get_type (void);

typedef enum {
  FC_SNAPSHOT_SAMPLE,       /* registers + stack bytes of one thread */
  FC_SNAPSHOT_REUSE,        /* the thread has not run since its previous sample: same stack */
  FC_SNAPSHOT_EXEC,         /* the target called execve(): its modules changed */
  FC_SNAPSHOT_TARGET_EXIT,  /* the target is gone; status is a wait status or -1 */
  FC_SNAPSHOT_FLUSH,        /* end of a sampling run; nothing follows until the next start */
} FcSnapshotKind;

#define FC_NSEC_PER_SEC G_GINT64_CONSTANT (1000000000)
#define FC_SNAPSHOT_N_REGS 17  /* libunwind's x86-64 numbering: RAX..R15, RIP */

typedef struct {
  FcSnapshotKind kind;
  int            tid;
  int            status;
  guint32        stack_len;
  gint64         time_ns;      /* CLOCK_MONOTONIC */
  guint64        regs[FC_SNAPSHOT_N_REGS];
  guint64        stack_addr;   /* target address of stack[0], the stack pointer */
  guint8         stack[];
} FcSnapshot;

FcSnapshot *fc_snapshot_new (FcSnapshotKind kind,
                             int            tid,
                             gsize          stack_len);

/* Called on the sampler thread; it takes ownership of the snapshot and must not block. */
typedef void (*FcSnapshotSink) (FcSnapshot *snapshot,
                                gpointer    user_data);

typedef struct {
  guint   n_threads;
  guint64 n_ticks;
  guint64 n_samples;        /* snapshots captured, reused included */
  guint64 n_reused;
  guint64 dropped_ticks;    /* ticks skipped because the sampler fell behind */
  guint64 lost_samples;     /* perf samples lost by the kernel */
  double  median_stop_us;   /* time a thread was held, interrupt to resume (wall mode) */
  double  p99_stop_us;
} FcSamplerStats;

typedef struct _FcSampler FcSampler;

FcSampler *fc_sampler_new            (FcSnapshotSink       sink,
                                      gpointer             sink_data);
void       fc_sampler_free           (FcSampler           *self);
gboolean   fc_sampler_attach         (FcSampler           *self,
                                      GPid                 pid,
                                      FcSamplerMode        mode,
                                      GError             **error);
gboolean   fc_sampler_spawn          (FcSampler           *self,
                                      const char * const  *argv,
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

/* Builds the message for a failed PTRACE_SEIZE/perf_event_open with errno err on pid. */
void       fc_sampler_set_attach_error (GError           **error,
                                        GPid               pid,
                                        int                err,
                                        const char        *what);

/* Measures the bare PTRACE_INTERRUPT + wait + PTRACE_CONT round trip on pid (for the benchmark). */
gboolean   fc_sampler_measure_interrupt (GPid              pid,
                                         guint             n,
                                         double           *median_us,
                                         double           *p99_us,
                                         GError          **error);

G_END_DECLS
