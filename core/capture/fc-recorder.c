/* fc-recorder.c - records a target into profile chunks: sampler + unwinder + symbolizer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Three threads, data flowing one way:
 *   sampler thread  -> snapshots (registers + stack bytes) -> queue
 *   worker thread   -> unwinds and symbolizes each snapshot -> pending batch
 *   main context    -> appends batches to the live chunk, rotates chunks, emits signals
 * The sampler never waits for the others: the queue is unbounded and the
 * batch is handed over under a short lock.
 *
 * Stopping does not wait for the worker either: stop() ends the sampler's
 * ticks and puts a marker in the queue behind the last snapshot. When the
 * worker's flush for that marker reaches the main context, the chunk in
 * progress is finished there, so the main loop never blocks on unwinding
 * and a start() right after a stop() records into the next chunk.
 */

#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-capture-summary.h"
#include "fc-capture-error.h"
#include "fc-chunk-images.h"
#include "fc-chunk-meta.h"
#include "fc-debuginfod.h"
#include "fc-frame-rename.h"
#include "fc-module-file.h"
#include "fc-proc-maps.h"
#include "fc-procfs.h"
#include "fc-recorder.h"
#include "fc-record-options.h"
#include "fc-release.h"
#include "fc-runtimes.h"
#include "fc-symbolizer.h"
#include "fc-time.h"
#include "fc-unwinder.h"
#include "fc-validate.h"

#define MAX_FRAMES 256
#define DELIVERY_INTERVAL_MS 50

typedef enum {
  ITEM_SAMPLE,
  ITEM_EXIT,
  ITEM_PROCESS_EXIT,  /* a child followed is gone: its chunk is finished, its memory let go */
  ITEM_FLUSH,
  ITEM_RENAME,        /* JIT code named late (a map written at exit): FcSymbol * -> FcSymbol * */
} ItemKind;

/* A thread's stack as unwound and symbolized once: shared by the items of every tick it stands
 * for (a sleeping thread's, most often), never copied. Its reference count is atomic: the worker
 * takes references while the main context lets go of those of the items it appended. */
/* A chunk short of a thread with two samples grows past its length to become one, but not past
 * this: Relay refuses a chunk whose samples span more than 66 s (SDKs cut at 60). Tests shorten it
 * with FC_RECORDER_SPAN_CAP_MS. */
#define CHUNK_SPAN_CAP_NS (60 * G_GINT64_CONSTANT (1000000000))

typedef struct {
  gint             ref_count;   /* atomic */
  guint64          serial;      /* this stack and no other of the recording */
  guint            n;
  guint64         *ips;         /* leaf first; 0 for an interpreter's frame */
  const FcSymbol **symbols;
  gboolean         python;      /* Python frames only */
} Frames;

/* counted with g_atomic_int_*, which compile into this file: ThreadSanitizer sees them order the
 * free after the other thread's reads (GLib's own rc boxes are not instrumented) */
static Frames *
frames_ref (Frames *frames)
{
  g_atomic_int_inc (&frames->ref_count);
  return frames;
}

static void
frames_unref (Frames *frames)
{
  if (!g_atomic_int_dec_and_test (&frames->ref_count))
    return;
  g_free (frames->ips);
  g_free (frames->symbols);
  g_free (frames);
}

/* one unwound, symbolized sample handed from the worker to the main context */
typedef struct {
  ItemKind         kind;
  int              tid;
  int              pid;         /* the thread's process */
  int              status;
  GPtrArray       *ended;       /* ITEM_PROCESS_EXIT: the Process* to let go (not owned) */
  GHashTable      *renamed;     /* ITEM_RENAME */
  int              priority;
  gint64           time_ns;     /* Unix epoch */
  char            *thread_name; /* GRefString */
  Frames          *frames;      /* a reference */
  guint            n_frames;    /* frames' own, for short */
  const guint64   *ips;
  const FcSymbol **symbols;
  gboolean         python;      /* Python frames only: the chunk is platform python */
} Item;

typedef struct {
  int              pid;         /* the thread's process */
  const char      *process_comm; /* its name when first seen, for a process gone before we looked */
  Frames          *frames;      /* the stack recorded: native, spliced or Python; NULL before one */
  char            *name;        /* GRefString */
  int              priority;
  gint64           name_read_us;
  gint64           name_wait_us; /* until the next look: doubles while the name stays */
} ThreadState;

/* what a process's stacks are read with: the target's, and each child's when following them.
 * Kept until the target is released, or until a child followed has exited and its last chunk
 * is out: samples on their way, and the chunk's frames and images, point into it. */
typedef struct {
  int           pid;
  gboolean      ended;        /* its process exited: let go once its samples are appended */
  FcProcMaps   *maps;
  FcUnwinder   *unwinder;
  FcSymbolizer *symbolizer;
  FcRuntimes   *runtimes;     /* CPython and JIT runtimes in it */
  char         *comm;         /* the process's name when it was first seen, or NULL */
} Process;

/* What the sink hands the worker with a sample: the process (following children) and the
 * thread's Python frames, read right after the sample was taken. */
typedef struct {
  Process       *proc;
  FcPythonStack *python;
} SampleContext;

/* Main context: one profile session per process recorded. The target's lives as long as the
 * recorder (its profiler_id too); following children, each other process gets its own, with
 * its own profiler_id and chunks, from its first sample to its exit. */
typedef struct {
  int            pid;
  char          *profiler_id;
  FcProfile     *live;           /* the chunk in progress, or NULL (children, until a sample) */
  GHashTable    *frame_cache[2]; /* FcSymbol* -> frame id + 1 in the live chunk; [1]: at a return address */
  GHashTable    *images;         /* FcModule* seen in the live chunk's stacks */
  gint64         chunk_start_ns;
  gboolean       python;         /* the live chunk holds Python stacks (platform python) */
  GHashTable    *renamed;        /* FcSymbol * -> FcSymbol *: JIT code named after it was sampled */
  guint          batch_first;    /* samples appended since the last samples-added */
  guint          batch_n;
  guint          summary_index;  /* its FcProcessSummary in process_list, + 1; 0: none yet */
  GHashTable    *last_stacks;    /* tid -> LastStack: its latest stack in the live chunk */
  /* Samples past the live chunk's end wait until they make a chunk Relay keeps (a thread with
   * two samples with a stack): then the live chunk is finished and they start the next one. At
   * a stop they join the live chunk, so that no chunk ends up with a lone sample. */
  GQueue         held;           /* Item* */
  GHashTable    *held_per_thread; /* tid -> samples with a stack among them */
} Session;

/* A thread asleep at each tick gives the same Frames again and again: its stack and thread ids
 * in the live chunk are taken from here rather than interned anew. */
typedef struct {
  guint64  serial;
  guint32  stack;
  guint32  thread;
} LastStack;

struct _FcRecorder {
  GObject        parent_instance;

  /* settings */
  guint          frequency;
  FcSamplerMode  mode;
  guint          chunk_duration_ms;
  gint64         span_cap_ns;    /* CHUNK_SPAN_CAP_NS */
  guint          stack_size;
  char          *platform;
  char          *release;
  char          *default_release;  /* of the target's executable, for chunks when release is unset */
  char          *environment;
  gboolean       follow_children;
  FcStacksMode   stacks;
  gboolean       mode_fallback;    /* wall mode was refused and the helper gave cpu mode */

  /* owned */
  GMainContext  *context;
  FcSampler     *sampler;
  GAsyncQueue   *queue;          /* GPtrArray of FcSnapshot* from the sampler (the worker frees
                                  * each), or a marker */
  GPtrArray     *sink_batch;     /* sampler thread only: snapshots not yet queued */
  GThread       *worker;
  GPtrArray     *process_store;  /* Process*, owned; protected by lock */
  GPtrArray     *runtime_lines;  /* char *: the runtimes of processes let go; protected by lock */
  GHashTable    *processes;      /* worker thread only once it runs: pid -> Process */
  GHashTable    *sink_processes; /* under sink_lock: pid -> Process of its current program */
  GMutex         sink_lock;      /* the sink's view of the target (pid, processes, stacks), which the
                                  * sampler thread may call before attach() has returned */
  gboolean       following;      /* the target's children are followed (read at attach) */
  FcStacksMode   stacks_active;  /* read at attach: the sink reads Python frames unless native */
  GHashTable    *thread_states;  /* worker thread only: tid -> ThreadState */
  guint64        frames_serial;  /* worker thread only: Frames made so far */
  gint64         realtime_offset_ns; /* worker thread only; 0: take it at the next sample */

  GMutex         lock;
  GPtrArray     *pending;        /* Item*, protected by lock */
  GSource       *delivery;       /* protected by lock */
  FcUnwindStats  unwind_stats;   /* protected by lock */
  guint64        unwound_untimed; /* worker only: stacks unwound, to time one in UNWIND_TIMED_EVERY */
  GPtrArray     *worker_items;   /* worker only: Item*, for pending at the end of the sampler's batch */

  /* main context */
  GQueue         ready;          /* Item*: taken from pending, appended in order */
  guint          stops_issued;
  guint          stops_flushed;  /* < stops_issued while a stop's flush is on its way */
  gboolean       detaching;
  Session       *target;         /* the target's session */
  GHashTable    *sessions;       /* pid -> Session*, children followed (not the target) */
  GArray        *process_list;   /* FcProcessSummary: every process recorded, for the summary */
  guint          n_samples;
  GHashTable    *threads_seen;   /* tids sampled in this recording */
  GHashTable    *thread_counts;  /* tid -> ThreadCount, this target's */
  GHashTable    *not_python;     /* protected by lock: tid -> samples the worker left out (python
                                  * stacks of a thread that ran no Python) */
  guint64        n_root;         /* this target's samples reaching a root frame */
  guint64        n_unnamed_leaf;
  guint64        n_wait_leaf;
  guint64        n_target_samples;
  gboolean       threads_changed; /* n-threads to notify with the next samples-added */
  GPid           pid;
  gboolean       spawned;
  gboolean       sampling;
  gboolean       exited;
  int            exit_status;
  GSource       *child_watch;
  GSource       *kill_timeout;   /* SIGKILL for a launched command that ignored end_target() */
};

enum {
  PROP_0,
  PROP_FREQUENCY,
  PROP_MODE,
  PROP_CHUNK_DURATION_MS,
  PROP_STACK_SIZE,
  PROP_PLATFORM,
  PROP_RELEASE,
  PROP_ENVIRONMENT,
  PROP_FOLLOW_CHILDREN,
  PROP_STACKS,
  PROP_PROFILER_ID,
  PROP_N_SAMPLES,
  PROP_N_THREADS,
  PROP_DROPPED_TICKS,
  PROP_MEDIAN_STOP_US,
  N_PROPS
};

