/* fc-helper-ptrace.c - one stop of some threads of a process: attach, copy registers and stack, detach
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The helper holds no thread between calls: each call seizes the threads it is
 * given, interrupts them all (so they are held in parallel, each for about as
 * long as one stop), copies what a sample needs and detaches. A thread is
 * never made to run anything, and a signal that arrives meanwhile goes on to
 * it at the detach. Only registers and stack words are read; nothing is
 * written.
 */

#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fc-helper-error.h"
#include "fc-helper-open.h"
#include "fc-helper-ptrace.h"

#ifndef PTRACE_EVENT_STOP
# define PTRACE_EVENT_STOP 128
#endif

#define N_REGS 17   /* libunwind's x86-64 numbering: RAX, RDX, RCX, RBX, RSI, RDI, RBP, RSP, R8-R15, RIP */

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static gboolean
is_thread_of (int pid,
              int tid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task/%d", pid, tid);

  return tid > 0 && g_file_test (path, G_FILE_TEST_IS_DIR);
}

/* The stopped thread's registers and stack, as one "(ixatay)"; NULL if it cannot be read. */
static GVariant *
copy_thread (int     tid,
             guint32 stack_bytes)
{
  struct user_regs_struct r;
  struct iovec io = { &r, sizeof r };
  struct iovec local[FC_HELPER_MAX_STACK_BYTES / 4096 + 1], remote[G_N_ELEMENTS (local)];
  g_autofree guint8 *stack = g_malloc (MAX (stack_bytes, 1));
  guint64 regs[N_REGS];
  guint64 addr;
  gsize total = 0;
  guint n = 0;
  ssize_t got;
  gint64 t;

  if (ptrace (PTRACE_GETREGSET, tid, (void *) NT_PRSTATUS, &io) != 0)
    return NULL;
  t = now_ns ();
  regs[0] = r.rax; regs[1] = r.rdx; regs[2] = r.rcx; regs[3] = r.rbx;
  regs[4] = r.rsi; regs[5] = r.rdi; regs[6] = r.rbp; regs[7] = r.rsp;
  regs[8] = r.r8; regs[9] = r.r9; regs[10] = r.r10; regs[11] = r.r11;
  regs[12] = r.r12; regs[13] = r.r13; regs[14] = r.r14; regs[15] = r.r15;
  regs[16] = r.rip;
  /* page by page, so an unmapped page ends the copy instead of failing it */
  addr = r.rsp;
  while (total < stack_bytes && n < G_N_ELEMENTS (remote))
    {
      gsize chunk = MIN (stack_bytes - total, 4096 - (addr & 4095));

      local[n].iov_base = stack + total;
      local[n].iov_len = chunk;
      remote[n].iov_base = GSIZE_TO_POINTER (addr);
      remote[n].iov_len = chunk;
      addr += chunk;
      total += chunk;
      n++;
    }
  got = n > 0 ? process_vm_readv (tid, local, n, remote, n, 0) : 0;
  return g_variant_new ("(ix@at@ay)", tid, t,
                        g_variant_new_fixed_array (G_VARIANT_TYPE_UINT64, regs, N_REGS, sizeof regs[0]),
                        g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, stack, got > 0 ? got : 0, 1));
}

/* How long one call waits for its threads to stop: a thread in the kernel (in D state, or a vfork
 * parent waiting for its child) stops only when it comes out, which may be never; the call
 * answers by then without it. A few ms a thread over a base, bounded in all. */
#define STOP_BASE_NS       (20 * G_GINT64_CONSTANT (1000000))
#define STOP_PER_THREAD_NS (2 * G_GINT64_CONSTANT (1000000))
#define STOP_MAX_NS        (250 * G_GINT64_CONSTANT (1000000))

/* @tid reported @status: when it is a stop, copies it into @builder and detaches. TRUE when @tid
 * is done with (stopped and let go, or ended). */
static gboolean
take_stop (int              tid,
           int              status,
           guint32          stack_bytes,
           GVariantBuilder *builder)
{
  GVariant *sample;
  int sig = 0;

  if (WIFEXITED (status) || WIFSIGNALED (status))
    return TRUE;
  if (!WIFSTOPPED (status))
    return FALSE;
  /* a signal that came before our interrupt is delivered at the detach; a group-stop
   * (PTRACE_EVENT_STOP with SIGSTOP...) stays in force after it */
  if ((status >> 16) != PTRACE_EVENT_STOP)
    sig = WSTOPSIG (status);
  sample = builder != NULL ? copy_thread (tid, stack_bytes) : NULL;
  if (sample != NULL)
    g_variant_builder_add_value (builder, sample);
  ptrace (PTRACE_DETACH, tid, NULL, GINT_TO_POINTER (sig));
  return TRUE;
}

