/* fc-helper-open.c - what the helper opens for a caller, every argument checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The helper runs as root: a caller must not reach through it anything
 * Flamecast does not need. Perf events are rebuilt field by field from a list
 * of what the sampler sets (fc-perf.c), and refused if the caller set anything
 * else; /proc files are named by a word, never by a path, and a file the
 * target maps only by the path its maps show, opened through map_files.
 */

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fc-helper-error.h"
#include "fc-helper-open.h"

/* the sampler copies at most 64 KiB of stack; the kernel caps it a little lower */
#define MAX_STACK_USER 65528
/* a clock sample every 100 us at most (10 kHz): more would load the target, not inform */
#define MIN_CLOCK_PERIOD_NS 100000

/* READ (with read_format 0, which the copy below keeps): the event's own count, the thread's CPU
 * time, by which cpu mode thins a stream's first-period burst */
static const guint64 allowed_sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                           PERF_SAMPLE_READ | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

gboolean
fc_helper_check_process (int      pid,
                         GError **error)
{
  g_autofree char *path = NULL;

  if (pid <= 0)
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT, "%d is not a process id", pid);
      return FALSE;
    }
  if (pid == getpid ())
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT,
                   "Process %d is flamecast-helper itself", pid);
      return FALSE;
    }
  /* /proc/TID exists for threads too, though only processes are listed */
  path = g_strdup_printf ("/proc/%d/stat", pid);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_NO_PROCESS, "No process or thread %d", pid);
      return FALSE;
    }
  return TRUE;
}

guint64
fc_helper_process_start_time (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *stat = NULL;
  const char *p;
  guint64 start = 0;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (p = strrchr (stat, ')')) == NULL)
    return 0;
  /* after the name: state is field 3, starttime field 22 */
  if (sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %" G_GUINT64_FORMAT,
              &start) != 1)
    return 0;
  return start;
}

/* The caller's attributes rebuilt from the fields Flamecast uses; FALSE if they ask for more. */
static gboolean
clean_attr (const struct perf_event_attr *in,
            struct perf_event_attr       *out,
            GError                      **error)
{
  const char *problem = NULL;

  memset (out, 0, sizeof *out);
  out->size = sizeof *out;
  out->type = in->type;
  out->config = in->config;
  out->sample_period = in->sample_period;
  out->sample_type = in->sample_type;
  out->sample_regs_user = in->sample_regs_user;
  out->sample_stack_user = in->sample_stack_user;
  out->disabled = in->disabled;
  out->enable_on_exec = in->enable_on_exec;
  out->exclude_kernel = in->exclude_kernel;
  out->exclude_hv = in->exclude_hv;
  out->use_clockid = in->use_clockid;
  out->clockid = in->clockid;
  out->watermark = in->watermark;
  out->wakeup_watermark = in->wakeup_watermark;
  out->comm = in->comm;
  out->comm_exec = in->comm_exec;
  out->write_backward = in->write_backward;
  out->context_switch = in->context_switch;
  out->sample_id_all = in->sample_id_all;

  if (in->type != PERF_TYPE_SOFTWARE)
    problem = "only software events are opened";
  else if (in->config != PERF_COUNT_SW_CPU_CLOCK && in->config != PERF_COUNT_SW_TASK_CLOCK &&
           in->config != PERF_COUNT_SW_CONTEXT_SWITCHES && in->config != PERF_COUNT_SW_DUMMY)
    problem = "only the cpu and task clocks and context switches are opened";
  else if (in->config != PERF_COUNT_SW_CONTEXT_SWITCHES && in->config != PERF_COUNT_SW_DUMMY &&
           in->sample_period < MIN_CLOCK_PERIOD_NS)
    problem = "the sample period is shorter than 100 us";
  else if (in->sample_period == 0 && in->config != PERF_COUNT_SW_DUMMY)
    problem = "the sample period is 0";
  else if (in->sample_type & ~allowed_sample_type)
    problem = "only the thread, time, instruction pointer, counter, user registers and user stack are sampled";
  else if (in->sample_stack_user > MAX_STACK_USER || in->sample_stack_user % 8 != 0)
    problem = "the user stack copy is larger than 65528 bytes or not a multiple of 8";
  else if (in->use_clockid && in->clockid != CLOCK_MONOTONIC)
    problem = "the only clock is CLOCK_MONOTONIC";
  else if (memcmp (in, out, sizeof *out) != 0)
    problem = "it sets fields Flamecast never uses";
  if (problem == NULL)
    return TRUE;
  g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT, "Perf event refused: %s", problem);
  return FALSE;
}

int
fc_helper_open_perf (GBytes  *attr,
                     int      tid,
                     GError **error)
{
  struct perf_event_attr in, clean;
  gsize len;
  const void *data = g_bytes_get_data (attr, &len);
  int fd;

  if (len != sizeof in)
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT,
                   "Perf event attributes of %" G_GSIZE_FORMAT " bytes; this helper takes %" G_GSIZE_FORMAT,
                   len, sizeof in);
      return -1;
    }
  memcpy (&in, data, sizeof in);
  if (!fc_helper_check_process (tid, error) || !clean_attr (&in, &clean, error))
    return -1;
  /* one thread, any CPU, no group, no cgroup */
  fd = syscall (SYS_perf_event_open, &clean, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, FC_HELPER_ERROR, err == ESRCH ? FC_HELPER_ERROR_NO_PROCESS : FC_HELPER_ERROR_FAILED,
                   "perf_event_open on thread %d: %s", tid, g_strerror (err));
    }
  return fd;
}

