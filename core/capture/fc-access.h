/* fc-access.h - how capture opens what the kernel guards: directly, or through flamecast-helper
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Perf events on another user's thread, its /proc/PID/maps and its memory are
 * refused to an unprivileged profiler (perf_event_paranoid 2, ptrace_scope 1,
 * another uid). flamecast-helper, a D-Bus system service, opens them with its
 * rights once polkit says yes and hands the file descriptors back; the kernel
 * checks access when they are opened, so they read for us afterwards. Every
 * opening goes direct first: the helper is asked only when that is refused,
 * and only once the app or the CLI allowed it (fc_access_set_use_helper()).
 * Sandboxed (a Flatpak, fc_access_is_sandboxed()), the host's processes are
 * not in our PID namespace: the helper lists them and opens every one of
 * them, without a direct try first.
 */

#pragma once

#include <gio/gio.h>
#include <linux/perf_event.h>

#include "fc-process-list.h"
#include "fc-sampler.h"

#include "fc-snapshot.h"

G_BEGIN_DECLS

#define FC_HELPER_BUS_NAME    "io.github.flamecast.Helper"
#define FC_HELPER_OBJECT_PATH "/io/github/flamecast/Helper"
#define FC_HELPER_INTERFACE   "io.github.flamecast.Helper1"
#define FC_HELPER_ACTION_ID   "io.github.flamecast.Flamecast.record-other-process"
#define FC_HELPER_LIST_ACTION_ID "io.github.flamecast.Flamecast.list-processes"

/* Process-wide; off until the app or the CLI turns it on (tests and library users never see a
 * polkit prompt they did not ask for). */
void      fc_access_set_use_helper     (gboolean                use);
gboolean  fc_access_get_use_helper     (void);

/* Whether Flamecast runs in a sandbox with a PID namespace of its own: /.flatpak-info exists (a
 * Flatpak), or FLAMECAST_FORCE_SANDBOX=1 (tests, on a host whose processes we could open). Read
 * once. */
gboolean  fc_access_is_sandboxed       (void);
/* Whether @pid is opened through the helper without a direct try: sandboxed, the helper may be
 * asked, and @pid is the host's (not in our PID namespace; any pid when forced; @pid 0: the
 * host's processes as a whole). */
gboolean  fc_access_through_helper     (int                     pid);
/* The processes one could record (fc-process-list.h), by pid: the host's from the helper when
 * fc_access_through_helper (0), else this process's /proc; *@source says which. NULL with @error
 * (FC_SAMPLER_ERROR_PERMISSION) when the helper is not there or polkit refused. Blocking: call it
 * from a worker. */
GPtrArray *fc_access_list_processes    (FcProcessSource        *source,
                                        GError                **error);

/* Whether attaching to @pid in @mode will go through the helper: sandboxed, or the kernel
 * refuses it to this user (fc_attach_check()), and the helper may be asked. */
gboolean  fc_access_needs_helper       (int                     pid,
                                        FcSamplerMode           mode);
/* Asks the helper about @pid before an attach, on a thread of its own: polkit's prompt never
 * blocks the caller's main loop, and its yes is kept for the attach's own calls (the helper keeps
 * it for this process's bus connection). FALSE from _finish() with the refusal in @error
 * (FC_SAMPLER_ERROR_PERMISSION: "polkit did not authorise ..."). */
void      fc_access_authorize_async    (int                     pid,
                                        GCancellable           *cancellable,
                                        GAsyncReadyCallback     callback,
                                        gpointer                user_data);
gboolean  fc_access_authorize_finish   (GAsyncResult           *result,
                                        GError                **error);

/* A new attach to @pid: the helper may be asked again after an earlier refusal, and @pid's note
 * is cleared. */
void      fc_access_begin_attach       (int                     pid);

/* perf_event_open (@attr, @tid, -1, -1, PERF_FLAG_FD_CLOEXEC): the fd, or -1 with errno set
 * (EACCES when both the kernel and the helper refused; fc_access_dup_refusal() says why). */
int       fc_access_perf_event_open    (struct perf_event_attr *attr,
                                        int                     tid);
/* The whole text of /proc/@pid/maps, or NULL with @error naming the file and the cause. */
char     *fc_access_read_maps          (int                     pid,
                                        GError                **error);
/* @len bytes of @pid's memory at @addr (process_vm_readv, else /proc/PID/mem from the helper). */
gboolean  fc_access_read_memory        (int                     pid,
                                        guint64                 addr,
                                        void                   *buf,
                                        gsize                   len);
/* Wall mode where this user may not ptrace @pid (@ptrace_errno, PTRACE_SEIZE's answer): the helper
 * stops each of @tids once, copies its registers and @stack_bytes of its stack and lets it go.
 * The samples (#FcSnapshot, FC_SNAPSHOT_SAMPLE, g_free()) of the threads it stopped, or NULL with
 * @error when the helper is not to be asked, is not there or refused (fc_access_dup_refusal()). */
GPtrArray *fc_access_sample_threads    (int                     pid,
                                        const int              *tids,
                                        guint                   n_tids,
                                        guint                   stack_bytes,
                                        int                     ptrace_errno,
                                        GError                **error);
/* The helper's last refusal since fc_access_begin_attach() ("polkit did not authorise ..."), or NULL. */
char     *fc_access_dup_refusal        (void);
/* Adds the helper's refusal, if any, to an error about direct access being refused. */
void      fc_access_append_refusal     (GError                **error);
/* Sandboxed with the helper not to be asked (--no-helper): adds to an error about a missing
 * process that the host's processes are not in the sandbox. */
void      fc_access_append_sandbox_hint (GError               **error);
/* Why @pid was opened through the helper ("direct access was refused: ..."), or NULL if it was not. */
char     *fc_access_dup_helper_note    (int                     pid);
/* What capture reads of a target besides its memory: directly from our /proc and file system,
 * or, for a sandboxed Flamecast and the host's process (fc_access_through_helper()), from the
 * helper, since neither our /proc nor our /usr holds the host's. Blocking. */

/* /proc/@pid/@name, or /proc/@pid/task/@tid/@name when @tid > 0, read-only: an fd, or -1 with
 * errno set (ESRCH: gone; EACCES: refused, the helper's answer kept for fc_access_dup_refusal()).
 * @name: stat, status, comm, schedstat, cmdline or exe (maps and mem have their own calls). */
int       fc_access_open_proc          (int                     pid,
                                        int                     tid,
                                        const char             *name);
/* The whole of that file (at most 64 MiB), or NULL with errno set. */
char     *fc_access_read_proc          (int                     pid,
                                        int                     tid,
                                        const char             *name,
                                        gsize                  *len);
/* Whether @pid exists (as far as one can tell: a refusal is not an answer, and says TRUE). */
gboolean  fc_access_process_exists     (int                     pid);
/* @pid's threads (an array of int), empty when it is gone. */
GArray   *fc_access_list_threads       (int                     pid);
/* A pidfd of @pid (readable when it exits), or -1. */
int       fc_access_open_pidfd         (int                     pid);
/* The file @pid maps at @path (as its maps name it), read-only: an fd, or -1 with errno set. */
int       fc_access_open_mapped        (int                     pid,
                                        const char             *path);

/* Closes what is kept open for @pid (its memory file), when a recording of it ends. */
void      fc_access_forget             (int                     pid);

G_END_DECLS