enum {
  SAMPLES_ADDED,
  PROCESS_SAMPLES_ADDED,
  CHUNK_READY,
  TARGET_EXITED,
  STOPPED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* pushed to the queue to end the worker */
static FcSnapshot quit_marker;
/* pushed to the queue by stop(), behind everything captured before it */
static FcSnapshot stop_marker;

G_DEFINE_FINAL_TYPE (FcRecorder, fc_recorder, G_TYPE_OBJECT)

static void
item_free (Item *item)
{
  g_clear_pointer (&item->ended, g_ptr_array_unref);
  g_clear_pointer (&item->renamed, g_hash_table_unref);
  if (item->thread_name)
    g_ref_string_release (item->thread_name);
  g_clear_pointer (&item->frames, frames_unref);
  g_free (item);
}

typedef struct {
  guint64  n_samples;
  char    *name;        /* GRefString */
} ThreadCount;

static void
thread_count_free (ThreadCount *tc)
{
  if (tc->name)
    g_ref_string_release (tc->name);
  g_free (tc);
}

static Process *
process_new (FcRecorder *self,
             GPid        pid)
{
  Process *proc = g_new0 (Process, 1);
  g_autoptr(GError) error = NULL;

  proc->pid = pid;
  if ((proc->comm = fc_access_read_proc (pid, 0, "comm", NULL)) != NULL)
    g_strchomp (proc->comm);
  proc->maps = fc_proc_maps_new (pid);
  /* modules known before the first stack; a process that has exited already tells by its samples */
  if (!fc_proc_maps_reload (proc->maps, &error))
    g_debug ("%s", error->message);
  proc->unwinder = fc_unwinder_new (proc->maps);
  proc->symbolizer = fc_symbolizer_new (proc->maps);
  proc->runtimes = fc_runtimes_new (proc->maps);
  /* nobody else holds it yet: a static python is found before the first sample */
  fc_runtimes_update (proc->runtimes);
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->process_store, proc);
  g_mutex_unlock (&self->lock);
  return proc;
}

static void
process_free (Process *proc)
{
  fc_runtimes_free (proc->runtimes);
  fc_unwinder_free (proc->unwinder);
  fc_symbolizer_free (proc->symbolizer);
  fc_proc_maps_unref (proc->maps);
  g_free (proc->comm);
  g_free (proc);
}

/* "process 12 (python3): CPython 3.11.2: ...": for the summary; NULL when it ran no runtime */
static char *
runtime_line (Process *proc)
{
  g_autofree char *hint = NULL;
  g_autofree char *text = fc_runtimes_dup_description (proc->runtimes, &hint);

  if (text == NULL)
    return NULL;
  return g_strdup_printf ("process %d%s%s%s: %s%s%s", proc->pid, proc->comm ? " (" : "", proc->comm ? proc->comm : "",
                          proc->comm ? ")" : "", text, hint ? "; hint: " : "", hint ? hint : "");
}

/* Under lock: the summary keeps what a process ran after it is let go. */
static void
remember_runtime (FcRecorder *self,
                  Process    *proc)
{
  char *line = runtime_line (proc);

  if (line != NULL)
    g_ptr_array_add (self->runtime_lines, line);
}

/* The worker's: the process a snapshot was taken in. Following children, the
 * sink found it when the snapshot was taken; else it is the target. */
static Process *
get_process (FcRecorder       *self,
             const FcSnapshot *snap)
{
  int pid = snap != NULL && snap->pid > 0 ? snap->pid : self->pid;
  Process *proc;

  if (snap != NULL && snap->context != NULL && ((SampleContext *) snap->context)->proc != NULL)
    return ((SampleContext *) snap->context)->proc;
  proc = g_hash_table_lookup (self->processes, GINT_TO_POINTER (pid));
  if (proc == NULL)
    {
      proc = process_new (self, pid);
      g_hash_table_insert (self->processes, GINT_TO_POINTER (pid), proc);
    }
  return proc;
}

static void
thread_state_free (ThreadState *ts)
{
  if (ts->name)
    g_ref_string_release (ts->name);
  g_clear_pointer (&ts->frames, frames_unref);
  g_free (ts);
}

/* A snapshot and what the sink attached to it. */
static void
snapshot_free (FcSnapshot *snap)
{
  if ((snap->kind == FC_SNAPSHOT_SAMPLE || snap->kind == FC_SNAPSHOT_REUSE) && snap->context != NULL)
    {
      SampleContext *ctx = snap->context;
      g_free (ctx->python);
      g_free (ctx);
    }
  fc_snapshot_free (snap);
}

/* ---- worker thread ---- */

static void
refresh_thread_info (FcRecorder  *self,
                     ThreadState *ts,
                     int          tid)
{
  int pid = ts->pid;
  g_autofree char *comm = NULL;
  g_autofree char *stat_text = NULL;
  FcProcStat stat;
  gint64 now = g_get_monotonic_time ();

  /* Threads often name themselves just after they start: look again half a second later, then
   * less and less often while the name stays (two /proc reads a look: every half second for each
   * of 1,000 threads was 4,000 reads a second of the worker's time) */
  if (ts->name != NULL && now - ts->name_read_us < ts->name_wait_us)
    return;
  ts->name_read_us = now;
  ts->name_wait_us = ts->name_wait_us == 0 ? G_USEC_PER_SEC / 2 : MIN (ts->name_wait_us * 2, 8 * G_USEC_PER_SEC);

  /* sandboxed, the host's thread is read through the helper */
  if ((comm = fc_access_read_proc (pid, tid, "comm", NULL)) != NULL ||
      (ts->name == NULL && (comm = g_strdup (ts->process_comm)) != NULL))
    {
      g_strchomp (comm);
      /* processes of one recording often share a name (sh, cc1): the pid tells them apart */
      if (self->following)
        {
          char *named = g_strdup_printf ("%s (%d)", comm, pid);
          g_free (comm);
          comm = named;
        }
      if (ts->name == NULL || strcmp (ts->name, comm) != 0)
        {
          if (ts->name)
            {
              g_ref_string_release (ts->name);
              ts->name_wait_us = G_USEC_PER_SEC / 2;   /* renamed: it may be again soon */
            }
          ts->name = g_ref_string_new (comm);
        }
    }
  stat_text = fc_access_read_proc (pid, tid, "stat", NULL);
  if (fc_procfs_parse_stat (stat_text, &stat))
    ts->priority = (int) stat.priority;
}

static void
push_item (FcRecorder *self,
           Item       *item);
static void flush_worker_items (FcRecorder *self);

#define UNWIND_TIMED_EVERY 8

/* the worker's own CPU time: its share of the work, whatever else runs on the machine */
static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * FC_NSEC_PER_SEC + ts.tv_nsec;
}

static void
worker_sample (FcRecorder       *self,
               const FcSnapshot *snap)
{
  ThreadState *ts = g_hash_table_lookup (self->thread_states, GINT_TO_POINTER (snap->tid));
  Process *proc = get_process (self, snap);
  Item *item;

  if (ts == NULL)
    {
      ts = g_new0 (ThreadState, 1);
      ts->pid = snap->pid > 0 ? snap->pid : self->pid;
      ts->priority = -1;
      ts->process_comm = proc->comm;
      g_hash_table_insert (self->thread_states, GINT_TO_POINTER (snap->tid), ts);
    }
  refresh_thread_info (self, ts, snap->tid);

  if (snap->kind == FC_SNAPSHOT_SAMPLE)
    {
      guint64 ips[MAX_FRAMES], out_ips[MAX_FRAMES];
      const FcSymbol *symbols[MAX_FRAMES], *out_symbols[MAX_FRAMES];
      SampleContext *ctx = snap->context;
      gboolean complete = FALSE;
      /* The thread's CPU clock is a system call (no vDSO): three a stack were a tenth of the
       * worker's time at 100 threads (perf record). Every UNWIND_TIMED_EVERY-th stack is timed
       * and stands for that many; the recorder's first (its modules read then) only for itself. */
      guint64 index = self->unwound_untimed++;
      guint weight = index == 0 ? 1 : UNWIND_TIMED_EVERY;
      gboolean timed = index % UNWIND_TIMED_EVERY == 0;
      gint64 t0 = timed ? thread_cpu_ns () : 0, t1 = 0, t2 = 0;
      FcStacksMode mode;
      guint n;

      gboolean same;

      n = fc_unwinder_unwind (proc->unwinder, snap, ips, MAX_FRAMES, &complete);
      if (timed)
        t1 = thread_cpu_ns ();
      /* A thread that sleeps where it slept before (a pool worker, an event loop: most of the
       * stacks switch-out samples give) has the frames it had: it keeps them, symbols and
       * serial, as if its stack had been reused. Symbolizing them again was a third of the
       * worker's time per stack at 100 light threads (bench-threads). */
      same = ts->frames != NULL && !ts->frames->python && ts->frames->n == n &&
             memcmp (ts->frames->ips, ips, n * sizeof (guint64)) == 0;
      for (guint i = 0; i < n && !same; i++)
        symbols[i] = fc_symbolizer_lookup (proc->symbolizer, ips[i], i > 0);
      /* Python frames into the native stack, or in its place */
      fc_runtimes_update (proc->runtimes);
      fc_runtimes_note_jit (proc->runtimes, proc->symbolizer, FALSE);
      mode = fc_runtimes_resolve_mode (proc->runtimes, self->stacks_active);
      if (same && fc_runtimes_splices (proc->runtimes, mode))
        {
          same = FALSE;
          for (guint i = 0; i < n; i++)
            symbols[i] = fc_symbolizer_lookup (proc->symbolizer, ips[i], i > 0);
        }
      if (!same)
        {
          n = fc_runtimes_splice (proc->runtimes, mode, ctx != NULL ? ctx->python : NULL, ips, symbols, n,
                                  out_ips, out_symbols, MAX_FRAMES);
          g_clear_pointer (&ts->frames, frames_unref);
          ts->frames = g_new0 (Frames, 1);
          ts->frames->ref_count = 1;
          ts->frames->serial = ++self->frames_serial;
          ts->frames->n = n;
          ts->frames->python = mode == FC_STACKS_PYTHON;
          ts->frames->ips = g_memdup2 (out_ips, n * sizeof (guint64));
          ts->frames->symbols = g_memdup2 (out_symbols, MAX (n, 1) * sizeof (const FcSymbol *));
        }
      if (timed)
        t2 = thread_cpu_ns ();

      g_mutex_lock (&self->lock);
      self->unwind_stats.n_unwound++;
      self->unwind_stats.n_complete += complete ? 1 : 0;
      self->unwind_stats.unwind_ns += (t1 - t0) * weight;
      self->unwind_stats.symbolize_ns += (t2 - t1) * weight;
      g_mutex_unlock (&self->lock);
    }
  else if (ts->frames == NULL)
    return;  /* nothing to reuse yet */
  /* python stacks: a thread that ran no Python is not in the profile, as for the Python SDK;
   * the summary counts the sample as left out, not as lost */
  if (ts->frames->python && ts->frames->n == 0)
    {
      gpointer key = GINT_TO_POINTER (snap->tid);

      g_mutex_lock (&self->lock);
      g_hash_table_insert (self->not_python, key,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (self->not_python, key)) + 1));
      g_mutex_unlock (&self->lock);
      return;
    }

  /* once per sampling run, so the clock may be set between runs but samples of one run stay in order */
  if (self->realtime_offset_ns == 0)
    self->realtime_offset_ns = g_get_real_time () * 1000 - g_get_monotonic_time () * 1000;

  item = g_new0 (Item, 1);
  item->kind = ITEM_SAMPLE;
  item->tid = snap->tid;
  item->pid = ts->pid;
  item->time_ns = snap->time_ns + self->realtime_offset_ns;
  item->thread_name = ts->name ? g_ref_string_acquire (ts->name) : NULL;
  item->priority = ts->priority;
  item->frames = frames_ref (ts->frames);
  item->n_frames = ts->frames->n;
  item->ips = ts->frames->ips;
  item->symbols = ts->frames->symbols;
  item->python = ts->frames->python;
  push_item (self, item);
}

