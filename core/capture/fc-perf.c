/* fc-perf.c - per-thread perf_event sampling with user registers and stack copies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <asm/perf_regs.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libunwind.h>
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-attach-check.h"
#include "fc-capture-error.h"
#include "fc-perf.h"

/* 1 MiB of ring per thread holds ~30 samples with 32 KiB stacks, 30 ms of CPU time at 1000 Hz:
 * the sampler drains every 10 ms (on a busy machine it may not run that often: the kernel's
 * lost samples are counted). 4 MiB per thread cost 4 GiB of locked memory at 1,000 threads, and
 * clearing it made the sampler too slow to catch new threads. Smaller rings are tried where the
 * locked-memory limit (perf_event_mlock_kb) forbids it. */
static const guint ring_pages[] = { 256, 64, 16 };
/* Wall mode drains every tick and keeps one sample per tick: 512 KiB hold 16 samples of 32 KiB,
 * and cost 8x less to allocate and clear per thread than the cpu mode's ring. */
static const guint small_ring_pages[] = { 128, 64, 16 };

struct _FcPerfStream {
  int     fd;
  int     tid;
  void   *base;
  gsize   map_size;
  gsize   page_size;
  gsize   data_size;
  guint64 last_head;   /* FC_PERF_NEWEST: data_head at the last read */
  guint64 period;      /* ns of CPU time between samples; 0 for switch samples */
  gboolean phase_set;  /* the first sample came: the period is the full one from now on */
  /* cpu mode's thinning (keep_sample()): the thread's CPU time, as the samples' counter
   * values give it, at which the next sample is due; 0 before the first one */
  guint64 next_due;
  guint64 lost_pending; /* the kernel lost records since the last sample kept */
};

/* A thread that runs for less than one period must still be sampled in proportion to its CPU
 * time: each stream's first period is drawn uniformly from (0, period], so a thread that runs
 * for a fifth of a period is sampled once in five, and one that runs a whole period always. */
static void
set_random_phase (FcPerfStream *self)
{
  guint64 first = g_random_int_range (1, 1 << 30) * (double) self->period / (1 << 30);

  first = MAX (first, 10000);   /* the kernel's shortest timer */
  self->phase_set = FALSE;
  self->next_due = 0;
  ioctl (self->fd, PERF_EVENT_IOC_PERIOD, &first);
}

static void
note_sample (FcPerfStream *self)
{
  if (self->phase_set || self->period == 0)
    return;
  self->phase_set = TRUE;
  ioctl (self->fd, PERF_EVENT_IOC_PERIOD, &self->period);
}

/* perf register numbers in the order of the bits of sample_regs_user, mapped to libunwind's */
static const struct { int perf; int unw; } reg_map[] = {
  { PERF_REG_X86_AX, UNW_X86_64_RAX }, { PERF_REG_X86_BX, UNW_X86_64_RBX },
  { PERF_REG_X86_CX, UNW_X86_64_RCX }, { PERF_REG_X86_DX, UNW_X86_64_RDX },
  { PERF_REG_X86_SI, UNW_X86_64_RSI }, { PERF_REG_X86_DI, UNW_X86_64_RDI },
  { PERF_REG_X86_BP, UNW_X86_64_RBP }, { PERF_REG_X86_SP, UNW_X86_64_RSP },
  { PERF_REG_X86_IP, UNW_X86_64_RIP },
  { PERF_REG_X86_R8, UNW_X86_64_R8 }, { PERF_REG_X86_R9, UNW_X86_64_R9 },
  { PERF_REG_X86_R10, UNW_X86_64_R10 }, { PERF_REG_X86_R11, UNW_X86_64_R11 },
  { PERF_REG_X86_R12, UNW_X86_64_R12 }, { PERF_REG_X86_R13, UNW_X86_64_R13 },
  { PERF_REG_X86_R14, UNW_X86_64_R14 }, { PERF_REG_X86_R15, UNW_X86_64_R15 },
};

