/* fc-process-list.c - the processes one could record, read from /proc
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fc-process-list.h"
#include "fc-procfs.h"

void
fc_process_info_free (FcProcessInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->user);
  g_free (info->name);
  g_free (info->cmdline);
  g_free (info->exe);
  g_free (info);
}

static char *
user_name (uid_t       uid,
           GHashTable *cache)
{
  const char *cached = g_hash_table_lookup (cache, GUINT_TO_POINTER (uid + 1));
  struct passwd pw, *result = NULL;
  char buf[1024];
  char *name;

  if (cached != NULL)
    return g_strdup (cached);
  if (getpwuid_r (uid, &pw, buf, sizeof buf, &result) == 0 && result != NULL)
    name = g_strdup (result->pw_name);
  else
    name = g_strdup_printf ("%u", (guint) uid);
  g_hash_table_insert (cache, GUINT_TO_POINTER (uid + 1), g_strdup (name));
  return name;
}

#define PF_KTHREAD 0x00200000   /* include/linux/sched.h: a kernel thread */

/* /proc/PID/cmdline, at most FC_PROCESS_CMDLINE_MAX bytes: a program may hold megabytes there */
static char *
read_cmdline (const char *path)
{
  char buf[FC_PROCESS_CMDLINE_MAX];
  gsize len = 0;
  ssize_t n = 1;
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return NULL;
  while (len < sizeof buf && (n = read (fd, buf + len, sizeof buf - len)) > 0)
    len += n;
  close (fd);
  if (n < 0 || len == 0)
    return NULL;
  /* NUL-separated arguments, usually NUL-terminated */
  for (gsize i = 0; i < len; i++)
    if (buf[i] == '\0')
      buf[i] = ' ';
  return g_strchomp (g_strndup (buf, len));
}

static FcProcessInfo *
read_process (const char *proc_root,
              GPid        pid,
              GHashTable *users)
{
  g_autofree char *dir = g_strdup_printf ("%s/%d", proc_root, pid);
  g_autofree char *cmdline_path = g_build_filename (dir, "cmdline", NULL);
  g_autofree char *exe_path = g_build_filename (dir, "exe", NULL);
  g_auto(FcProcStatus) status = { 0 };
  FcProcStat stat;
  g_autoptr(FcProcessInfo) info = NULL;

  if (!fc_procfs_read_status (dir, &status) || status.name == NULL)
    return NULL;
  info = g_new0 (FcProcessInfo, 1);
  info->pid = pid;
  info->name = g_steal_pointer (&status.name);
  info->ppid = MAX (status.ppid, 0);
  info->uid = (uid_t) MAX (status.uid[0], 0);
  info->n_threads = status.n_threads;
  info->user = user_name (info->uid, users);
  if (fc_procfs_read_stat (dir, &stat))
    {
      info->cpu_ticks = stat.utime + stat.stime;
      info->kernel = (stat.flags & PF_KTHREAD) != 0;
      info->start_time = stat.start_time;
    }
  if ((info->cmdline = read_cmdline (cmdline_path)) == NULL)
    info->cmdline = g_strdup_printf ("[%s]", info->name);
  if ((info->exe = g_file_read_link (exe_path, NULL)) == NULL)
    info->exe = g_strdup ("");
  return g_steal_pointer (&info);
}

static int
compare_pid (gconstpointer a,
             gconstpointer b)
{
  const FcProcessInfo *pa = *(FcProcessInfo **) a;
  const FcProcessInfo *pb = *(FcProcessInfo **) b;

  return (pa->pid > pb->pid) - (pa->pid < pb->pid);
}

GPtrArray *
fc_process_list_read (const char *proc_root)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_process_info_free);
  g_autoptr(GHashTable) users = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GDir) dir = NULL;
  const char *entry;

  g_return_val_if_fail (proc_root != NULL, list);

  dir = g_dir_open (proc_root, 0, NULL);
  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      char *end;
      guint64 pid = g_ascii_strtoull (entry, &end, 10);
      FcProcessInfo *info;

      if (*end != '\0' || pid == 0 || pid > G_MAXINT)
        continue;
      if ((info = read_process (proc_root, (GPid) pid, users)) != NULL)
        g_ptr_array_add (list, info);
    }
  g_ptr_array_sort (list, compare_pid);
  return list;
}

