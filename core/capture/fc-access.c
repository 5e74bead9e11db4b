/* fc-access.c - how capture opens what the kernel guards: directly, or through flamecast-helper
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Called from the sampler thread (perf events), the recorder's worker (maps,
 * memory) and the main thread (attach): everything shared is under one lock,
 * never held across a D-Bus call.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n-lib.h>

#include "fc-access.h"
#include "fc-attach-check.h"
#include "fc-capture-error.h"

/* a polkit agent may show a password dialog: the user's time, not ours */
#define HELPER_TIMEOUT_MS (120 * 1000)
/* /proc/PID/maps of a process with a million mappings is ~100 MiB; the recorder never needs that */
#define MAPS_MAX_BYTES (64 * 1024 * 1024)

static GMutex lock;
static gboolean use_helper;
static char *refusal;         /* the helper's answer was no, or it is not there: not asked again */
static GHashTable *notes;     /* pid -> why it was opened through the helper */
static GHashTable *mem_fds;   /* pid -> its /proc/PID/mem from the helper, + 1 */

void
fc_access_set_use_helper (gboolean use)
{
  g_mutex_lock (&lock);
  use_helper = use;
  g_mutex_unlock (&lock);
}

gboolean
fc_access_get_use_helper (void)
{
  gboolean use;

  g_mutex_lock (&lock);
  use = use_helper;
  g_mutex_unlock (&lock);
  return use;
}

enum { NOT_SANDBOXED = 1, FLATPAK, FORCED };

static gsize
sandbox_kind (void)
{
  static gsize kind;

  if (g_once_init_enter (&kind))
    g_once_init_leave (&kind, g_strcmp0 (g_getenv ("FLAMECAST_FORCE_SANDBOX"), "1") == 0 ? FORCED
                              : g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS)      ? FLATPAK
                                                                                        : NOT_SANDBOXED);
  return kind;
}

gboolean
fc_access_is_sandboxed (void)
{
  return sandbox_kind () != NOT_SANDBOXED;
}

gboolean
fc_access_through_helper (int pid)
{
  if (!fc_access_is_sandboxed () || !fc_access_get_use_helper ())
    return FALSE;
  /* a process of the sandbox's own (one it launched) is ours to open; the host's is not in our
   * PID namespace. Forced, every process is taken for the host's. */
  return sandbox_kind () == FORCED || pid <= 0 || (kill (pid, 0) != 0 && errno == ESRCH);
}

void
fc_access_begin_attach (int pid)
{
  g_mutex_lock (&lock);
  g_clear_pointer (&refusal, g_free);
  if (notes != NULL)
    g_hash_table_remove (notes, GINT_TO_POINTER (pid));
  g_mutex_unlock (&lock);
}

char *
fc_access_dup_refusal (void)
{
  char *copy;

  g_mutex_lock (&lock);
  copy = g_strdup (refusal);
  g_mutex_unlock (&lock);
  return copy;
}

void
fc_access_append_refusal (GError **error)
{
  g_autofree char *why = fc_access_dup_refusal ();
  char *message;

  if (error == NULL || *error == NULL || why == NULL || strstr ((*error)->message, why) != NULL)
    return;
  message = g_strdup_printf ("%s; %s", (*error)->message, why);
  g_free ((*error)->message);
  (*error)->message = message;
}

void
fc_access_append_sandbox_hint (GError **error)
{
  char *message;

  if (error == NULL || *error == NULL || !fc_access_is_sandboxed () || fc_access_get_use_helper ())
    return;
  message = g_strdup_printf (_("%s. Flamecast runs in a sandbox whose /proc holds only its own processes: the "
                               "host's are recorded through flamecast-helper, which was not to be asked "
                               "(--no-helper)"), (*error)->message);
  g_free ((*error)->message);
  (*error)->message = message;
}

char *
fc_access_dup_helper_note (int pid)
{
  char *copy = NULL;

  g_mutex_lock (&lock);
  if (notes != NULL)
    copy = g_strdup (g_hash_table_lookup (notes, GINT_TO_POINTER (pid)));
  g_mutex_unlock (&lock);
  return copy;
}

static void
close_fd (gpointer data)
{
  close (GPOINTER_TO_INT (data) - 1);
}

void
fc_access_forget (int pid)
{
  g_mutex_lock (&lock);
  if (mem_fds != NULL)
    g_hash_table_remove (mem_fds, GINT_TO_POINTER (pid));
  g_mutex_unlock (&lock);
}