/* TRUE once the kernel refused an event that counts kernel time (perf_event_paranoid > 1
 * without CAP_PERFMON): the same answer holds for every later stream. */
static gint kernel_events_refused;   /* atomic: samplers of several recordings share it */

/* A thousand threads want a few thousand descriptors; the usual soft limit is 1024 but the
 * hard one is often far higher, and only this process's own limit moves. */
static gboolean
raise_open_files_limit (void)
{
  struct rlimit nofile;

  if (getrlimit (RLIMIT_NOFILE, &nofile) != 0 || nofile.rlim_cur >= nofile.rlim_max)
    return FALSE;
  nofile.rlim_cur = nofile.rlim_max;
  return setrlimit (RLIMIT_NOFILE, &nofile) == 0;
}

static guint64
regs_mask (void)
{
  guint64 mask = 0;
  for (guint i = 0; i < G_N_ELEMENTS (reg_map); i++)
    mask |= G_GUINT64_CONSTANT (1) << reg_map[i].perf;
  return mask;
}

FcPerfStream *
fc_perf_stream_open (int        tid,
                     guint      frequency,
                     guint      stack_size,
                     gboolean   enable_on_exec,
                     GError   **error)
{
  return fc_perf_stream_open_full (tid, frequency, stack_size,
                                   enable_on_exec ? FC_PERF_ENABLE_ON_EXEC : 0, error);
}