/* JIT maps read once more (Java writes its map at exit, jcmd Compiler.perfmap any time): the
 * JIT code sampled before it had a name gets it in the chunks finished from here on. */
static void
push_renames (FcRecorder *self,
              Process    *proc)
{
  GHashTable *renamed = fc_symbolizer_rename_jit (proc->symbolizer);
  Item *item;

  fc_runtimes_note_jit (proc->runtimes, proc->symbolizer, TRUE);
  if (g_hash_table_size (renamed) == 0)
    {
      g_hash_table_unref (renamed);
      return;
    }
  item = g_new0 (Item, 1);
  item->kind = ITEM_RENAME;
  item->pid = proc->pid;
  item->renamed = renamed;
  push_item (self, item);
}

/* The next snapshot from the sampler, or a marker: the sampler hands them over a batch at a time */
static FcSnapshot *
worker_pop (FcRecorder  *self,
            GPtrArray  **batch,
            guint       *next)
{
  gpointer popped;

  if (*batch != NULL && *next < (*batch)->len)
    return g_ptr_array_index (*batch, (*next)++);
  g_clear_pointer (batch, g_ptr_array_unref);
  flush_worker_items (self);
  popped = g_async_queue_pop (self->queue);
  if (popped == &quit_marker || popped == &stop_marker)
    return popped;
  *batch = popped;
  *next = 1;
  return g_ptr_array_index (*batch, 0);
}

static gpointer
worker_thread (gpointer data)
{
  FcRecorder *self = data;
  g_autoptr(GPtrArray) batch = NULL;
  guint next = 0;

  for (;;)
    {
      FcSnapshot *snap = worker_pop (self, &batch, &next);
      Item *item;

      if (snap == &quit_marker)
        break;
      if (snap == &stop_marker)
        {
          /* everything captured before the stop is in pending, ahead of this */
          GHashTableIter iter;
          Process *proc;

          g_hash_table_iter_init (&iter, self->processes);
          while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &proc))
            push_renames (self, proc);
          self->realtime_offset_ns = 0;
          item = g_new0 (Item, 1);
          item->kind = ITEM_FLUSH;
          push_item (self, item);
          continue;
        }

      switch (snap->kind)
        {
        case FC_SNAPSHOT_SAMPLE:
        case FC_SNAPSHOT_REUSE:
          worker_sample (self, snap);
          break;
        case FC_SNAPSHOT_EXEC:
          {
            /* a new program: new modules, stale unwind rules and stale per-thread stacks (following
             * children, the sink gives the samples after it a new Process instead) */
            int pid = snap->pid > 0 ? snap->pid : self->pid;
            GHashTableIter iter;
            ThreadState *ts;

            if (!self->following)
              {
                Process *proc = get_process (self, snap);
                fc_proc_maps_forget (proc->maps);
                fc_proc_maps_reload (proc->maps, NULL);
                fc_unwinder_flush (proc->unwinder);
                fc_symbolizer_forget (proc->symbolizer);
                fc_runtimes_worker_exec (proc->runtimes);
              }
            g_hash_table_iter_init (&iter, self->thread_states);
            while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &ts))
              if (ts->pid == pid)
                g_hash_table_iter_remove (&iter);
          }
          break;
        case FC_SNAPSHOT_TARGET_EXIT:
          push_renames (self, get_process (self, NULL));
          item = g_new0 (Item, 1);
          item->kind = ITEM_EXIT;
          item->status = snap->status;
          push_item (self, item);
          break;
        case FC_SNAPSHOT_PROCESS_EXIT:
          {
            GHashTableIter iter;
            ThreadState *ts;

            /* its threads' last stacks point into its symbolizer: they go first */
            g_hash_table_iter_init (&iter, self->thread_states);
            while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &ts))
              if (ts->pid == snap->pid)
                g_hash_table_iter_remove (&iter);
            for (guint i = 0; snap->context != NULL && i < ((GPtrArray *) snap->context)->len; i++)
              push_renames (self, g_ptr_array_index ((GPtrArray *) snap->context, i));
            g_hash_table_remove (self->processes, GINT_TO_POINTER (snap->pid));
            item = g_new0 (Item, 1);
            item->kind = ITEM_PROCESS_EXIT;
            item->pid = snap->pid;
            item->status = snap->status;
            item->ended = g_steal_pointer (&snap->context);
            push_item (self, item);
          }
          break;
        case FC_SNAPSHOT_FLUSH:
          /* the sampler's own end-of-run mark; stop_marker is the one the recorder counts */
          break;
        default:
          break;
        }
      snapshot_free (snap);
    }
  return NULL;
}

static void
batch_end_cb (gpointer user_data)
{
  FcRecorder *self = user_data;

  if (self->sink_batch->len == 0)
    return;
  g_async_queue_push (self->queue, g_steal_pointer (&self->sink_batch));
  self->sink_batch = g_ptr_array_new ();
}

static void
sink_cb (FcSnapshot *snapshot,
         gpointer    user_data)
{
  FcRecorder *self = user_data;
  Process *sampled = NULL;

  g_mutex_lock (&self->sink_lock);
  /* Following children: a process is known from its first sample on, here on the sampler
   * thread, while it surely exists; the worker may reach its samples after it has exited. */
  if (self->following && snapshot->pid > 0)
    {
      gpointer key = GINT_TO_POINTER (snapshot->pid);

      if (snapshot->kind == FC_SNAPSHOT_EXEC || snapshot->kind == FC_SNAPSHOT_PROCESS_EXIT)
        g_hash_table_remove (self->sink_processes, key);
      if (snapshot->kind == FC_SNAPSHOT_PROCESS_EXIT)
        {
          /* exactly the Processes of this process's life (its programs before and after exec):
           * a later process given the same pid gets its own, which must not go with these */
          GPtrArray *ended = g_ptr_array_new ();

          g_mutex_lock (&self->lock);
          for (guint i = 0; i < self->process_store->len; i++)
            {
              Process *proc = g_ptr_array_index (self->process_store, i);
              if (proc->pid == snapshot->pid && !proc->ended)
                {
                  proc->ended = TRUE;
                  g_ptr_array_add (ended, proc);
                }
            }
          g_mutex_unlock (&self->lock);
          snapshot->context = ended;
        }
      else if (snapshot->kind == FC_SNAPSHOT_SAMPLE || snapshot->kind == FC_SNAPSHOT_REUSE)
        {
          Process *proc = g_hash_table_lookup (self->sink_processes, key);
          if (proc == NULL)
            {
              proc = process_new (self, snapshot->pid);
              g_hash_table_insert (self->sink_processes, key, proc);
            }
          sampled = proc;
        }
    }
  else if (snapshot->kind == FC_SNAPSHOT_SAMPLE || snapshot->kind == FC_SNAPSHOT_EXEC)
    {
      Process *proc = g_hash_table_lookup (self->sink_processes, GINT_TO_POINTER (self->pid));

      /* the same Process goes on after an exec: what it knew of the interpreter does not */
      if (proc != NULL && snapshot->kind == FC_SNAPSHOT_EXEC)
        fc_runtimes_sink_exec (proc->runtimes);
      else if (proc != NULL)
        sampled = proc;
    }
  if (snapshot->kind == FC_SNAPSHOT_SAMPLE || (snapshot->kind == FC_SNAPSHOT_REUSE && self->following))
    {
      /* an interpreter's frames change with every call: read them now, next to the sample */
      FcPythonStack *python = NULL;

      if (snapshot->kind == FC_SNAPSHOT_SAMPLE && sampled != NULL && self->stacks_active != FC_STACKS_NATIVE)
        python = fc_runtimes_read_python (sampled->runtimes, snapshot->tid);
      if (python != NULL || self->following)
        {
          SampleContext *ctx = g_new0 (SampleContext, 1);

          ctx->proc = self->following ? sampled : NULL;
          ctx->python = python;
          snapshot->context = ctx;
        }
    }
  /* samples wait for the end of their tick (batch_end_cb): one wake-up of the worker a tick, not
   * one a thread */
  g_ptr_array_add (self->sink_batch, snapshot);
  if (snapshot->kind != FC_SNAPSHOT_SAMPLE && snapshot->kind != FC_SNAPSHOT_REUSE)
    batch_end_cb (self);
  g_mutex_unlock (&self->sink_lock);
}

/* ---- main context ---- */

static void flush_pending (FcRecorder *self);

static gboolean
delivery_cb (gpointer user_data)
{
  FcRecorder *self = user_data;

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->delivery, g_source_unref);
  g_mutex_unlock (&self->lock);
  flush_pending (self);
  return G_SOURCE_REMOVE;
}

/* The worker's items go to pending a batch at a time: one lock and one look at the delivery for
 * a tick of 1,000 threads, not one each */