/* The process a thread belongs to: notes are per process, perf events per thread. */
static int
thread_group (int tid)
{
  g_autofree char *status = fc_access_read_proc (tid, 0, "status", NULL);
  const char *line;
  int tgid;

  if (status == NULL || (line = strstr (status, "\nTgid:")) == NULL || sscanf (line + 6, "%d", &tgid) != 1)
    return tid;
  return tgid;
}

static gboolean
may_ask_helper (void)
{
  gboolean may;

  g_mutex_lock (&lock);
  may = use_helper && refusal == NULL;
  g_mutex_unlock (&lock);
  return may;
}

static void
note_opened (int         pid,
             const char *what,
             int         direct_errno)
{
  gboolean sandboxed = fc_access_through_helper (pid);

  g_mutex_lock (&lock);
  if (notes == NULL)
    notes = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  /* ptrace's refusal is the one that decides wall mode: it is named over perf events' */
  if (sandboxed && !g_hash_table_contains (notes, GINT_TO_POINTER (pid)))
    g_hash_table_insert (notes, GINT_TO_POINTER (pid),
                         g_strdup_printf (_("Process %d was recorded through flamecast-helper (sandboxed): "
                                            "Flamecast runs in a sandbox that does not see the host's "
                                            "processes, and polkit authorised the helper"), pid));
  else if (!sandboxed && (!g_hash_table_contains (notes, GINT_TO_POINTER (pid)) || g_strcmp0 (what, "ptrace") == 0))
    g_hash_table_insert (notes, GINT_TO_POINTER (pid),
                         g_strdup_printf (_("Process %d was recorded through flamecast-helper: %s was refused "
                                            "to this user (%s) and polkit authorised the helper"),
                                          pid, what, g_strerror (direct_errno)));
  g_mutex_unlock (&lock);
}

/* Remembers why the helper gave nothing: once it said no (or is not there), a recording does not
 * ask it again for each thread, and a polkit agent does not prompt again. */
static void
note_refused (int           pid,
              const GError *error)
{
  g_autofree char *remote = g_dbus_error_get_remote_error (error);
  g_autofree char *message = NULL;

  if (g_strcmp0 (remote, FC_HELPER_INTERFACE ".Error.NoProcess") == 0)
    return;   /* a thread that ended: the next one is worth asking for */
  if (g_strcmp0 (remote, FC_HELPER_INTERFACE ".Error.NotAuthorized") == 0)
    message = g_strdup_printf (_("flamecast-helper was asked to open process %d and polkit did not authorise "
                                 "it (action %s)"), pid, FC_HELPER_ACTION_ID);
  else if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
           g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    message = g_strdup_printf (_("flamecast-helper, which can open it with polkit's consent, is not installed "
                                 "or the system bus is not reachable (%s)"), error->message);
  else
    {
      g_autoptr(GError) plain = g_error_copy (error);

      g_dbus_error_strip_remote_error (plain);
      message = g_strdup_printf (_("flamecast-helper could not open process %d: %s"), pid, plain->message);
    }
  g_mutex_lock (&lock);
  if (refusal == NULL)
    refusal = g_steal_pointer (&message);
  g_mutex_unlock (&lock);
}

/* The system bus, kept: GIO drops its shared connection with the last reference, and the helper
 * keeps polkit's yes for one connection, so a new one for each call would ask polkit each time. */
static GDBusConnection *
system_bus (GError **error)
{
  static GDBusConnection *bus;
  GDBusConnection *ref = NULL;

  g_mutex_lock (&lock);
  if (bus != NULL && g_dbus_connection_is_closed (bus))
    g_clear_object (&bus);
  if (bus == NULL)
    bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, error);
  if (bus != NULL)
    ref = g_object_ref (bus);
  g_mutex_unlock (&lock);
  return ref;
}

/* What a user is told when the helper gave nothing for @pid: the refusal kept for the recording,
 * or for a thread that ended (not kept) the helper's own words. */
static char *
refused_why (int     pid,
             GError *error)
{
  char *why;

  note_refused (pid, error);
  why = fc_access_dup_refusal ();
  if (why != NULL)
    return why;
  g_dbus_error_strip_remote_error (error);
  return g_strdup (error->message);
}

