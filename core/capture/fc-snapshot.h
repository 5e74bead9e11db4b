/* fc-snapshot.h - what the sampler hands on: one thread's registers and stack bytes, or an event
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  FC_SNAPSHOT_SAMPLE,       /* registers + stack bytes of one thread */
  FC_SNAPSHOT_REUSE,        /* the thread has not run since its previous sample: same stack */
  FC_SNAPSHOT_EXEC,         /* the target called execve(): its modules changed */
  FC_SNAPSHOT_TARGET_EXIT,  /* the target is gone; status is a wait status or -1 */
  FC_SNAPSHOT_PROCESS_EXIT, /* a child process followed is gone (pid); nothing of it follows */
  FC_SNAPSHOT_FLUSH,        /* end of a sampling run; nothing follows until the next start */
} FcSnapshotKind;

#define FC_NSEC_PER_SEC G_GINT64_CONSTANT (1000000000)
#define FC_SNAPSHOT_N_REGS 17  /* libunwind's x86-64 numbering: RAX..R15, RIP */

typedef struct {
  FcSnapshotKind kind;
  int            tid;
  int            pid;          /* tid's process; 0 when unknown (the target itself) */
  int            status;
  guint32        stack_len;
  guint32        stack_capacity; /* bytes allocated for stack[] */
  gint64         time_ns;      /* CLOCK_MONOTONIC */
  guint64        regs[FC_SNAPSHOT_N_REGS];
  guint64        stack_addr;   /* target address of stack[0], the stack pointer */
  gpointer       context;      /* the sink's own, NULL from the sampler */
  guint8         stack[];
} FcSnapshot;

FcSnapshot *fc_snapshot_new  (FcSnapshotKind kind,
                              int            tid,
                              gsize          stack_len);
/* For snapshots made by fc_snapshot_new() only (a copy's stack_capacity does not tell its size):
 * the memory of big ones is kept for the next. */
void        fc_snapshot_free (FcSnapshot    *snapshot);
guint       fc_snapshot_get_n_allocated (void);

/* Called on the sampler thread; it takes ownership of the snapshot and must not block. */
typedef void (*FcSnapshotSink) (FcSnapshot *snapshot,
                                gpointer    user_data);

/* Called on the sampler thread after a batch of snapshots (a tick's, a drain's), before the
 * sampler waits or answers a command: a sink that queues snapshots for another thread can hand
 * a batch over at once, one wake-up of that thread instead of one per snapshot. */
typedef void (*FcSnapshotBatchEnd) (gpointer user_data);

G_END_DECLS
