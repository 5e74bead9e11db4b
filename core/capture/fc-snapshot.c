/* fc-snapshot.c - snapshots handed from the sampler to the recorder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A snapshot with a stack copy is 4-64 KiB, made on the sampler thread and freed on the
 * recorder's worker: given back to malloc, the sampler's arena trimmed its heap and grew it
 * again at the next tick, and sysmalloc with its page faults was ~40% of the sampler's CPU
 * with 100 threads waking every 50 ms (perf record of bench-threads). Freed ones wait here for
 * the next, a bounded few.
 *
 * Snapshots without a stack (a thread's last stack again, ~200 bytes) come one per thread and
 * tick: 100,000 a second at 1,000 threads. Freed on the worker into the sampler's arena, they
 * went back to its top chunk, which was trimmed and grown again: sysmalloc was 22% of the
 * sampler's CPU there (perf record of bench-threads, 1,000 light threads). Freed ones wait in a
 * list of their own.
 */

#include <string.h>

#include "fc-snapshot.h"

/* 128 x 32 KiB (the default stack copy): 4 MiB at most kept aside; a hundred threads that wake
 * together hand over a hundred at one tick */
#define POOL_MAX 128
/* smaller ones come from malloc's caches cheaply enough */
#define POOL_MIN_STACK 4096

/* 4,096 x ~200 bytes: four ticks of 1,000 threads */
#define BARE_MAX 4096

static GMutex pool_lock;
static FcSnapshot *bare[BARE_MAX];   /* under pool_lock: stackless ones */
static guint bare_len;
static FcSnapshot *pool[POOL_MAX];   /* under pool_lock */
static guint pool_len;
static guint n_allocated;            /* atomic: big snapshots malloc'ed, for tests */

/* sizes rounded up so that one buffer serves the next sample of about the same depth */
static gsize
capacity_for (gsize stack_len)
{
  gsize capacity = POOL_MIN_STACK;

  if (stack_len < POOL_MIN_STACK)
    return stack_len;
  while (capacity < stack_len)
    capacity *= 2;
  return capacity;
}

static FcSnapshot *
pool_take (gsize capacity)
{
  FcSnapshot *snap = NULL;

  g_mutex_lock (&pool_lock);
  for (guint i = pool_len; i-- > 0;)
    if (pool[i]->stack_capacity == capacity)
      {
        snap = pool[i];
        pool[i] = pool[--pool_len];
        break;
      }
  g_mutex_unlock (&pool_lock);
  return snap;
}

FcSnapshot *
fc_snapshot_new (FcSnapshotKind kind,
                 int            tid,
                 gsize          stack_len)
{
  gsize capacity = capacity_for (stack_len);
  FcSnapshot *snap = NULL;

  if (capacity >= POOL_MIN_STACK)
    snap = pool_take (capacity);
  else if (capacity == 0)
    {
      g_mutex_lock (&pool_lock);
      if (bare_len > 0)
        snap = bare[--bare_len];
      g_mutex_unlock (&pool_lock);
    }

  if (snap == NULL)
    {
      snap = g_malloc (sizeof (FcSnapshot) + capacity);
      if (capacity >= POOL_MIN_STACK)
        g_atomic_int_inc (&n_allocated);
    }
  memset (snap, 0, sizeof *snap);
  snap->kind = kind;
  snap->tid = tid;
  snap->stack_len = stack_len;
  snap->stack_capacity = capacity;
  return snap;
}

/* Frees @snapshot, or keeps its memory for the next one of its size. */
void
fc_snapshot_free (FcSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;
  if (snapshot->stack_capacity >= POOL_MIN_STACK)
    {
      g_mutex_lock (&pool_lock);
      if (pool_len < POOL_MAX)
        {
          pool[pool_len++] = snapshot;
          snapshot = NULL;
        }
      g_mutex_unlock (&pool_lock);
    }
  else if (snapshot->stack_capacity == 0)
    {
      g_mutex_lock (&pool_lock);
      if (bare_len < BARE_MAX)
        {
          bare[bare_len++] = snapshot;
          snapshot = NULL;
        }
      g_mutex_unlock (&pool_lock);
    }
  g_free (snapshot);
}

/* Snapshots with a stack copy of 4 KiB or more taken from malloc so far (not from the freed
 * ones kept): for tests and benchmarks. */
guint
fc_snapshot_get_n_allocated (void)
{
  return g_atomic_int_get (&n_allocated);
}