/* One helper method; its reply of @reply_type, or NULL with @error. */
static GVariant *
helper_call (const char         *method,
             GVariant           *params,
             const GVariantType *reply_type,
             GUnixFDList       **fds,
             GError            **error)
{
  g_autoptr(GDBusConnection) bus = NULL;
  GVariant *reply = NULL;

  g_variant_ref_sink (params);
  bus = system_bus (error);
  if (bus != NULL)
    reply = g_dbus_connection_call_with_unix_fd_list_sync (bus, FC_HELPER_BUS_NAME, FC_HELPER_OBJECT_PATH,
                                                           FC_HELPER_INTERFACE, method, params, reply_type,
                                                           G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
                                                           HELPER_TIMEOUT_MS, NULL, fds, NULL, error);
  g_variant_unref (params);
  return reply;
}

/* One helper method that returns a file descriptor; -1 with @error otherwise. */
static int
helper_open (const char *method,
             GVariant   *params,
             GError    **error)
{
  g_autoptr(GUnixFDList) fds = NULL;
  g_autoptr(GVariant) reply = NULL;
  gint32 handle;

  reply = helper_call (method, params, G_VARIANT_TYPE ("(h)"), &fds, error);
  if (reply == NULL)
    return -1;
  g_variant_get (reply, "(h)", &handle);
  if (fds == NULL || handle < 0 || handle >= g_unix_fd_list_get_length (fds))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "flamecast-helper answered %s without a file", method);
      return -1;
    }
  return g_unix_fd_list_get (fds, handle, error);
}

static int
helper_open_proc (int         pid,
                  const char *name,
                  int         direct_errno)
{
  g_autoptr(GError) error = NULL;
  int fd;

  if (!may_ask_helper ())
    return -1;
  fd = helper_open ("OpenProcFile", g_variant_new ("(is)", pid, name), &error);
  if (fd < 0)
    note_refused (pid, error);
  else
    note_opened (pid, name, direct_errno);
  return fd;
}

/* Whether the kernel refuses @tid itself, not only the kernel events @attr asks for: a user's own
 * thread under perf_event_paranoid 2 never needs the helper (nor a polkit prompt). */
static gboolean
thread_refused (int tid)
{
  struct perf_event_attr probe = { 0 };
  int fd;

  probe.size = sizeof probe;
  probe.type = PERF_TYPE_SOFTWARE;
  probe.config = PERF_COUNT_SW_DUMMY;
  probe.disabled = 1;
  probe.exclude_kernel = 1;
  probe.exclude_hv = 1;
  fd = syscall (SYS_perf_event_open, &probe, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd >= 0)
    close (fd);
  return fd < 0 && (errno == EACCES || errno == EPERM);
}

int
fc_access_perf_event_open (struct perf_event_attr *attr,
                           int                     tid)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *remote = NULL;
  int fd, err;

  if (fc_access_through_helper (tid))
    err = 0;   /* the host's thread: not in our PID namespace */
  else
    {
      fd = syscall (SYS_perf_event_open, attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
      if (fd >= 0 || (errno != EACCES && errno != EPERM) || !may_ask_helper ())
        return fd;
      err = errno;
      if (!thread_refused (tid))
        {
          errno = err;
          return -1;
        }
    }
  if (!may_ask_helper ())
    {
      errno = EACCES;
      return -1;
    }
  fd = helper_open ("PerfEventOpen",
                    g_variant_new ("(@ayi)",
                                   g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, attr, sizeof *attr, 1),
                                   tid),
                    &error);
  if (fd >= 0)
    {
      note_opened (thread_group (tid), "perf_event_open", err);
      return fd;
    }
  note_refused (thread_group (tid), error);
  /* the kernel's answer stands where the helper's was no */
  remote = g_dbus_error_get_remote_error (error);
  errno = g_strcmp0 (remote, FC_HELPER_INTERFACE ".Error.NoProcess") == 0 ? ESRCH : err != 0 ? err : EACCES;
  return -1;
}

