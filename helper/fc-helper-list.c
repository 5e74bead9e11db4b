/* fc-helper-list.c - the host's processes for a sandboxed caller, as ps would show them to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A Flatpak has a PID namespace of its own: its /proc lists only the sandbox.
 * The helper reads the host's /proc with core's reader (fc-process-list.c,
 * compiled in) and keeps back what the caller could not read there itself:
 * the kernel lets anyone read a process's stat, status and cmdline, but its
 * exe link only to who may ptrace-read it, and with hidepid nothing of other
 * users' processes.
 */

#include <string.h>

#include "fc-helper-list.h"
#include "fc-process-list.h"

/* Whether the procfs at @proc_root hides other users' processes (mount option hidepid=1 or 2,
 * "noaccess" or "invisible" since Linux 5.8); its gid= exemption is not honoured: fewer shown. */
static gboolean
proc_hides_others (const char *proc_root)
{
  g_autofree char *mounts = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/mounts", &mounts, NULL, NULL))
    return FALSE;
  lines = g_strsplit (mounts, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", 5);

      if (g_strv_length (fields) < 4 || g_strcmp0 (fields[2], "proc") != 0 ||
          g_strcmp0 (fields[1], proc_root) != 0)
        continue;
      return strstr (fields[3], "hidepid=1") != NULL || strstr (fields[3], "hidepid=2") != NULL ||
             strstr (fields[3], "hidepid=noaccess") != NULL || strstr (fields[3], "hidepid=invisible") != NULL;
    }
  return FALSE;
}

GVariant *
fc_helper_list_processes (const char *proc_root,
                          guint32     uid,
                          gboolean    see_all)
{
  g_autoptr(GPtrArray) list = fc_process_list_read (proc_root);
  gboolean hidden = !see_all && proc_hides_others (proc_root);
  GVariant *processes;
  guint left_out;

  for (guint i = list->len; i-- > 0;)
    {
      FcProcessInfo *info = g_ptr_array_index (list, i);

      if (see_all || info->uid == uid)
        continue;
      if (hidden)
        g_ptr_array_remove_index (list, i);
      else
        g_clear_pointer (&info->exe, g_free);
    }
  processes = fc_process_list_to_variant (list, FC_HELPER_LIST_MAX_BYTES, &left_out);
  return g_variant_new ("(@" FC_PROCESS_LIST_TYPE "u)", processes, left_out);
}