static void
flush_worker_items (FcRecorder *self)
{
  gboolean urgent = FALSE;

  if (self->worker_items->len == 0)
    return;
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->worker_items->len; i++)
    {
      Item *item = g_ptr_array_index (self->worker_items, i);

      g_ptr_array_add (self->pending, item);
      urgent |= item->kind != ITEM_SAMPLE;
    }
  if (self->delivery == NULL)
    {
      /* one delivery per interval however many samples arrive: at most 50 ms late */
      self->delivery = g_timeout_source_new (urgent ? 0 : DELIVERY_INTERVAL_MS);
      g_source_set_static_name (self->delivery, "[flamecast] recorder delivery");
      g_source_set_callback (self->delivery, delivery_cb, self, NULL);
      g_source_attach (self->delivery, self->context);
    }
  else if (urgent)
    {
      /* the end of a run or of the target: no reason to hold the batch back */
      g_source_set_ready_time (self->delivery, 0);
    }
  g_mutex_unlock (&self->lock);
  g_ptr_array_set_size (self->worker_items, 0);
}

static void
push_item (FcRecorder *self,
           Item       *item)
{
  g_ptr_array_add (self->worker_items, item);
  if (item->kind != ITEM_SAMPLE)
    flush_worker_items (self);
}

static Session *
session_new (int         pid,
             const char *profiler_id)
{
  Session *session = g_new0 (Session, 1);

  session->pid = pid;
  session->profiler_id = g_strdup (profiler_id);
  session->frame_cache[0] = g_hash_table_new (NULL, NULL);
  session->frame_cache[1] = g_hash_table_new (NULL, NULL);
  session->images = g_hash_table_new (NULL, NULL);
  session->renamed = g_hash_table_new (NULL, NULL);
  session->last_stacks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  session->held_per_thread = g_hash_table_new (NULL, NULL);
  return session;
}

static void
session_free (Session *session)
{
  g_clear_object (&session->live);
  g_hash_table_unref (session->frame_cache[0]);
  g_hash_table_unref (session->frame_cache[1]);
  g_hash_table_unref (session->images);
  g_hash_table_unref (session->renamed);
  g_hash_table_unref (session->last_stacks);
  g_queue_clear_full (&session->held, (GDestroyNotify) item_free);
  g_hash_table_unref (session->held_per_thread);
  g_free (session->profiler_id);
  g_free (session);
}

static void
new_live_profile (FcRecorder *self,
                  Session    *session)
{
  g_autofree char *chunk_id = fc_uuid_hex_new ();
  FcProfile *live;

  g_clear_object (&session->live);
  live = session->live = fc_profile_new (FC_FORMAT_V2);
  fc_profile_set_meta_string (live, "version", "2");
  fc_profile_set_meta_string (live, "profiler_id", session->profiler_id);
  fc_profile_set_meta_string (live, "chunk_id", chunk_id);
  fc_profile_set_meta_string (live, "platform", self->platform);
  /* children's chunks carry the target's release and environment: one deployment */
  fc_profile_set_meta_string (live, "release",
                              self->release != NULL && *self->release != '\0' ? self->release : self->default_release);
  fc_profile_set_meta_string (live, "environment", self->environment);
  fc_profile_take_client_sdk (live, fc_client_sdk_new ("flamecast", FC_VERSION));
  g_hash_table_remove_all (session->frame_cache[0]);
  g_hash_table_remove_all (session->frame_cache[1]);
  g_hash_table_remove_all (session->images);
  g_hash_table_remove_all (session->last_stacks);
  session->chunk_start_ns = 0;
  session->batch_n = 0;
  session->python = FALSE;
}

static FcProcessSummary *
session_summary (FcRecorder *self,
                 Session    *session)
{
  if (session->summary_index == 0 || session->summary_index > self->process_list->len)
    return NULL;
  return &g_array_index (self->process_list, FcProcessSummary, session->summary_index - 1);
}

/* The live chunk with its JIT frames named late: the chunk written and sent. */
static FcProfile *
renamed_copy (Session *session)
{
  g_autoptr(GHashTable) frames = g_hash_table_new (NULL, NULL);
  FcProfile *copy;
  GHashTableIter iter;
  gpointer key, value;

  for (guint k = 0; k < 2; k++)
    {
      g_hash_table_iter_init (&iter, session->frame_cache[k]);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const FcSymbol *now = g_hash_table_lookup (session->renamed, key);
          if (now != NULL)
            g_hash_table_insert (frames, GUINT_TO_POINTER (GPOINTER_TO_UINT (value) - 1), (gpointer) now);
        }
    }
  copy = fc_frame_rename_copy (session->live, frames);
  fc_profile_finish (copy);
  return copy;
}

static void
finish_chunk (FcRecorder *self,
              Session    *session)
{
  g_autoptr(FcProfile) chunk = NULL;
  FcProcessSummary *p;

  if (session->live == NULL || fc_profile_get_n_samples (session->live) == 0)
    return;
  p = session_summary (self, session);
  /* A child that lived for a tick or two: Sentry would refuse its chunk, and many such
   * children would each cost a file and a warning. The summary counts what was left out;
   * the whole recording (keep-profile) still has it. The target's chunks are never dropped. */
  if (session != self->target && !fc_validate_keeps_a_thread (session->live))
    {
      if (p != NULL)
        p->n_short += fc_profile_get_n_samples (session->live);
      new_live_profile (self, session);
      return;
    }
  fc_chunk_images_set (session->live, session->images);
  fc_profile_finish (session->live);
  chunk = g_hash_table_size (session->renamed) > 0 ? renamed_copy (session) : g_object_ref (session->live);
  new_live_profile (self, session);
  if (p != NULL)
    p->n_chunks++;
  g_signal_emit (self, signals[CHUNK_READY], 0, chunk);
}

static guint32
intern_frame (Session        *session,
              guint64         addr,
              const FcSymbol *sym,
              gboolean        is_return)
{
  /* a symbol stands for one lookup address, so (symbol, leaf or return) fixes instruction_addr */
  GHashTable *cache = session->frame_cache[is_return ? 1 : 0];
  FcProfile *live = session->live;
  gpointer key = (gpointer) sym;
  gpointer value = g_hash_table_lookup (cache, key);
  FcFrame frame;
  guint32 id;

  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  fc_frame_init (&frame);
  frame.function = fc_profile_intern (live, sym->function);
  if (sym->module != NULL)
    {
      frame.module = fc_profile_intern (live, sym->module->path);
      frame.package = frame.module;
      g_hash_table_add (session->images, (gpointer) sym->module);
    }
  if (sym->platform != NULL)
    {
      /* an interpreter's frame: its module and platform as its SDK sends them, no address */
      frame.platform = fc_profile_intern (live, sym->platform);
      if (sym->module_name != NULL)
        frame.module = fc_profile_intern (live, sym->module_name);
    }
  if (sym->abs_path != NULL)
    {
      frame.abs_path = fc_profile_intern (live, sym->abs_path);
      frame.filename = fc_profile_intern (live, sym->filename);
    }
  frame.lineno = sym->lineno > 0 ? sym->lineno : FC_LINE_NONE;
  frame.in_app = sym->in_app ? FC_IN_APP_YES : FC_IN_APP_NO;
  frame.has_instruction_addr = sym->platform == NULL;
  frame.instruction_addr = sym->platform == NULL ? addr : 0;
  id = fc_profile_intern_frame (live, &frame);
  g_hash_table_insert (cache, key, GUINT_TO_POINTER (id + 1));
  return id;
}

/* what the summary tells: does the stack reach the program's or the thread's start, is its
 * leaf named, is it waiting for a child */
static void
count_for_summary (FcRecorder *self,
                   Item       *item)
{
  ThreadCount *tc = g_hash_table_lookup (self->thread_counts, GINT_TO_POINTER (item->tid));

  if (tc == NULL)
    {
      tc = g_new0 (ThreadCount, 1);
      g_hash_table_insert (self->thread_counts, GINT_TO_POINTER (item->tid), tc);
    }
  tc->n_samples++;
  if (item->thread_name != NULL && tc->name != item->thread_name)
    {
      if (tc->name)
        g_ref_string_release (tc->name);
      tc->name = g_ref_string_acquire (item->thread_name);
    }
  self->n_target_samples++;
  if (item->n_frames == 0)
    {
      self->n_unnamed_leaf++;
      return;
    }
  {
    const FcSymbol *leaf = item->symbols[0];

    /* the outermost frames: a stripped program's _start may have no name, but
     * __libc_start_main or start_thread just above it does */
    for (guint i = item->n_frames, seen = 0; i-- > 0 && seen < 4;)
      {
        const FcSymbol *sym = item->symbols[i];
        gboolean root = FALSE;
        for (; sym != NULL && !root; sym = sym->caller)
          root = fc_capture_is_root_function (sym->function);
        if (root)
          {
            self->n_root++;
            break;
          }
        seen++;
      }
    if (leaf == NULL || leaf->unnamed)
      self->n_unnamed_leaf++;
    /* inlined frames first: the real function is the last of the chain */
    for (const FcSymbol *sym = leaf; sym != NULL; sym = sym->caller)
      if (fc_capture_is_wait_function (sym->function))
        {
          self->n_wait_leaf++;
          break;
        }
  }
}

/* The session of the process @item was taken in: the target's, or (following children) one of
 * its own, made at its first sample. */
static Session *
session_for_item (FcRecorder *self,
                  Item       *item)
{
  Session *session;
  FcProcessSummary p = { 0 };

  if (!self->following || item->pid <= 0 || item->pid == self->pid)
    session = self->target;
  else if ((session = g_hash_table_lookup (self->sessions, GINT_TO_POINTER (item->pid))) == NULL)
    {
      g_autofree char *profiler_id = fc_uuid_hex_new ();

      session = session_new (item->pid, profiler_id);
      g_hash_table_insert (self->sessions, GINT_TO_POINTER (item->pid), session);
    }
  if (session->summary_index == 0)
    {
      p.pid = session->pid;
      p.profiler_id = g_strdup (session->profiler_id);
      g_array_append_val (self->process_list, p);
      session->summary_index = self->process_list->len;
    }
  return session;
}