GPtrArray *
fc_access_sample_threads (int         pid,
                          const int  *tids,
                          guint       n_tids,
                          guint       stack_bytes,
                          int         ptrace_errno,
                          GError    **error)
{
  g_autoptr(GPtrArray) snaps = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GVariantIter) iter = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) regs = NULL;
  g_autoptr(GVariant) stack = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *why = NULL;
  gint32 tid;
  gint64 t;

  g_return_val_if_fail (n_tids > 0, NULL);

  if (!may_ask_helper ())
    {
      why = fc_access_dup_refusal ();
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION, "%s",
                   why != NULL ? why : _("flamecast-helper is not to be asked (--no-helper)"));
      return NULL;
    }
  reply = helper_call ("SampleThreads",
                       g_variant_new ("(i@aiu)", pid,
                                      g_variant_new_fixed_array (G_VARIANT_TYPE_INT32, tids, n_tids, sizeof (int)),
                                      stack_bytes),
                       G_VARIANT_TYPE ("(a(ixatay))"), NULL, &local_error);
  if (reply == NULL)
    {
      why = refused_why (pid, local_error);
      g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION, "%s", why);
      return NULL;
    }
  note_opened (pid, "ptrace", ptrace_errno);
  g_variant_get (reply, "(a(ixatay))", &iter);
  while (g_variant_iter_next (iter, "(ix@at@ay)", &tid, &t, &regs, &stack))
    {
      gsize n_regs, len;
      const guint64 *r = g_variant_get_fixed_array (regs, &n_regs, sizeof (guint64));
      const guint8 *bytes = g_variant_get_fixed_array (stack, &len, 1);
      FcSnapshot *snap;

      /* the helper is trusted, but a reply is still checked before it is used */
      if (n_regs == FC_SNAPSHOT_N_REGS && len <= stack_bytes)
        {
          snap = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, tid, len);
          snap->pid = pid;
          snap->time_ns = t;
          memcpy (snap->regs, r, sizeof snap->regs);
          snap->stack_addr = r[7];   /* RSP */
          memcpy (snap->stack, bytes, len);
          g_ptr_array_add (snaps, snap);
        }
      g_clear_pointer (&regs, g_variant_unref);
      g_clear_pointer (&stack, g_variant_unref);
    }
  return g_steal_pointer (&snaps);
}

gboolean
fc_access_needs_helper (int           pid,
                        FcSamplerMode mode)
{
  g_autoptr(GError) error = NULL;

  if (fc_access_through_helper (pid))
    return TRUE;
  return fc_access_get_use_helper () && !fc_attach_check (pid, mode, &error) &&
         g_error_matches (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION);
}

GPtrArray *
fc_access_list_processes (FcProcessSource  *source,
                          GError          **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) processes = NULL;
  g_autofree char *remote = NULL;
  GPtrArray *list;
  guint32 left_out;

  *source = FC_PROCESS_SOURCE_PROC;
  if (!fc_access_through_helper (0))
    return fc_process_list_read ("/proc");
  *source = FC_PROCESS_SOURCE_HELPER;
  reply = helper_call ("ListProcesses", g_variant_new ("()"), G_VARIANT_TYPE ("(" FC_PROCESS_LIST_TYPE "u)"), NULL,
                       &local_error);
  if (reply == NULL)
    {
      remote = g_dbus_error_get_remote_error (local_error);
      g_dbus_error_strip_remote_error (local_error);
      if (g_strcmp0 (remote, FC_HELPER_INTERFACE ".Error.NotAuthorized") == 0)
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                     _("Flamecast runs in a sandbox that does not see the host's processes, and polkit did not "
                       "authorise flamecast-helper to list them (action %s)"), FC_HELPER_LIST_ACTION_ID);
      else
        g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION,
                     _("Flamecast runs in a sandbox that does not see the host's processes, and flamecast-helper, "
                       "which lists them, is not installed on the host or did not answer (%s)"),
                     local_error->message);
      return NULL;
    }
  g_variant_get (reply, "(@" FC_PROCESS_LIST_TYPE "u)", &processes, &left_out);
  /* the helper is trusted, but what it says is still checked before it is shown */
  list = fc_process_list_from_variant (processes, &local_error);
  if (list == NULL)
    g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_FAILED,
                 _("flamecast-helper listed the host's processes wrongly: %s"), local_error->message);
  else if (left_out > 0)
    g_debug ("flamecast-helper left %u processes out of its list", left_out);
  return list;
}

static void
authorize_thread_cb (GTask        *task,
                     gpointer      source,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  int pid = GPOINTER_TO_INT (task_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;
  int fd;

  /* the user asked again: an earlier no is not the answer to this question */
  fc_access_begin_attach (pid);
  /* the lightest call that needs polkit's yes: it stops nothing */
  fd = helper_open ("OpenProcFile", g_variant_new ("(is)", pid, "maps"), &error);
  if (fd >= 0)
    {
      close (fd);
      g_task_return_boolean (task, TRUE);
      return;
    }
  why = refused_why (pid, error);
  g_task_return_new_error (task, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_PERMISSION, "%s", why);
}

void
fc_access_authorize_async (int                 pid,
                           GCancellable       *cancellable,
                           GAsyncReadyCallback callback,
                           gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, fc_access_authorize_async);
  g_task_set_task_data (task, GINT_TO_POINTER (pid), NULL);
  g_task_run_in_thread (task, authorize_thread_cb);
}

