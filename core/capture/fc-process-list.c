/* fc-process-list.c - the processes one could record, read from /proc
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pwd.h>
#include <stdlib.h>
#include <string.h>

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

static FcProcessInfo *
read_process (const char *proc_root,
              GPid        pid,
              GHashTable *users)
{
  g_autofree char *dir = g_strdup_printf ("%s/%d", proc_root, pid);
  g_autofree char *cmdline_path = g_build_filename (dir, "cmdline", NULL);
  g_auto(FcProcStatus) status = { 0 };
  FcProcStat stat;
  g_autofree char *cmdline = NULL;
  g_autoptr(FcProcessInfo) info = NULL;
  gsize cmdline_len = 0;

  if (!fc_procfs_read_status (dir, &status) || status.name == NULL)
    return NULL;
  info = g_new0 (FcProcessInfo, 1);
  info->pid = pid;
  info->name = g_steal_pointer (&status.name);
  info->uid = (uid_t) MAX (status.uid[0], 0);
  info->n_threads = status.n_threads;
  info->user = user_name (info->uid, users);
  if (fc_procfs_read_stat (dir, &stat))
    {
      info->cpu_ticks = stat.utime + stat.stime;
      info->kernel = (stat.flags & PF_KTHREAD) != 0;
    }

  if (g_file_get_contents (cmdline_path, &cmdline, &cmdline_len, NULL) && cmdline_len > 0)
    {
      /* NUL-separated arguments, usually NUL-terminated */
      for (gsize i = 0; i + 1 < cmdline_len; i++)
        if (cmdline[i] == '\0')
          cmdline[i] = ' ';
      info->cmdline = g_strndup (cmdline, cmdline_len);
      g_strchomp (info->cmdline);
    }
  else
    info->cmdline = g_strdup_printf ("[%s]", info->name);
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
