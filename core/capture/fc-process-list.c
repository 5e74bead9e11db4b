/* fc-process-list.c - the processes one could record, read from /proc
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "fc-process-list.h"

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

/* flags (field 9), utime and stime (14 and 15) of stat, counted after the
 * ")" that ends comm (which may itself hold spaces and parentheses). */
static void
read_stat (const char    *stat,
           FcProcessInfo *info)
{
  const char *p = strrchr (stat, ')');
  guint64 utime = 0, stime = 0, flags = 0;

  if (p == NULL)
    return;
  p++;
  for (int field = 3; *p != '\0' && field <= 15; field++)
    {
      char *end;
      while (*p == ' ')
        p++;
      if (field == 9)
        flags = g_ascii_strtoull (p, &end, 10);
      else if (field == 14)
        utime = g_ascii_strtoull (p, &end, 10);
      else if (field == 15)
        stime = g_ascii_strtoull (p, &end, 10);
      else
        end = strchr (p, ' ') ? strchr (p, ' ') : (char *) p + strlen (p);
      p = end;
    }
  info->cpu_ticks = utime + stime;
  info->kernel = (flags & PF_KTHREAD) != 0;
}

static FcProcessInfo *
read_process (const char *proc_root,
              GPid        pid,
              GHashTable *users)
{
  g_autofree char *dir = g_strdup_printf ("%s/%d", proc_root, pid);
  g_autofree char *status_path = g_build_filename (dir, "status", NULL);
  g_autofree char *stat_path = g_build_filename (dir, "stat", NULL);
  g_autofree char *cmdline_path = g_build_filename (dir, "cmdline", NULL);
  g_autofree char *status = NULL;
  g_autofree char *stat = NULL;
  g_autofree char *cmdline = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(FcProcessInfo) info = NULL;
  gsize cmdline_len = 0;

  if (!g_file_get_contents (status_path, &status, NULL, NULL))
    return NULL;
  info = g_new0 (FcProcessInfo, 1);
  info->pid = pid;
  lines = g_strsplit (status, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "Name:"))
        info->name = g_strstrip (g_strdup (lines[i] + 5));
      else if (g_str_has_prefix (lines[i], "Uid:"))
        info->uid = (uid_t) atoi (lines[i] + 4);
      else if (g_str_has_prefix (lines[i], "Threads:"))
        info->n_threads = (guint) atoi (lines[i] + 8);
    }
  if (info->name == NULL)
    return NULL;
  info->user = user_name (info->uid, users);
  if (g_file_get_contents (stat_path, &stat, NULL, NULL))
    read_stat (stat, info);

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