static void
append_item (FcRecorder *self,
             Session    *session,
             Item       *item)
{
  guint32 frames[MAX_FRAMES * 2];
  guint32 thread, stack;
  guint n = 0;
  char tid[16];
  FcThread *t;
  LastStack *last;
  FcProfile *live = session->live;
  FcProcessSummary *p = session_summary (self, session);

  if (session->chunk_start_ns == 0)
    session->chunk_start_ns = item->time_ns;

  last = g_hash_table_lookup (session->last_stacks, GINT_TO_POINTER (item->tid));
  if (last != NULL && last->serial == item->frames->serial)
    {
      stack = last->stack;
      thread = last->thread;
    }
  else
    {
      /* one frame per function at each address, inlined ones included, innermost first */
      for (guint i = 0; i < item->n_frames; i++)
        for (const FcSymbol *sym = item->symbols[i]; sym != NULL && n < G_N_ELEMENTS (frames); sym = sym->caller)
          frames[n++] = intern_frame (session, item->ips[i], sym, i > 0);
      stack = fc_profile_intern_stack_frames (live, frames, n);
      g_snprintf (tid, sizeof tid, "%d", item->tid);
      thread = fc_profile_ensure_thread (live, tid);
      if (last == NULL)
        {
          last = g_new (LastStack, 1);
          g_hash_table_insert (session->last_stacks, GINT_TO_POINTER (item->tid), last);
        }
      last->serial = item->frames->serial;
      last->stack = stack;
      last->thread = thread;
    }
  t = fc_profile_get_thread_mut (live, thread);
  t->has_metadata = TRUE;
  if (item->priority >= 0)
    t->priority = item->priority;
  if (item->thread_name != NULL)
    fc_profile_set_thread_name (live, thread, item->thread_name);
  fc_profile_append_sample (live, item->time_ns, thread, stack, FC_STRING_NONE);
  self->n_samples++;
  if (p != NULL)
    {
      p->n_samples++;
      /* the process is named as its main thread */
      if (item->thread_name != NULL && (p->name == NULL || item->tid == item->pid) &&
          g_strcmp0 (p->name, item->thread_name) != 0)
        {
          g_free (p->name);
          p->name = g_strdup (item->thread_name);
        }
    }
  count_for_summary (self, item);
  if (g_hash_table_add (self->threads_seen, GINT_TO_POINTER (item->tid)))
    self->threads_changed = TRUE;
}

/* For every session with samples appended since the last call: published, and told. */
static void
emit_samples_added (FcRecorder *self)
{
  g_autoptr(GPtrArray) batches = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) ranges = g_array_new (FALSE, FALSE, sizeof (guint) * 2);
  g_autoptr(GList) sessions = g_hash_table_get_values (self->sessions);
  gboolean target = FALSE;
  guint target_range[2] = { 0, 0 };

  /* collected first: handlers may run a nested loop that appends more or ends sessions */
  sessions = g_list_prepend (sessions, self->target);
  for (GList *l = sessions; l != NULL; l = l->next)
    {
      Session *session = l->data;

      if (session->batch_n == 0 || session->live == NULL)
        continue;
      {
        guint range[2] = { session->batch_first, session->batch_n };

        /* live views read the chunk on workers: they see the batch from here on */
        fc_profile_publish (session->live);
        g_ptr_array_add (batches, g_object_ref (session->live));
        g_array_append_vals (ranges, range, 1);
        if (session == self->target)
          {
            target = TRUE;
            target_range[0] = range[0];
            target_range[1] = range[1];
          }
        session->batch_n = 0;
      }
    }
  if (batches->len == 0)
    return;
  /* notified here, not per sample, so that no handler runs between a sample and its signal */
  if (self->threads_changed)
    {
      self->threads_changed = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_THREADS]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SAMPLES]);
  if (target)
    g_signal_emit (self, signals[SAMPLES_ADDED], 0, target_range[0], target_range[1]);
  for (guint i = 0; i < batches->len; i++)
    {
      const guint *range = &g_array_index (ranges, guint, i * 2);
      g_signal_emit (self, signals[PROCESS_SAMPLES_ADDED], 0, g_ptr_array_index (batches, i), range[0], range[1]);
    }
}

static void
append_sample (FcRecorder *self,
               Session    *session,
               Item       *item)
{
  if (fc_profile_get_n_samples (session->live) == 0 && item->python != session->python)
    {
      session->python = item->python;
      fc_profile_set_meta_string (session->live, "platform", item->python ? "python" : self->platform);
    }
  if (session->batch_n == 0)
    session->batch_first = fc_profile_get_n_samples (session->live);
  append_item (self, session, item);
  session->batch_n++;
}

/* Holds @item past the live chunk's end; TRUE once the held samples make a chunk Relay keeps. */
static gboolean
hold_item (Session *session,
           Item    *item)
{
  gpointer tid = GINT_TO_POINTER (item->tid);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (session->held_per_thread, tid));

  g_queue_push_tail (&session->held, item);
  if (item->n_frames == 0)
    return FALSE;
  g_hash_table_insert (session->held_per_thread, tid, GUINT_TO_POINTER (n + 1));
  return n + 1 >= 2;
}

/* The held samples into a chunk of their own (@own_chunk: the live one is finished first), or
 * into the live one. */
static void
release_held (FcRecorder *self,
              Session    *session,
              gboolean    own_chunk)
{
  Item *item;

  if (session->held.length == 0)
    return;
  /* into the live chunk only while that keeps it within Relay's span */
  if (session->chunk_start_ns != 0 &&
      ((Item *) g_queue_peek_tail (&session->held))->time_ns - session->chunk_start_ns >= self->span_cap_ns)
    own_chunk = TRUE;
  if (own_chunk)
    {
      emit_samples_added (self);
      finish_chunk (self, session);
    }
  while ((item = g_queue_pop_head (&session->held)) != NULL)
    {
      append_sample (self, session, item);
      item_free (item);
    }
  g_hash_table_remove_all (session->held_per_thread);
}

/* A child followed has exited and all of it was appended: its last chunk goes out, then what
 * read its stacks (maps, unwinder, symbolizer) is let go, not kept until the recording ends. */
static void
end_session (FcRecorder *self,
             int         pid,
             GPtrArray  *ended)
{
  Session *session = g_hash_table_lookup (self->sessions, GINT_TO_POINTER (pid));

  if (session != NULL)
    {
      g_hash_table_steal (self->sessions, GINT_TO_POINTER (pid));
      release_held (self, session, FALSE);
      emit_samples_added (self);
      finish_chunk (self, session);
      session_free (session);
    }
  g_mutex_lock (&self->lock);
  for (guint i = 0; ended != NULL && i < ended->len; i++)
    {
      remember_runtime (self, g_ptr_array_index (ended, i));
      g_ptr_array_remove_fast (self->process_store, g_ptr_array_index (ended, i));
    }
  g_mutex_unlock (&self->lock);
}

/* Handlers of the signals emitted here may iterate the main context (a
 * nested loop) and so run this again: items are taken one at a
 * time from self->ready, which keeps them in order whoever takes them. */
static void
flush_pending (FcRecorder *self)
{
  g_autoptr(GObject) guard = g_object_ref (G_OBJECT (self));
  Item *item;
  gpointer *items;
  gsize n_items;

  g_mutex_lock (&self->lock);
  items = g_ptr_array_steal (self->pending, &n_items);
  g_mutex_unlock (&self->lock);
  for (gsize i = 0; i < n_items; i++)
    g_queue_push_tail (&self->ready, items[i]);
  g_free (items);

  if (self->target->live == NULL)
    new_live_profile (self, self->target);

  while ((item = g_queue_pop_head (&self->ready)) != NULL)
    {
      switch (item->kind)
        {
        case ITEM_SAMPLE:
          {
            Session *session = session_for_item (self, item);

            if (session->live == NULL)
              new_live_profile (self, session);
            /* a chunk is Python stacks (platform python) or native ones, never both */
            if (item->python != session->python)
              release_held (self, session, FALSE);
            /* held samples so sparse that they never make a valid chunk go out, before Relay's
             * span limit would refuse them for their length too; @item is not theirs */
            if (session->held.length > 0 &&
                item->time_ns - ((Item *) g_queue_peek_head (&session->held))->time_ns >= self->span_cap_ns)
              release_held (self, session, TRUE);
            if (session->held.length > 0 ||
                (session->chunk_start_ns != 0 && item->python == session->python &&
                 item->time_ns - session->chunk_start_ns >= (gint64) self->chunk_duration_ms * 1000000 &&
                 (fc_validate_keeps_a_thread (session->live) ||
                  item->time_ns - session->chunk_start_ns >= self->span_cap_ns)))
              {
                if (hold_item (session, g_steal_pointer (&item)))
                  release_held (self, session, TRUE);
                break;
              }
            if (session->chunk_start_ns != 0 && item->python != session->python)
              {
                emit_samples_added (self);
                finish_chunk (self, session);
              }
            append_sample (self, session, item);
          }
          break;

        case ITEM_EXIT:
          emit_samples_added (self);
          if (!self->exited)
            {
              self->exited = TRUE;
              self->exit_status = item->status;
              g_signal_emit (self, signals[TARGET_EXITED], 0, item->status);
            }
          break;

        case ITEM_PROCESS_EXIT:
          emit_samples_added (self);
          end_session (self, item->pid, item->ended);
          break;

        case ITEM_RENAME:
          {
            Session *session = !self->following || item->pid == self->pid
                                 ? self->target : g_hash_table_lookup (self->sessions, GINT_TO_POINTER (item->pid));
            GHashTableIter iter;
            gpointer key, value;

            g_hash_table_iter_init (&iter, item->renamed);
            while (session != NULL && g_hash_table_iter_next (&iter, &key, &value))
              g_hash_table_insert (session->renamed, key, value);
          }
          break;

        case ITEM_FLUSH:
          {
            g_autoptr(GList) children = NULL;

            /* the end of a sampling run: what follows belongs to the next one, but a chunk
             * Relay would refuse (no thread with two samples) waits for the next run's
             * samples, unless the recording ends here */
            release_held (self, self->target, FALSE);
            emit_samples_added (self);
            if (self->detaching || fc_validate_keeps_a_thread (self->target->live))
              finish_chunk (self, self->target);
            /* chunk-ready handlers may run a nested loop that ends sessions: each looked up again */
            children = g_hash_table_get_keys (self->sessions);
            for (GList *l = children; l != NULL; l = l->next)
              {
                Session *session = g_hash_table_lookup (self->sessions, l->data);
                if (session != NULL)
                  {
                    release_held (self, session, FALSE);
                    emit_samples_added (self);
                    finish_chunk (self, session);
                  }
              }
            self->stops_flushed++;
            g_signal_emit (self, signals[STOPPED], 0);
          }
          break;

        default:
          break;
        }
      if (item != NULL)
        item_free (item);
    }

  emit_samples_added (self);
}

/* ---- lifecycle ---- */

/* Items not yet appended point into the symbolizer: deliver them (flush_pending)
 * before @release frees it. */