FcPerfStream *
fc_perf_stream_open_full (int           tid,
                          guint         frequency,
                          guint         stack_size,
                          FcPerfFlags   flags,
                          GError      **error)
{
  gboolean enable_on_exec = (flags & FC_PERF_ENABLE_ON_EXEC) != 0;
  struct perf_event_attr attr;
  FcPerfStream *self;
  int fd;

  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  /* task-clock counts nanoseconds this thread ran: a period of 1e9/HZ samples on-CPU time */
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = FC_NSEC_PER_SEC / MAX (frequency, 1);
  /* READ: the counter's value, the thread's CPU time in ns, by which keep_sample() thins */
  attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER |
                     PERF_SAMPLE_STACK_USER;
  attr.sample_regs_user = regs_mask ();
  attr.sample_stack_user = (stack_size + 7) & ~7u;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.disabled = 1;
  attr.enable_on_exec = enable_on_exec ? 1 : 0;
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;
  /* the sampler drains on a timer: a wakeup per sample (an irq_work self-interrupt, costly in a
   * VM) would be pure overhead. One when the ring is half full (cpu mode polls for it, see
   * fc_sampler_perf_drain_ready()) saves what a late drain would lose: a busy thread's samples
   * at 1000 Hz, or a first period's burst (keep_sample()). */
  attr.watermark = 1;
  attr.wakeup_watermark = ring_pages[0] * sysconf (_SC_PAGESIZE) / 2;
  /* PERF_RECORD_COMM with the exec flag tells us when the program's modules change */
  attr.comm = 1;
  attr.comm_exec = 1;
  if (flags & FC_PERF_OFF_CPU)
    {
      /* counted in the scheduler as the thread leaves its CPU: every switch is a sample, whose
       * user registers and stack are where the thread stands. Such an event happens in the
       * kernel, so excluding the kernel would exclude every one of them. */
      attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
      attr.sample_period = 1;
      attr.exclude_kernel = 0;
      attr.comm = 0;
      attr.comm_exec = 0;
    }
  if (flags & FC_PERF_NEWEST)
    attr.write_backward = 1;   /* overwritten from the newest: nothing to drain, nothing lost */
  if (flags & FC_PERF_SWITCHES)
    {
      /* wall mode: when the thread goes off and on a CPU, and whether it was preempted
       * (still runnable) or went to sleep; the trailer carries the time */
      attr.context_switch = 1;
      attr.sample_id_all = 1;
      attr.comm = 0;   /* ptrace reports the exec */
      attr.comm_exec = 0;
    }

  /* Time in the kernel (system calls, page faults) is the thread's CPU time too: where kernel
   * events are allowed a sample taken there carries the user registers and stack of the call;
   * elsewhere such ticks are lost, and only user time is sampled. */
  if (!(flags & FC_PERF_OFF_CPU) && !g_atomic_int_get (&kernel_events_refused))
    attr.exclude_kernel = 0;
  fd = fc_access_perf_event_open (&attr, tid);
  if (fd < 0 && (errno == EACCES || errno == EPERM) && !attr.exclude_kernel && !(flags & FC_PERF_OFF_CPU))
    {
      g_atomic_int_set (&kernel_events_refused, TRUE);
      attr.exclude_kernel = 1;
      fd = fc_access_perf_event_open (&attr, tid);
    }
  if (fd < 0 && errno == EMFILE && raise_open_files_limit ())
    fd = fc_access_perf_event_open (&attr, tid);
  if (fd < 0)
    {
      int err = errno;
      struct rlimit nofile;
      if (err == EMFILE && getrlimit (RLIMIT_NOFILE, &nofile) == 0)
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                     _("Cannot open perf events on thread %d: the profiler has %lu files open, its limit "
                     "(RLIMIT_NOFILE, raised to its hard limit); raise the hard limit (`ulimit -Hn`, "
                     "LimitNOFILE= for a service) or record fewer threads"),
                     tid, (unsigned long) nofile.rlim_cur);
      else if (err == ESRCH)
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS,
                     _("Thread %d exited before perf events could be opened on it"), tid);
      else if (fc_access_through_helper (tid))
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                     _("Thread %d is outside Flamecast's sandbox: only flamecast-helper can open its perf events"),
                     tid);
      else
        fc_attach_error_set (error, tid, err, "perf_event_open");
      fc_access_append_refusal (error);
      return NULL;
    }

  self = g_new0 (FcPerfStream, 1);
  self->fd = fd;
  self->period = (flags & FC_PERF_OFF_CPU) ? 0 : attr.sample_period;
  self->tid = tid;
  self->page_size = sysconf (_SC_PAGESIZE);
  self->base = MAP_FAILED;
  if (flags & FC_PERF_NEWEST)
    {
      /* one sample and room for the switches around it; read-only makes the kernel overwrite */
      guint pages = 1;
      while (pages * self->page_size < attr.sample_stack_user + 2048)
        pages *= 2;
      self->data_size = pages * self->page_size;
      self->map_size = self->data_size + self->page_size;
      self->base = mmap (NULL, self->map_size, PROT_READ, MAP_SHARED, fd, 0);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ring_pages) && self->base == MAP_FAILED && !(flags & FC_PERF_NEWEST); i++)
    {
      guint pages = (flags & FC_PERF_SMALL_RING) ? small_ring_pages[MIN (i, G_N_ELEMENTS (small_ring_pages) - 1)]
                                                 : ring_pages[i];
      self->data_size = pages * self->page_size;
      self->map_size = self->data_size + self->page_size;
      self->base = mmap (NULL, self->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
  if (self->base == MAP_FAILED)
    {
      int err = errno;
      close (fd);
      g_free (self);
      /* EPERM past RLIMIT_MEMLOCK, ENOMEM on some kernels: the locked-memory limits, named */
      if (err == EPERM || err == ENOMEM)
        fc_attach_mlock_error_set (error, tid, err);
      else
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NOT_SUPPORTED,
                     _("Cannot map the perf ring buffer of thread %d: %s (use wall mode)"), tid, g_strerror (err));
      return NULL;
    }
  if (self->period > 0)
    set_random_phase (self);
  if (!enable_on_exec)
    fc_perf_stream_enable (self, TRUE);
  return self;
}

/* readable (poll) when the ring is half full */
int
fc_perf_stream_get_fd (FcPerfStream *self)
{
  return self->fd;
}