gboolean
fc_access_authorize_finish (GAsyncResult *result,
                            GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
read_all (int     fd,
          gsize  *len);

/* errno for the helper's answer: gone, or refused (the reason kept by note_refused()) */
static int
helper_errno (const GError *error)
{
  g_autofree char *remote = g_dbus_error_get_remote_error (error);

  return g_strcmp0 (remote, FC_HELPER_INTERFACE ".Error.NoProcess") == 0 ? ESRCH : EACCES;
}

/* One of the helper's files of @pid (@name for OpenProcFile, @path for OpenMappedFile, or a
 * pidfd): -1 with errno when there is none. */
static int
helper_open_for (int         pid,
                 const char *method,
                 GVariant   *params)
{
  g_autoptr(GError) error = NULL;
  int fd;

  g_variant_ref_sink (params);
  if (!may_ask_helper ())
    {
      g_variant_unref (params);
      errno = EACCES;
      return -1;
    }
  fd = helper_open (method, params, &error);
  g_variant_unref (params);
  if (fd >= 0)
    {
      note_opened (pid, method, 0);
      return fd;
    }
  note_refused (pid, error);
  errno = helper_errno (error);
  return -1;
}

int
fc_access_open_proc (int         pid,
                     int         tid,
                     const char *name)
{
  char path[96];

  g_return_val_if_fail (name != NULL, -1);

  /* /proc/TID is the thread's own, as /proc/PID/task/TID is */
  if (fc_access_through_helper (pid))
    return helper_open_for (pid, "OpenProcFile", g_variant_new ("(is)", tid > 0 ? tid : pid, name));
  if (tid > 0)
    g_snprintf (path, sizeof path, "/proc/%d/task/%d/%s", pid, tid, name);
  else
    g_snprintf (path, sizeof path, "/proc/%d/%s", pid, name);
  return open (path, O_RDONLY | O_CLOEXEC);
}

char *
fc_access_read_proc (int         pid,
                     int         tid,
                     const char *name,
                     gsize      *len)
{
  int fd = fc_access_open_proc (pid, tid, name);
  gsize ignored;
  char *text;
  int err;

  if (fd < 0)
    return NULL;
  text = read_all (fd, len != NULL ? len : &ignored);
  err = errno;
  close (fd);
  errno = err;
  return text;
}

gboolean
fc_access_process_exists (int pid)
{
  int fd;

  if (!fc_access_through_helper (pid))
    return kill (pid, 0) == 0 || errno != ESRCH;
  fd = fc_access_open_proc (pid, 0, "stat");
  if (fd >= 0)
    close (fd);
  return fd >= 0 || errno != ESRCH;
}

GArray *
fc_access_list_threads (int pid)
{
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) list = NULL;
  g_autoptr(GError) error = NULL;
  char path[64];
  struct dirent *de;
  DIR *dir;

  if (fc_access_through_helper (pid))
    {
      const gint32 *ids;
      gsize n;

      if (!may_ask_helper ())
        return tids;
      reply = helper_call ("ListThreads", g_variant_new ("(i)", pid), G_VARIANT_TYPE ("(ai)"), NULL, &error);
      if (reply == NULL)
        {
          note_refused (pid, error);
          return tids;
        }
      list = g_variant_get_child_value (reply, 0);
      ids = g_variant_get_fixed_array (list, &n, sizeof (gint32));
      for (gsize i = 0; i < n; i++)
        if (ids[i] > 0)
          g_array_append_val (tids, ids[i]);
      return tids;
    }
  g_snprintf (path, sizeof path, "/proc/%d/task", pid);
  if ((dir = opendir (path)) == NULL)
    return tids;
  while ((de = readdir (dir)) != NULL)
    {
      int tid = atoi (de->d_name);
      if (tid > 0)
        g_array_append_val (tids, tid);
    }
  closedir (dir);
  return tids;
}