static void
stop_worker (FcRecorder *self,
             gboolean    release)
{
  if (self->worker != NULL)
    {
      g_async_queue_push (self->queue, &quit_marker);
      g_thread_join (self->worker);
      self->worker = NULL;
    }
  if (!release)
    return;
  g_hash_table_remove_all (self->processes);
  g_mutex_lock (&self->sink_lock);
  g_hash_table_remove_all (self->sink_processes);
  g_mutex_unlock (&self->sink_lock);
  g_hash_table_remove_all (self->thread_states);
  /* their chunks were finished by the last flush; their frames point into what goes now */
  g_hash_table_remove_all (self->sessions);
  if (self->target->live == NULL || fc_profile_get_n_samples (self->target->live) == 0)
    {
      g_hash_table_remove_all (self->target->frame_cache[0]);
      g_hash_table_remove_all (self->target->frame_cache[1]);
      g_hash_table_remove_all (self->target->images);
    }
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->process_store->len; i++)
    remember_runtime (self, g_ptr_array_index (self->process_store, i));
  g_ptr_array_set_size (self->process_store, 0);
  g_mutex_unlock (&self->lock);
  self->realtime_offset_ns = 0;
}

static gboolean
prepare_target (FcRecorder *self,
                GError    **error)
{
  g_mutex_lock (&self->sink_lock);
  self->pid = fc_sampler_get_pid (self->sampler);
  g_mutex_unlock (&self->sink_lock);
  self->spawned = fc_sampler_is_spawned (self->sampler);
  self->exited = FALSE;
  self->exit_status = -1;
  g_hash_table_remove_all (self->thread_counts);
  g_array_set_size (self->process_list, 0);
  g_mutex_lock (&self->lock);
  g_hash_table_remove_all (self->not_python);
  g_ptr_array_set_size (self->runtime_lines, 0);
  g_mutex_unlock (&self->lock);
  self->target->summary_index = 0;
  self->target->pid = self->pid;
  self->n_root = self->n_unnamed_leaf = self->n_wait_leaf = self->n_target_samples = 0;
  g_free (self->default_release);
  self->default_release = fc_release_default_for_pid (self->pid);
  g_hash_table_remove_all (self->processes);
  g_mutex_lock (&self->sink_lock);
  g_hash_table_remove_all (self->sink_processes);
  g_hash_table_insert (self->sink_processes, GINT_TO_POINTER (self->pid), get_process (self, NULL));
  self->stacks_active = self->stacks;
  g_mutex_unlock (&self->sink_lock);
  self->worker = g_thread_new ("fc-unwinder", worker_thread, self);
  return TRUE;
}

/* detach() emits the last signals while it releases the target: nothing may start over from their handlers */
static gboolean
check_not_detaching (FcRecorder *self,
                     GError    **error)
{
  if (!self->detaching)
    return TRUE;
  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
               _("Cannot record: the recorder is still releasing process %d"), self->pid);
  return FALSE;
}

gboolean
fc_recorder_attach (FcRecorder *self,
                    GPid        pid,
                    GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *helped = NULL;

  g_return_val_if_fail (FC_IS_RECORDER (self), FALSE);

  if (!check_not_detaching (self, error))
    return FALSE;
  fc_recorder_detach (self);
  fc_sampler_set_options (self->sampler, self->frequency, self->stack_size);
  fc_sampler_set_follow_children (self->sampler, self->follow_children);
  self->following = self->follow_children;
  self->mode_fallback = FALSE;
  fc_access_begin_attach (pid);
  if (!fc_sampler_attach (self->sampler, pid, self->mode, &local_error))
    {
      /* wall mode stops threads with ptrace, which flamecast-helper does not do for a caller;
       * the perf events it opens give cpu mode */
      if (!(self->mode == FC_SAMPLER_MODE_WALL && !self->follow_children && fc_access_get_use_helper () &&
            g_error_matches (local_error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION) &&
            fc_sampler_attach (self->sampler, pid, FC_SAMPLER_MODE_CPU, NULL)))
        {
          fc_access_append_refusal (&local_error);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (!(helped = fc_access_dup_helper_note (pid)))
        {
          /* attached directly in cpu mode after all (perf events of its own user): wall mode's
           * refusal stands */
          fc_sampler_detach (self->sampler);
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      self->mode_fallback = TRUE;
      fc_recorder_set_mode (self, FC_SAMPLER_MODE_CPU);
    }
  return prepare_target (self, error);
}

gboolean
fc_recorder_spawn (FcRecorder         *self,
                   const char * const *argv,
                   const char         *cwd,
                   GError            **error)
{
  g_return_val_if_fail (FC_IS_RECORDER (self), FALSE);

  if (!check_not_detaching (self, error))
    return FALSE;
  fc_recorder_detach (self);
  fc_sampler_set_options (self->sampler, self->frequency, self->stack_size);
  fc_sampler_set_follow_children (self->sampler, self->follow_children);
  self->following = self->follow_children;
  if (!fc_sampler_spawn (self->sampler, argv, cwd, self->mode, error))
    return FALSE;
  return prepare_target (self, error);
}

gboolean
fc_recorder_start (FcRecorder *self,
                   GError    **error)
{
  g_return_val_if_fail (FC_IS_RECORDER (self), FALSE);

  if (self->worker == NULL)
    {
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                   _("Nothing to record: attach to a process or launch a command first"));
      return FALSE;
    }
  if (!check_not_detaching (self, error))
    return FALSE;
  if (self->sampling)
    return TRUE;
  if (self->target->profiler_id == NULL)
    {
      self->target->profiler_id = fc_uuid_hex_new ();
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILER_ID]);
    }
  /* A stop still being flushed needs nothing here: its marker is ahead of
   * this run's samples in the queue, so its chunk is finished before they
   * are appended. */
  if (self->target->live == NULL)
    new_live_profile (self, self->target);
  if (!fc_sampler_start (self->sampler, self->frequency, self->stack_size, error))
    return FALSE;
  self->sampling = TRUE;
  return TRUE;
}

void
fc_recorder_stop (FcRecorder *self)
{
  g_return_if_fail (FC_IS_RECORDER (self));

  if (self->worker == NULL || !self->sampling)
    return;
  self->sampling = FALSE;

  /* Returns once the sampler has taken its last snapshot (a tick at most):
   * all of this run's snapshots are in the queue by then, so the marker
   * goes behind them. The worker may take seconds to unwind a backlog; the
   * chunk is finished when its flush reaches the main context. */
  fc_sampler_stop (self->sampler);
  self->stops_issued++;
  g_async_queue_push (self->queue, &stop_marker);
}

gboolean
fc_recorder_get_stopping (FcRecorder *self)
{
  g_return_val_if_fail (FC_IS_RECORDER (self), FALSE);

  return self->stops_flushed != self->stops_issued;
}

static void
child_exited_cb (GPid     pid,
                 int      status,
                 gpointer user_data)
{
  FcRecorder *self = user_data;

  g_clear_pointer (&self->child_watch, g_source_unref);
  if (!self->exited)
    {
      self->exited = TRUE;
      self->exit_status = status;
      g_signal_emit (self, signals[TARGET_EXITED], 0, status);
    }
}

void
fc_recorder_detach (FcRecorder *self)
{
  g_return_if_fail (FC_IS_RECORDER (self));

  if (self->worker == NULL || self->detaching)
    return;
  /* What was captured is not lost: the worker unwinds what is queued before
   * it sees the quit marker, and flush_pending() below hands it over. That
   * blocks for as long as the backlog takes, without running the caller's
   * context; a caller that must not block waits for "stopped" first
   * (fc_recording_stop_async()), so that there is nothing left. */
  self->detaching = TRUE;
  fc_recorder_stop (self);
  fc_sampler_detach (self->sampler);
  stop_worker (self, FALSE);
  flush_pending (self);
  /* the recording ends: a chunk kept at an earlier stop for the next run goes out as it is */
  release_held (self, self->target, FALSE);
  emit_samples_added (self);
  finish_chunk (self, self->target);
  stop_worker (self, TRUE);
  fc_access_forget (self->pid);
  self->detaching = FALSE;

  /* a launched command outlives the recording; its exit status still matters to the caller */
  if (self->spawned && !self->exited && self->child_watch == NULL)
    {
      self->child_watch = g_child_watch_source_new (self->pid);
      g_source_set_callback (self->child_watch, (GSourceFunc) (void (*) (void)) child_exited_cb, self, NULL);
      g_source_attach (self->child_watch, self->context);
    }
}

FcProfile *
fc_recorder_get_live_profile (FcRecorder *self)
{
  g_return_val_if_fail (FC_IS_RECORDER (self), NULL);

  if (self->target->live == NULL)
    new_live_profile (self, self->target);
  return self->target->live;
}

/* ---- GObject ---- */

static void
fc_recorder_dispose (GObject *object)
{
  FcRecorder *self = FC_RECORDER (object);

  if (self->sampler != NULL)
    {
      fc_sampler_detach (self->sampler);
      stop_worker (self, TRUE);
      g_clear_pointer (&self->sampler, fc_sampler_free);
    }
  if (self->kill_timeout != NULL)
    {
      g_source_destroy (self->kill_timeout);
      g_clear_pointer (&self->kill_timeout, g_source_unref);
    }
  if (self->child_watch != NULL)
    {
      g_source_destroy (self->child_watch);
      g_clear_pointer (&self->child_watch, g_source_unref);
    }
  g_mutex_lock (&self->lock);
  if (self->delivery != NULL)
    {
      g_source_destroy (self->delivery);
      g_clear_pointer (&self->delivery, g_source_unref);
    }
  g_mutex_unlock (&self->lock);
  g_clear_object (&self->target->live);
  g_hash_table_remove_all (self->sessions);

  G_OBJECT_CLASS (fc_recorder_parent_class)->dispose (object);
}

static void
fc_recorder_finalize (GObject *object)
{
  FcRecorder *self = FC_RECORDER (object);
  GPtrArray *batch;

  while ((batch = g_async_queue_try_pop (self->queue)) != NULL)
    if ((gpointer) batch != &quit_marker && (gpointer) batch != &stop_marker)
      {
        g_ptr_array_foreach (batch, (GFunc) snapshot_free, NULL);
        g_ptr_array_unref (batch);
      }
  g_async_queue_unref (self->queue);
  g_ptr_array_foreach (self->sink_batch, (GFunc) snapshot_free, NULL);
  g_ptr_array_unref (self->sink_batch);
  g_hash_table_unref (self->processes);
  g_hash_table_unref (self->sink_processes);
  g_ptr_array_unref (self->process_store);
  g_ptr_array_unref (self->runtime_lines);
  g_hash_table_unref (self->thread_states);
  session_free (self->target);
  g_hash_table_unref (self->sessions);
  g_array_unref (self->process_list);
  g_hash_table_unref (self->threads_seen);
  g_hash_table_unref (self->thread_counts);
  g_hash_table_unref (self->not_python);
  g_ptr_array_unref (self->pending);
  g_ptr_array_foreach (self->worker_items, (GFunc) item_free, NULL);
  g_ptr_array_unref (self->worker_items);
  g_main_context_unref (self->context);
  g_queue_clear_full (&self->ready, (GDestroyNotify) item_free);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->sink_lock);
  g_free (self->platform);
  g_free (self->release);
  g_free (self->default_release);
  g_free (self->environment);
  /* the files kept mapped for this recording's next processes, and their debug info, go with it */
  fc_module_file_release_idle ();

  G_OBJECT_CLASS (fc_recorder_parent_class)->finalize (object);
}