void
fc_helper_release_threads (GArray *late)
{
  for (guint i = 0; late != NULL && i < late->len; i++)
    {
      int tid = g_array_index (late, int, i);
      int status;

      /* its interrupt is pending: it stops as it leaves the kernel, and is let go at once */
      for (;;)
        {
          if (waitpid (tid, &status, __WALL) < 0)
            {
              if (errno == EINTR)
                continue;
              break;
            }
          if (take_stop (tid, status, 0, NULL))
            break;
        }
    }
}

GVariant *
fc_helper_sample_threads (int       pid,
                          GVariant *tids,
                          guint32   stack_bytes,
                          GArray  **late,
                          GError  **error)
{
  g_autoptr(GArray) seized = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  g_autofree char *leader = NULL;
  GVariantBuilder builder;
  const gint32 *list;
  gsize n;
  int first_errno = 0;
  gint64 deadline;

  g_return_val_if_fail (late != NULL && *late == NULL, NULL);

  if (!fc_helper_check_process (pid, error))
    return NULL;
  leader = g_strdup_printf ("/proc/%d/task/%d", pid, pid);
  if (!g_file_test (leader, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT,
                   "%d is a thread, not a process: name its process", pid);
      return NULL;
    }
  list = g_variant_get_fixed_array (tids, &n, sizeof (gint32));
  if (n == 0 || n > FC_HELPER_MAX_THREADS)
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT,
                   "%" G_GSIZE_FORMAT " threads asked for; one call stops 1 to %d", n, FC_HELPER_MAX_THREADS);
      return NULL;
    }
  if (stack_bytes > FC_HELPER_MAX_STACK_BYTES)
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT,
                   "%u stack bytes asked for; at most %d are copied", stack_bytes, FC_HELPER_MAX_STACK_BYTES);
      return NULL;
    }
  /* a thread of another process is refused; one that ended since the caller listed it is not */
  for (gsize i = 0; i < n; i++)
    if (!is_thread_of (pid, list[i]) && (list[i] <= 0 || fc_helper_process_start_time (list[i]) != 0))
      {
        g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT,
                     "%d is not a thread of process %d", list[i], pid);
        return NULL;
      }

  /* every thread seized and interrupted before the first is waited for: they stop in parallel */
  for (gsize i = 0; i < n; i++)
    {
      int tid = list[i];

      if (!g_hash_table_add (seen, GINT_TO_POINTER (tid)) || !is_thread_of (pid, tid))
        continue;
      if (ptrace (PTRACE_SEIZE, tid, NULL, NULL) != 0)
        {
          if (first_errno == 0 && errno != ESRCH)
            first_errno = errno;
          continue;
        }
      if (ptrace (PTRACE_INTERRUPT, tid, NULL, NULL) != 0)
        {
          /* it is exiting: its exit is reaped (and it detached) below */
          if (first_errno == 0 && errno != ESRCH)
            first_errno = errno;
        }
      g_array_append_val (seized, tid);
    }
  if (seized->len == 0 && first_errno != 0)
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_FAILED,
                   "Cannot attach to process %d: %s%s", pid, g_strerror (first_errno),
                   first_errno == EPERM ? " (another debugger or profiler traces it)" : "");
      return NULL;
    }

  /* each taken as it stops, until all have or the deadline passed; those left are the caller's to
   * release (fc_helper_release_threads()) once it has answered */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ixatay)"));
  deadline = now_ns () + MIN (STOP_BASE_NS + (gint64) seized->len * STOP_PER_THREAD_NS, STOP_MAX_NS);
  for (;;)
    {
      for (guint i = 0; i < seized->len;)
        {
          int tid = g_array_index (seized, int, i);
          int status = 0;
          pid_t got = waitpid (tid, &status, __WALL | WNOHANG);

          if ((got < 0 && errno != EINTR) || (got == tid && take_stop (tid, status, stack_bytes, &builder)))
            g_array_remove_index_fast (seized, i);
          else
            i++;
        }
      if (seized->len == 0 || now_ns () >= deadline)
        break;
      g_usleep (100);
    }
  *late = g_steal_pointer (&seized);
  return g_variant_builder_end (&builder);
}