void
fc_perf_stream_free (FcPerfStream *self)
{
  if (self == NULL)
    return;
  ioctl (self->fd, PERF_EVENT_IOC_DISABLE, 0);
  munmap (self->base, self->map_size);
  close (self->fd);
  g_free (self);
}

/* Streams are opened at attach time, before the rate is known. */
void
fc_perf_stream_set_frequency (FcPerfStream *self,
                              guint         frequency)
{
  if (self->period == 0)
    return;
  self->period = FC_NSEC_PER_SEC / MAX (frequency, 1);
  set_random_phase (self);
}

void
fc_perf_stream_enable (FcPerfStream *self,
                       gboolean      enable)
{
  ioctl (self->fd, enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

static void
ring_copy (const guint8 *data,
           gsize         data_size,
           guint64       pos,
           void         *dest,
           gsize         len)
{
  gsize off = pos % data_size;
  gsize first = MIN (len, data_size - off);

  memcpy (dest, data + off, first);
  if (first < len)
    memcpy ((guint8 *) dest + first, data, len - first);
}

/* A PERF_RECORD_SAMPLE of TID, TIME, READ, REGS_USER and STACK_USER at @pos of the ring, or NULL
 * when it has no user state (taken in a kernel thread's context) or is cut short; *count is the
 * counter's value (0 if cut short) either way. Read in place: the record reserves the whole stack
 * size asked for, of which a sleeping thread fills a few hundred bytes, and copying 32 KiB a
 * sample was most of the sampler's time. */
static FcSnapshot *
parse_sample (const guint8 *data,
              gsize         data_size,
              guint64       pos,
              gsize         rec_size,
              guint64      *count)
{
  /* offsets in the record: pos + rec_size wraps to 0 at the end of a backward ring's first lap */
  guint64 p = sizeof (struct perf_event_header), end = rec_size;
  guint32 pid_tid[2];
  guint64 time, abi, size = 0, dyn_size = 0;
  guint64 regs[G_N_ELEMENTS (reg_map)];
  FcSnapshot *snap;

  *count = 0;
  if (p + 32 > end)
    return NULL;
  ring_copy (data, data_size, pos + p, pid_tid, 8); p += 8;
  ring_copy (data, data_size, pos + p, &time, 8); p += 8;
  ring_copy (data, data_size, pos + p, count, 8); p += 8;
  ring_copy (data, data_size, pos + p, &abi, 8); p += 8;
  if (abi == PERF_SAMPLE_REGS_ABI_NONE || p + sizeof regs > end)
    return NULL;
  ring_copy (data, data_size, pos + p, regs, sizeof regs);
  p += sizeof regs;
  if (p + 8 > end)
    return NULL;
  ring_copy (data, data_size, pos + p, &size, 8); p += 8;
  if (size > 0 && p + size + 8 <= end)
    ring_copy (data, data_size, pos + p + size, &dyn_size, 8);
  dyn_size = MIN (dyn_size, size);

  snap = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, pid_tid[1], dyn_size);
  snap->pid = pid_tid[0];
  snap->time_ns = time;
  /* regs arrive in ascending perf register number order, the order of reg_map sorted by perf */
  for (guint i = 0, k = 0; i <= PERF_REG_X86_R15; i++)
    for (guint j = 0; j < G_N_ELEMENTS (reg_map); j++)
      if (reg_map[j].perf == (int) i)
        snap->regs[reg_map[j].unw] = regs[k++];
  snap->stack_addr = snap->regs[UNW_X86_64_RSP];
  if (dyn_size > 0)
    ring_copy (data, data_size, pos + p, snap->stack, dyn_size);
  return snap;
}

/* The first period is drawn from (0, period] (set_random_phase()), and the kernel keeps it until
 * the sampler next drains the ring and sets the full period: a thread that runs past it gives a
 * burst of samples, up to one every 10 us, and a light thread looked heavy (100 light threads got
 * 119% of their CPU time x rate). Dropping the burst dropped the CPU time it stands for when the
 * drain came late. So a sample is kept when the thread's CPU time (the counter's value) has
 * reached the next multiple of the period past its first sample: the kept ones lie where full
 * periods from the random phase would, however late the drain, and all are kept once the full
 * period is set. Samples the kernel lost are counted as the periods the next kept one skipped. */
static gboolean
keep_sample (FcPerfStream *self,
             guint64       count,
             guint64      *lost)
{
  guint64 skipped;

  if (self->period == 0)
    return TRUE;
  if (self->next_due == 0)
    {
      self->next_due = count + self->period;
      self->lost_pending = 0;
      return TRUE;
    }
  if (count < self->next_due)
    return FALSE;
  skipped = (count - self->next_due) / self->period;
  /* a sample that lands more than a period late without the kernel saying it lost some only
   * drifted (the timer fires a little after its time, and counts on from there) */
  if (self->lost_pending > 0 && lost != NULL)
    *lost += skipped;
  self->lost_pending = 0;
  self->next_due += (skipped + 1) * self->period;
  return TRUE;
}

guint
fc_perf_stream_drain (FcPerfStream   *self,
                      FcSnapshotSink  sink,
                      gpointer        sink_data,
                      guint64        *lost)
{
  return fc_perf_stream_drain_full (self, sink, NULL, sink_data, lost);
}

guint
fc_perf_stream_drain_full (FcPerfStream   *self,
                           FcSnapshotSink  sink,
                           FcPerfSwitchFunc switch_func,
                           gpointer        sink_data,
                           guint64        *lost)
{
  struct perf_event_mmap_page *meta = self->base;
  const guint8 *data = (const guint8 *) self->base + self->page_size;
  gsize data_size = self->data_size;
  guint64 head, tail, count;
  guint n = 0;

  head = __atomic_load_n (&meta->data_head, __ATOMIC_ACQUIRE);
  tail = meta->data_tail;

  while (tail + sizeof (struct perf_event_header) <= head)
    {
      struct perf_event_header hdr;

      ring_copy (data, data_size, tail, &hdr, sizeof hdr);
      if (hdr.size < sizeof hdr || tail + hdr.size > head)
        break;

      if (hdr.type == PERF_RECORD_SAMPLE)
        {
          FcSnapshot *snap = parse_sample (data, data_size, tail, hdr.size, &count);
          /* one taken in a kernel thread's context (no stack) still marks its period */
          gboolean keep = count > 0 && keep_sample (self, count, lost);

          if (snap != NULL && keep)
            {
              sink (snap, sink_data);
              n++;
            }
          else
            g_free (snap);
        }
      else if (hdr.type == PERF_RECORD_COMM && (hdr.misc & PERF_RECORD_MISC_COMM_EXEC))
        {
          guint32 pid_tid[2];
          FcSnapshot *snap;
          ring_copy (data, data_size, tail + sizeof hdr, pid_tid, sizeof pid_tid);
          snap = fc_snapshot_new (FC_SNAPSHOT_EXEC, pid_tid[1], 0);
          snap->pid = pid_tid[0];
          sink (snap, sink_data);
        }
      else if (hdr.type == PERF_RECORD_SWITCH && switch_func != NULL)
        {
          /* no body; the sample_id trailer is pid, tid, time */
          guint64 trailer[2] = { 0, 0 };
          FcPerfSwitch kind = FC_PERF_SWITCH_IN;

          if (hdr.size >= sizeof hdr + sizeof trailer)
            ring_copy (data, data_size, tail + sizeof hdr, trailer, sizeof trailer);
          if (hdr.misc & PERF_RECORD_MISC_SWITCH_OUT)
            kind = (hdr.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? FC_PERF_SWITCH_OUT_PREEMPTED
                                                                    : FC_PERF_SWITCH_OUT_SLEEPING;
          switch_func (kind, (gint64) trailer[1], sink_data);
        }
      else if (hdr.type == PERF_RECORD_LOST)
        {
          guint64 rec[3] = { 0, 0, 0 };
          ring_copy (data, data_size, tail, rec, MIN (sizeof rec, hdr.size));
          if (self->period > 0)
            self->lost_pending += rec[2];   /* counted in periods by the next sample kept */
          else if (lost != NULL)
            *lost += rec[2];
        }
      tail += hdr.size;
    }

  __atomic_store_n (&meta->data_tail, tail, __ATOMIC_RELEASE);
  if (n > 0)
    note_sample (self);
  return n;
}

/* A tick reads the head of every thread's ring, each on a page of its own: a cache and TLB
 * miss apiece, a quarter of the sampler's time at 100 threads (perf record) when taken one
 * after the other in the tick's pass. Asked for in a pass of their own first, the misses
 * overlap. */
void
fc_perf_stream_prefetch (FcPerfStream *self)
{
  struct perf_event_mmap_page *meta = self->base;

  __builtin_prefetch (&meta->data_head);
}

/* A backward ring holds the records newest first from data_head, which counts down from 0: the
 * kernel has written -data_head bytes, the newest data_size of them still there. A record the
 * kernel overwrote while it was read is left out. */
gboolean
fc_perf_stream_read_newest (FcPerfStream  *self,
                            gint64         since_ns,
                            FcSnapshot   **sample,
                            FcPerfSwitch  *switch_kind,
                            gint64        *switch_ns)
{
  struct perf_event_mmap_page *meta = self->base;
  const guint8 *data = (const guint8 *) self->base + self->page_size;
  gsize data_size = self->data_size;
  FcSnapshot *snap = NULL;
  guint64 head, after, avail, off, rec_end = 0;
  gboolean want_switch = switch_kind != NULL;
  gboolean have_rec = FALSE;

  *sample = NULL;
  if (switch_ns != NULL)
    *switch_ns = 0;
  head = __atomic_load_n (&meta->data_head, __ATOMIC_ACQUIRE);
  if (head == self->last_head)
    return FALSE;
  self->last_head = head;
  /* offsets from head: until the ring has wrapped, head + what it holds is 0 again, and an
   * end computed as an address hid the first records of every ring */
  avail = MIN (-head, (guint64) data_size);

  for (off = 0; off + sizeof (struct perf_event_header) + 16 <= avail;)
    {
      struct perf_event_header hdr;
      guint64 time;

      ring_copy (data, data_size, head + off, &hdr, sizeof hdr);
      if (hdr.size < sizeof hdr + 16 || off + hdr.size > avail)
        break;
      /* a sample's time and a switch's sample_id trailer both follow pid and tid */
      ring_copy (data, data_size, head + off + sizeof hdr + 8, &time, sizeof time);
      if ((gint64) time <= since_ns)
        break;
      if (hdr.type == PERF_RECORD_SAMPLE && !have_rec)
        {
          guint64 count;
          snap = parse_sample (data, data_size, head + off, hdr.size, &count);
          rec_end = off + hdr.size;
          have_rec = TRUE;
        }
      else if (hdr.type == PERF_RECORD_SWITCH && want_switch)
        {
          if (hdr.misc & PERF_RECORD_MISC_SWITCH_OUT)
            *switch_kind = (hdr.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? FC_PERF_SWITCH_OUT_PREEMPTED
                                                                          : FC_PERF_SWITCH_OUT_SLEEPING;
          else
            *switch_kind = FC_PERF_SWITCH_IN;
          if (switch_ns != NULL)
            *switch_ns = time;
          want_switch = FALSE;
        }
      if (have_rec && !want_switch)
        break;
      off += hdr.size;
    }

  /* what was written meanwhile took the place of the oldest bytes read */
  after = __atomic_load_n (&meta->data_head, __ATOMIC_ACQUIRE);
  if (snap != NULL && rec_end + (head - after) > data_size)
    g_clear_pointer (&snap, fc_snapshot_free);
  if (snap != NULL)
    {
      *sample = snap;
      note_sample (self);
    }
  return TRUE;
}