static void
fc_recorder_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  FcRecorder *self = FC_RECORDER (object);

  switch (prop_id)
    {
    case PROP_FREQUENCY: g_value_set_uint (value, self->frequency); break;
    case PROP_MODE: g_value_set_enum (value, self->mode); break;
    case PROP_CHUNK_DURATION_MS: g_value_set_uint (value, self->chunk_duration_ms); break;
    case PROP_STACK_SIZE: g_value_set_uint (value, self->stack_size); break;
    case PROP_PLATFORM: g_value_set_string (value, self->platform); break;
    case PROP_RELEASE: g_value_set_string (value, self->release); break;
    case PROP_ENVIRONMENT: g_value_set_string (value, self->environment); break;
    case PROP_FOLLOW_CHILDREN: g_value_set_boolean (value, self->follow_children); break;
    case PROP_STACKS: g_value_set_enum (value, self->stacks); break;
    case PROP_PROFILER_ID: g_value_set_string (value, self->target->profiler_id); break;
    case PROP_N_SAMPLES: g_value_set_uint (value, self->n_samples); break;
    case PROP_N_THREADS: g_value_set_uint (value, fc_recorder_get_n_threads (self)); break;
    case PROP_DROPPED_TICKS: g_value_set_uint64 (value, fc_recorder_get_dropped_ticks (self)); break;
    case PROP_MEDIAN_STOP_US: g_value_set_double (value, fc_recorder_get_median_stop_us (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_recorder_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  FcRecorder *self = FC_RECORDER (object);

  switch (prop_id)
    {
    case PROP_FREQUENCY: fc_recorder_set_frequency (self, g_value_get_uint (value)); break;
    case PROP_MODE: fc_recorder_set_mode (self, g_value_get_enum (value)); break;
    case PROP_CHUNK_DURATION_MS: fc_recorder_set_chunk_duration_ms (self, g_value_get_uint (value)); break;
    case PROP_STACK_SIZE:
      if (self->stack_size != g_value_get_uint (value))
        {
          self->stack_size = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_PLATFORM: fc_recorder_set_platform (self, g_value_get_string (value)); break;
    case PROP_RELEASE: fc_recorder_set_release (self, g_value_get_string (value)); break;
    case PROP_ENVIRONMENT: fc_recorder_set_environment (self, g_value_get_string (value)); break;
    case PROP_FOLLOW_CHILDREN: fc_recorder_set_follow_children (self, g_value_get_boolean (value)); break;
    case PROP_STACKS: fc_recorder_set_stacks (self, g_value_get_enum (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_recorder_class_init (FcRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = fc_recorder_dispose;
  object_class->finalize = fc_recorder_finalize;
  object_class->get_property = fc_recorder_get_property;
  object_class->set_property = fc_recorder_set_property;

  properties[PROP_FREQUENCY] = fc_record_option_property_spec (FC_RECORD_OPTION_FREQUENCY, rw);
  properties[PROP_MODE] = g_param_spec_enum ("mode", NULL, NULL, FC_TYPE_SAMPLER_MODE, FC_RECORD_DEFAULT_MODE, rw);
  properties[PROP_CHUNK_DURATION_MS] = fc_record_option_property_spec (FC_RECORD_OPTION_CHUNK_MS, rw);
  properties[PROP_STACK_SIZE] = fc_record_option_property_spec (FC_RECORD_OPTION_STACK_BYTES, rw);
  properties[PROP_PLATFORM] = g_param_spec_string ("platform", NULL, NULL, FC_RECORD_DEFAULT_PLATFORM, rw);
  properties[PROP_RELEASE] = g_param_spec_string ("release", NULL, NULL, NULL, rw);
  properties[PROP_ENVIRONMENT] = g_param_spec_string ("environment", NULL, NULL, NULL, rw);
  properties[PROP_FOLLOW_CHILDREN] =
    g_param_spec_boolean ("follow-children", NULL, NULL, FC_RECORD_DEFAULT_FOLLOW_CHILDREN, rw);
  properties[PROP_STACKS] = g_param_spec_enum ("stacks", NULL, NULL, FC_TYPE_STACKS_MODE, FC_RECORD_DEFAULT_STACKS, rw);
  properties[PROP_PROFILER_ID] = g_param_spec_string ("profiler-id", NULL, NULL, NULL, ro);
  properties[PROP_N_SAMPLES] = g_param_spec_uint ("n-samples", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_N_THREADS] = g_param_spec_uint ("n-threads", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_DROPPED_TICKS] = g_param_spec_uint64 ("dropped-ticks", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_MEDIAN_STOP_US] = g_param_spec_double ("median-stop-us", NULL, NULL, 0, G_MAXDOUBLE, 0, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SAMPLES_ADDED] = g_signal_new ("samples-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[PROCESS_SAMPLES_ADDED] = g_signal_new ("process-samples-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                 0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                                 FC_TYPE_PROFILE, G_TYPE_UINT, G_TYPE_UINT);
  signals[CHUNK_READY] = g_signal_new ("chunk-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, FC_TYPE_PROFILE);
  signals[TARGET_EXITED] = g_signal_new ("target-exited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                         0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  signals[STOPPED] = g_signal_new ("stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
fc_recorder_init (FcRecorder *self)
{
  self->frequency = fc_record_option_get (FC_RECORD_OPTION_FREQUENCY)->default_value;
  self->mode = FC_RECORD_DEFAULT_MODE;
  self->chunk_duration_ms = fc_record_option_get (FC_RECORD_OPTION_CHUNK_MS)->default_value;
  self->stack_size = fc_record_option_get (FC_RECORD_OPTION_STACK_BYTES)->default_value;
  self->platform = g_strdup (FC_RECORD_DEFAULT_PLATFORM);
  self->context = g_main_context_ref_thread_default ();
  self->queue = g_async_queue_new ();
  self->sink_batch = g_ptr_array_new ();
  self->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) item_free);
  self->worker_items = g_ptr_array_new ();   /* owned until set in pending */
  self->thread_states = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) thread_state_free);
  self->processes = g_hash_table_new (NULL, NULL);
  self->sink_processes = g_hash_table_new (NULL, NULL);
  self->process_store = g_ptr_array_new_with_free_func ((GDestroyNotify) process_free);
  self->runtime_lines = g_ptr_array_new_with_free_func (g_free);
  self->target = session_new (0, NULL);
  self->sessions = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) session_free);
  self->process_list = g_array_new (FALSE, FALSE, sizeof (FcProcessSummary));
  g_array_set_clear_func (self->process_list, (GDestroyNotify) fc_process_summary_clear);
  self->threads_seen = g_hash_table_new (NULL, NULL);
  self->thread_counts = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) thread_count_free);
  self->not_python = g_hash_table_new (NULL, NULL);
  self->exit_status = -1;
  g_queue_init (&self->ready);
  g_mutex_init (&self->lock);
  g_mutex_init (&self->sink_lock);
  self->sampler = fc_sampler_new_full (sink_cb, batch_end_cb, self);
  self->span_cap_ns = CHUNK_SPAN_CAP_NS;
  if (g_getenv ("FC_RECORDER_SPAN_CAP_MS") != NULL)
    self->span_cap_ns = CLAMP (g_ascii_strtoll (g_getenv ("FC_RECORDER_SPAN_CAP_MS"), NULL, 10), 1, 60000) *
                        G_GINT64_CONSTANT (1000000);
}

FcRecorder *
fc_recorder_new (void)
{
  return g_object_new (FC_TYPE_RECORDER, NULL);
}

/* ---- accessors ---- */

GPid
fc_recorder_get_pid (FcRecorder *self)
{
  return self->pid;
}

gboolean
fc_recorder_get_target_exited (FcRecorder *self,
                               int        *status)
{
  if (status != NULL)
    *status = self->exit_status;
  return self->exited;
}

guint
fc_recorder_get_frequency (FcRecorder *self)
{
  return self->frequency;
}

void
fc_recorder_set_frequency (FcRecorder *self,
                           guint       frequency)
{
  frequency = fc_record_option_clamp (FC_RECORD_OPTION_FREQUENCY, frequency);
  if (self->frequency == frequency)
    return;
  self->frequency = frequency;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FREQUENCY]);
}

FcSamplerMode
fc_recorder_get_mode (FcRecorder *self)
{
  return self->mode;
}

void
fc_recorder_set_mode (FcRecorder    *self,
                      FcSamplerMode  mode)
{
  if (self->mode == mode)
    return;
  self->mode = mode;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODE]);
}

guint
fc_recorder_get_chunk_duration_ms (FcRecorder *self)
{
  return self->chunk_duration_ms;
}

void
fc_recorder_set_chunk_duration_ms (FcRecorder *self,
                                   guint       ms)
{
  ms = fc_record_option_clamp (FC_RECORD_OPTION_CHUNK_MS, ms);
  if (self->chunk_duration_ms == ms)
    return;
  self->chunk_duration_ms = ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHUNK_DURATION_MS]);
}

static void
set_string (FcRecorder  *self,
            char       **field,
            const char  *key,
            const char  *value,
            guint        prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  /* the chunks in progress carry the new value too */
  if (self->target->live != NULL)
    fc_profile_set_meta_string (self->target->live, key, value);
  {
    GHashTableIter iter;
    Session *session;

    g_hash_table_iter_init (&iter, self->sessions);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &session))
      if (session->live != NULL)
        fc_profile_set_meta_string (session->live, key, value);
  }
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

const char *
fc_recorder_get_platform (FcRecorder *self)
{
  return self->platform;
}

void
fc_recorder_set_platform (FcRecorder *self,
                          const char *platform)
{
  set_string (self, &self->platform, "platform", platform ? platform : "native", PROP_PLATFORM);
}

const char *
fc_recorder_get_release (FcRecorder *self)
{
  return self->release;
}

void
fc_recorder_set_release (FcRecorder *self,
                         const char *release)
{
  set_string (self, &self->release, "release", release, PROP_RELEASE);
}

const char *
fc_recorder_get_environment (FcRecorder *self)
{
  return self->environment;
}