/* what a sandboxed Flamecast reads of the host's process or thread: its maps and memory (which
 * the kernel guards), its state, name, scheduling counters and command line (which ps shows
 * everyone), and its program (also in its maps) */
static const char * const proc_names[] = { "maps", "mem", "stat", "status", "comm", "schedstat", "cmdline", "exe" };

static gboolean
is_proc_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (proc_names); i++)
    if (g_strcmp0 (name, proc_names[i]) == 0)
      return TRUE;
  return FALSE;
}

static int
open_or_fail (const char *path,
              int         flags,
              GError    **error)
{
  struct stat st;
  int fd = open (path, flags);

  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, FC_HELPER_ERROR, err == ENOENT || err == ESRCH ? FC_HELPER_ERROR_NO_PROCESS
                                                                        : FC_HELPER_ERROR_FAILED,
                   "Cannot open %s: %s", path, g_strerror (err));
      return -1;
    }
  /* only regular files (and /proc's, which are regular too) go out: never a directory, a
   * socket or a device a path could lead to */
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT, "%s is not a regular file", path);
      return -1;
    }
  return fd;
}

int
fc_helper_open_proc (int         pid,
                     const char *name,
                     GError    **error)
{
  g_autofree char *path = NULL;

  if (!is_proc_name (name))
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT,
                   "Only a process's maps, mem, stat, status, comm, schedstat, cmdline and exe are opened, "
                   "not \"%s\"", name);
      return -1;
    }
  if (!fc_helper_check_process (pid, error))
    return -1;
  path = g_strdup_printf ("/proc/%d/%s", pid, name);
  /* exe is the kernel's link to the program it runs: followed, it is that file */
  return open_or_fail (path, O_RDONLY | O_CLOEXEC | (g_strcmp0 (name, "exe") == 0 ? 0 : O_NOFOLLOW), error);
}

int
fc_helper_open_mapped (int         pid,
                       const char *path,
                       GError    **error)
{
  g_autofree char *maps_path = NULL;
  g_autofree char *maps = NULL;
  g_autofree char *file = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *line;

  if (path == NULL || path[0] != '/')
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT, "\"%s\" is not an absolute path",
                   path != NULL ? path : "");
      return -1;
    }
  if (!fc_helper_check_process (pid, error))
    return -1;
  maps_path = g_strdup_printf ("/proc/%d/maps", pid);
  if (!g_file_get_contents (maps_path, &maps, NULL, &local_error))
    {
      g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_NO_PROCESS, "Cannot read %s: %s", maps_path,
                   local_error->message);
      return -1;
    }
  for (line = maps; line != NULL && *line != '\0'; line = strchr (line, '\n'), line = line != NULL ? line + 1 : NULL)
    {
      unsigned long start, end;
      int path_at = 0;
      const char *eol = strchrnul (line, '\n');

      if (sscanf (line, "%lx-%lx %*s %*s %*s %*s %n", &start, &end, &path_at) < 2 || path_at == 0 ||
          (gsize) (eol - line - path_at) != strlen (path) || memcmp (line + path_at, path, strlen (path)) != 0)
        continue;
      /* the file the mapping holds, whatever its path leads to now (replaced, another mount
       * namespace): the kernel's link to it, followed */
      file = g_strdup_printf ("/proc/%d/map_files/%lx-%lx", pid, start, end);
      return open_or_fail (file, O_RDONLY | O_CLOEXEC, error);
    }
  g_set_error (error, FC_HELPER_ERROR, FC_HELPER_ERROR_INVALID_ARGUMENT, "Process %d maps no file at %s", pid, path);
  return -1;
}

/* at most this many threads are listed: more than the kernel's default limit per process */
#define MAX_THREADS (1 << 20)

GVariant *
fc_helper_list_threads (int      pid,
                        GError **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GArray) tids = NULL;
  struct dirent *de;
  DIR *dir;

  if (!fc_helper_check_process (pid, error))
    return NULL;
  path = g_strdup_printf ("/proc/%d/task", pid);
  if ((dir = opendir (path)) == NULL)
    {
      int err = errno;
      g_set_error (error, FC_HELPER_ERROR, err == ENOENT || err == ESRCH ? FC_HELPER_ERROR_NO_PROCESS
                                                                        : FC_HELPER_ERROR_FAILED,
                   "Cannot list %s: %s", path, g_strerror (err));
      return NULL;
    }
  tids = g_array_new (FALSE, FALSE, sizeof (gint32));
  while ((de = readdir (dir)) != NULL && tids->len < MAX_THREADS)
    {
      gint32 tid = atoi (de->d_name);
      if (tid > 0)
        g_array_append_val (tids, tid);
    }
  closedir (dir);
  return g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, tids->data, tids->len, sizeof (gint32));
}

int
fc_helper_open_pidfd (int      pid,
                      GError **error)
{
  int fd;

  if (!fc_helper_check_process (pid, error))
    return -1;
  fd = syscall (SYS_pidfd_open, pid, 0);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, FC_HELPER_ERROR, err == ESRCH ? FC_HELPER_ERROR_NO_PROCESS : FC_HELPER_ERROR_FAILED,
                   "pidfd_open on process %d: %s", pid, g_strerror (err));
    }
  return fd;
}