static char *
valid_utf8 (const char *text)
{
  return g_utf8_make_valid (text != NULL ? text : "", -1);
}

GVariant *
fc_process_list_to_variant (GPtrArray *list,
                            gsize      max_bytes,
                            guint     *n_left_out)
{
  GVariantBuilder builder;
  gsize bytes = 0;
  guint i;

  g_variant_builder_init (&builder, G_VARIANT_TYPE (FC_PROCESS_LIST_TYPE));
  for (i = 0; i < list->len; i++)
    {
      FcProcessInfo *info = g_ptr_array_index (list, i);
      g_autofree char *user = valid_utf8 (info->user);
      g_autofree char *name = valid_utf8 (info->name);
      g_autofree char *cmdline = valid_utf8 (info->cmdline);
      g_autofree char *exe = valid_utf8 (info->exe);

      bytes += strlen (user) + strlen (name) + strlen (cmdline) + strlen (exe) + 64;
      if (bytes > max_bytes)
        break;
      g_variant_builder_add (&builder, "(iiussssuttb)", (gint32) info->pid, (gint32) info->ppid,
                             (guint32) info->uid, user, name, cmdline, exe, (guint32) info->n_threads,
                             info->cpu_ticks, info->start_time, info->kernel);
    }
  if (n_left_out != NULL)
    *n_left_out = list->len - i;
  return g_variant_builder_end (&builder);
}

/* a user or command name: a line of at most 256 bytes (comm is 16, a user name 32) */
#define SHORT_MAX 256

static gboolean
check_text (const char  *text,
            gsize        max,
            const char  *field,
            gint32       pid,
            GError     **error)
{
  if (strlen (text) <= max && (max > SHORT_MAX || strchr (text, '\n') == NULL))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "process %d: its %s is longer than %" G_GSIZE_FORMAT " bytes or spans lines", pid, field, max);
  return FALSE;
}

GPtrArray *
fc_process_list_from_variant (GVariant  *variant,
                              GError   **error)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_process_info_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GVariantIter iter;
  const char *user, *name, *cmdline, *exe;
  gint32 pid, ppid;
  guint32 uid, n_threads;
  guint64 cpu_ticks, start_time;
  gboolean kernel;

  if (!g_variant_is_of_type (variant, G_VARIANT_TYPE (FC_PROCESS_LIST_TYPE)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "a process list of type %s, not %s",
                   g_variant_get_type_string (variant), FC_PROCESS_LIST_TYPE);
      return NULL;
    }
  g_variant_iter_init (&iter, variant);
  while (g_variant_iter_next (&iter, "(iiu&s&s&s&suttb)", &pid, &ppid, &uid, &user, &name, &cmdline, &exe,
                              &n_threads, &cpu_ticks, &start_time, &kernel))
    {
      FcProcessInfo *info;

      if (pid <= 0 || ppid < 0 || g_hash_table_contains (seen, GINT_TO_POINTER (pid)))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "process %d (parent %d): not a process id, or listed twice", pid, ppid);
          return NULL;
        }
      if (!check_text (user, SHORT_MAX, "user name", pid, error) ||
          !check_text (name, SHORT_MAX, "name", pid, error) ||
          !check_text (cmdline, FC_PROCESS_CMDLINE_MAX + SHORT_MAX, "command line", pid, error) ||
          !check_text (exe, 4096, "program path", pid, error))
        return NULL;
      g_hash_table_add (seen, GINT_TO_POINTER (pid));
      info = g_new0 (FcProcessInfo, 1);
      info->pid = pid;
      info->ppid = ppid;
      info->uid = uid;
      info->user = g_strdup (user);
      info->name = g_strdup (name);
      info->cmdline = g_strdup (cmdline);
      info->exe = g_strdup (exe);
      info->n_threads = n_threads;
      info->cpu_ticks = cpu_ticks;
      info->start_time = start_time;
      info->kernel = kernel;
      g_ptr_array_add (list, info);
    }
  g_ptr_array_sort (list, compare_pid);
  return g_steal_pointer (&list);
}