void
fc_recorder_set_environment (FcRecorder *self,
                             const char *environment)
{
  set_string (self, &self->environment, "environment", environment, PROP_ENVIRONMENT);
}

const char *
fc_recorder_get_profiler_id (FcRecorder *self)
{
  return self->target->profiler_id;
}

guint
fc_recorder_get_n_samples (FcRecorder *self)
{
  return self->n_samples;
}

void
fc_recorder_get_sampler_stats (FcRecorder     *self,
                               FcSamplerStats *stats)
{
  fc_sampler_get_stats (self->sampler, stats);
}

/* threads sampled so far in this recording (the sampler's stats count those alive now) */
guint
fc_recorder_get_n_threads (FcRecorder *self)
{
  return g_hash_table_size (self->threads_seen);
}

guint64
fc_recorder_get_dropped_ticks (FcRecorder *self)
{
  FcSamplerStats stats;
  fc_sampler_get_stats (self->sampler, &stats);
  return stats.dropped_ticks;
}

double
fc_recorder_get_median_stop_us (FcRecorder *self)
{
  FcSamplerStats stats;
  fc_sampler_get_stats (self->sampler, &stats);
  return stats.median_stop_us;
}

void
fc_recorder_get_unwind_stats (FcRecorder    *self,
                              FcUnwindStats *stats)
{
  g_mutex_lock (&self->lock);
  *stats = self->unwind_stats;
  g_mutex_unlock (&self->lock);
}

static int
compare_thread_summary (gconstpointer a,
                        gconstpointer b)
{
  const FcThreadSummary *x = a, *y = b;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* The sampler's account of the thread's ticks; the samples are the recording's own. */
static void
thread_summary_take_ticks (FcRecorder        *self,
                           FcThreadSummary   *t,
                           const FcTickCount *ticks)
{
  g_mutex_lock (&self->lock);
  t->n_not_python = GPOINTER_TO_SIZE (g_hash_table_lookup (self->not_python, GINT_TO_POINTER (t->tid)));
  g_mutex_unlock (&self->lock);
  if (ticks == NULL)
    return;
  t->n_ticks = ticks->requested;
  t->n_late = ticks->late;
  t->n_refused = ticks->refused;
  t->n_too_short = ticks->too_short;
}

/**
 * fc_recorder_dup_summary:
 *
 * What the current or last target's recording captured, counted on the main
 * context from the samples delivered so far: how many stacks reach a root,
 * how many leaves have no name, ticks per thread, and how the stacks were
 * taken. Call it before fc_recorder_detach() for the sampler's figures of a
 * target that is still attached.
 *
 * Returns: (transfer full): the summary
 */
/**
 * fc_recorder_dup_access_note:
 *
 * How the current or last attached process was opened when direct access was
 * refused: "Process N was recorded through flamecast-helper: ...", and why
 * the mode is cpu if wall mode was asked for.
 *
 * Returns: (transfer full) (nullable): the note, or NULL when it was opened directly
 */
char *
fc_recorder_dup_access_note (FcRecorder *self)
{
  g_autofree char *note = NULL;

  g_return_val_if_fail (FC_IS_RECORDER (self), NULL);

  if (self->pid <= 0 || (note = fc_access_dup_helper_note (self->pid)) == NULL)
    return NULL;
  if (!self->mode_fallback)
    return g_steal_pointer (&note);
  return g_strdup_printf (_("%s; in cpu mode, since wall mode stops threads with ptrace, which the helper does "
                            "not do for others"), note);
}

FcCaptureSummary *
fc_recorder_dup_summary (FcRecorder *self)
{
  FcCaptureSummary *summary;
  g_autoptr(GHashTable) ticks = NULL;
  FcSamplerStats stats;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (FC_IS_RECORDER (self), NULL);

  summary = fc_capture_summary_new ();
  fc_sampler_get_stats (self->sampler, &stats);
  summary->mode = self->mode;
  summary->method = fc_sampler_dup_method (self->sampler, &summary->method_reason);
  summary->frequency = self->frequency;
  summary->spawned = self->spawned;
  summary->target_stopped = fc_sampler_get_target_was_stopped (self->sampler);
  summary->follow_children = self->following;
  summary->target_cpu_ns = fc_sampler_get_target_cpu_ns (self->sampler);
  summary->n_unsampled_threads = fc_sampler_dup_unsampled (self->sampler, &summary->unsampled_reason);
  summary->access_note = fc_recorder_dup_access_note (self);
  summary->debuginfod = fc_debuginfod_dup_summary ();
  summary->n_samples = self->n_target_samples;
  summary->n_root = self->n_root;
  summary->n_unnamed_leaf = self->n_unnamed_leaf;
  summary->n_wait_leaf = self->n_wait_leaf;
  summary->n_ticks = stats.n_ticks;
  summary->dropped_ticks = stats.dropped_ticks;
  summary->lost_samples = stats.lost_samples;
  summary->n_ptrace_stops = stats.n_stops;
  summary->median_stop_us = stats.median_stop_us;

  ticks = fc_sampler_dup_tick_counts (self->sampler);
  g_hash_table_iter_init (&iter, self->thread_counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const ThreadCount *tc = value;
      FcThreadSummary t = { GPOINTER_TO_INT (key), g_strdup (tc->name), tc->n_samples };

      thread_summary_take_ticks (self, &t, g_hash_table_lookup (ticks, key));
      g_array_append_val (summary->threads, t);
    }
  /* threads that were known at ticks but never sampled missed them all */
  g_hash_table_iter_init (&iter, ticks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (self->thread_counts, key))
      {
        FcThreadSummary t = { GPOINTER_TO_INT (key) };

        thread_summary_take_ticks (self, &t, value);
        g_array_append_val (summary->threads, t);
      }
  g_array_sort (summary->threads, compare_thread_summary);
  /* the runtime each program ran and how its frames were named */
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->runtime_lines->len; i++)
    g_ptr_array_add (summary->runtimes, g_strdup (g_ptr_array_index (self->runtime_lines, i)));
  for (guint i = 0; i < self->process_store->len; i++)
    {
      char *line = runtime_line (g_ptr_array_index (self->process_store, i));
      if (line != NULL)
        g_ptr_array_add (summary->runtimes, line);
    }
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < self->process_list->len; i++)
    {
      const FcProcessSummary *p = &g_array_index (self->process_list, FcProcessSummary, i);
      FcProcessSummary copy = *p;

      copy.name = g_strdup (p->name);
      copy.profiler_id = g_strdup (p->profiler_id);
      g_array_append_val (summary->processes, copy);
    }
  return summary;
}

/**
 * fc_recorder_get_n_held_processes:
 *
 * Returns: how many processes' maps, unwinders and symbolizers the recorder holds now: the
 *   target's (one per program it ran) and those of children followed that have not exited.
 */
guint
fc_recorder_get_n_held_processes (FcRecorder *self)
{
  guint n;

  g_return_val_if_fail (FC_IS_RECORDER (self), 0);

  g_mutex_lock (&self->lock);
  n = self->process_store->len;
  g_mutex_unlock (&self->lock);
  return n;
}

/* Processes the target starts, and theirs, are recorded too (threads named "comm (pid)"), each
 * as its own profile session: its own profiler_id and chunks; read at the next attach or launch. */
void
fc_recorder_set_follow_children (FcRecorder *self,
                                 gboolean    follow)
{
  g_return_if_fail (FC_IS_RECORDER (self));

  follow = !!follow;
  if (self->follow_children == follow)
    return;
  self->follow_children = follow;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW_CHILDREN]);
}

/**
 * fc_recorder_set_launch_environ:
 * @envp: (nullable): the environment of the commands launched from now on;
 *   %NULL for the recorder's process's own
 */
void
fc_recorder_set_launch_environ (FcRecorder         *self,
                                const char * const *envp)
{
  g_return_if_fail (FC_IS_RECORDER (self));

  fc_sampler_set_launch_environ (self->sampler, envp);
}

gboolean
fc_recorder_get_follow_children (FcRecorder *self)
{
  g_return_val_if_fail (FC_IS_RECORDER (self), FALSE);

  return self->follow_children;
}

/* How programs with an interpreter are recorded (FcStacksMode); read at the next attach or launch. */
void
fc_recorder_set_stacks (FcRecorder   *self,
                        FcStacksMode  stacks)
{
  g_return_if_fail (FC_IS_RECORDER (self));

  if (self->stacks == stacks)
    return;
  self->stacks = stacks;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STACKS]);
}

FcStacksMode
fc_recorder_get_stacks (FcRecorder *self)
{
  g_return_val_if_fail (FC_IS_RECORDER (self), FC_STACKS_AUTO);

  return self->stacks;
}

/* Wall mode stops every thread at every tick, as where perf events are not allowed (for tests and
 * comparisons); read at the next attach or launch. */
void
fc_recorder_set_force_ptrace (FcRecorder *self,
                              gboolean    force)
{
  g_return_if_fail (FC_IS_RECORDER (self));

  fc_sampler_set_force_ptrace (self->sampler, force);
}

static gboolean
kill_timeout_cb (gpointer user_data)
{
  FcRecorder *self = user_data;

  g_clear_pointer (&self->kill_timeout, g_source_unref);
  if (self->spawned && !self->exited && self->pid > 0)
    kill (self->pid, SIGKILL);
  return G_SOURCE_REMOVE;
}

/**
 * fc_recorder_end_target:
 * @signal_number: the signal to forward, e.g. SIGTERM
 * @grace_ms: how long the command may take to exit before SIGKILL; 0 kills at once
 *
 * Ends a launched command the way perf does when it is interrupted: the signal
 * goes to the command, and a command still running after @grace_ms is killed.
 * "target-exited" follows. Sampling goes on meanwhile, so the command's last
 * moments are recorded. Does nothing for an attached process, which is not ours
 * to end.
 */
void
fc_recorder_end_target (FcRecorder *self,
                        int         signal_number,
                        guint       grace_ms)
{
  g_return_if_fail (FC_IS_RECORDER (self));

  if (!self->spawned || self->exited || self->pid <= 0)
    return;
  if (grace_ms == 0 || self->kill_timeout != NULL)
    {
      /* asked twice: no more waiting */
      kill (self->pid, SIGKILL);
      return;
    }
  kill (self->pid, signal_number);
  self->kill_timeout = g_timeout_source_new (grace_ms);
  g_source_set_static_name (self->kill_timeout, "[flamecast] kill launched command");
  g_source_set_callback (self->kill_timeout, kill_timeout_cb, self, NULL);
  g_source_attach (self->kill_timeout, self->context);
}