int
fc_access_open_pidfd (int pid)
{
  if (fc_access_through_helper (pid))
    return helper_open_for (pid, "OpenPidfd", g_variant_new ("(i)", pid));
#ifdef SYS_pidfd_open
  return syscall (SYS_pidfd_open, pid, 0);
#else
  errno = ENOSYS;
  return -1;
#endif
}

int
fc_access_open_mapped (int         pid,
                       const char *path)
{
  g_return_val_if_fail (path != NULL, -1);

  if (fc_access_through_helper (pid))
    return helper_open_for (pid, "OpenMappedFile", g_variant_new ("(is)", pid, path));
  return open (path, O_RDONLY | O_CLOEXEC);
}

static char *
read_all (int     fd,
          gsize  *len)
{
  g_autoptr(GByteArray) text = g_byte_array_new ();
  guint8 chunk[16384];
  ssize_t n;

  while ((n = read (fd, chunk, sizeof chunk)) > 0 && text->len < MAPS_MAX_BYTES)
    g_byte_array_append (text, chunk, n);
  if (n < 0)
    return NULL;
  *len = text->len;
  g_byte_array_append (text, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (g_steal_pointer (&text), FALSE);
}

char *
fc_access_read_maps (int      pid,
                     GError **error)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/maps", pid);
  g_autoptr(GError) local_error = NULL;
  char *contents = NULL;
  gsize len;
  int fd;

  if (fc_access_through_helper (pid))
    g_set_error_literal (&local_error, G_FILE_ERROR, G_FILE_ERROR_ACCES,
                         _("the host's process is outside the sandbox"));
  else if (g_file_get_contents (path, &contents, NULL, &local_error))
    return contents;
  if ((g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
       g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_PERM)) &&
      (fd = helper_open_proc (pid, "maps", EACCES)) >= 0)
    {
      contents = read_all (fd, &len);
      close (fd);
      if (contents != NULL)
        return contents;
    }
  g_set_error (error, FC_SAMPLER_ERROR, FC_SAMPLER_ERROR_NO_PROCESS, _("Cannot read %s: %s"), path,
               local_error->message);
  fc_access_append_refusal (error);
  return NULL;
}

/* /proc/PID/mem from the helper, opened once per process and kept: it reads the memory of the
 * program the process ran when it was opened, so after an exec it reads nothing and is opened
 * again. */
static int
mem_fd (int      pid,
        gboolean reopen)
{
  int fd = -1;

  g_mutex_lock (&lock);
  if (mem_fds == NULL)
    mem_fds = g_hash_table_new_full (NULL, NULL, NULL, close_fd);
  if (reopen)
    g_hash_table_remove (mem_fds, GINT_TO_POINTER (pid));
  else
    fd = GPOINTER_TO_INT (g_hash_table_lookup (mem_fds, GINT_TO_POINTER (pid))) - 1;
  g_mutex_unlock (&lock);
  if (fd >= 0 || !reopen)
    return fd;
  fd = helper_open_proc (pid, "mem", EPERM);
  if (fd < 0)
    return -1;
  g_mutex_lock (&lock);
  g_hash_table_replace (mem_fds, GINT_TO_POINTER (pid), GINT_TO_POINTER (fd + 1));
  g_mutex_unlock (&lock);
  return fd;
}

gboolean
fc_access_read_memory (int      pid,
                       guint64  addr,
                       void    *buf,
                       gsize    len)
{
  struct iovec local = { buf, len }, remote = { GSIZE_TO_POINTER (addr), len };
  ssize_t got;
  int fd;

  if (addr > G_MAXINT64 - len)
    return FALSE;
  fd = mem_fd (pid, FALSE);
  if (fd < 0 && fc_access_through_helper (pid) && (fd = mem_fd (pid, TRUE)) < 0)
    return FALSE;
  if (fd < 0)
    {
      if (process_vm_readv (pid, &local, 1, &remote, 1, 0) == (ssize_t) len)
        return TRUE;
      if ((errno != EPERM && errno != EACCES) || (fd = mem_fd (pid, TRUE)) < 0)
        return FALSE;
    }
  got = pread (fd, buf, len, (off_t) addr);
  if (got == (ssize_t) len)
    return TRUE;
  /* nothing at all (not EIO, an unmapped page): the program it held is gone, the process exec'd */
  if (got != 0 || (fd = mem_fd (pid, TRUE)) < 0)
    return FALSE;
  return pread (fd, buf, len, (off_t) addr) == (ssize_t) len;
}
