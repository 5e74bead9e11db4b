/* helper-list.c - lists processes through fc-access as the picker does, for test-helper
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: helper-list PID... Run with FLAMECAST_FORCE_SANDBOX=1 as a user of
 * the test's choosing: prints where the list came from ("source: helper" or
 * "source: proc") and, for each PID, the fields the list holds for it; or the
 * refusal, with exit status 1.
 */

#include <stdio.h>
#include <stdlib.h>

#include "flamecast.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list = NULL;
  FcProcessSource source;

  if (argc < 2)
    return 2;
  fc_access_set_use_helper (TRUE);
  list = fc_access_list_processes (&source, &error);
  if (list == NULL)
    {
      printf ("refused: %s\n", error->message);
      return 1;
    }
  printf ("source: %s\n", source == FC_PROCESS_SOURCE_HELPER ? "helper" : "proc");
  printf ("processes: %u\n", list->len);
  for (int a = 1; a < argc; a++)
    {
      int pid = atoi (argv[a]);
      gboolean found = FALSE;

      for (guint i = 0; i < list->len; i++)
        {
          FcProcessInfo *info = g_ptr_array_index (list, i);

          if (info->pid != pid)
            continue;
          found = TRUE;
          printf ("pid %d: ppid %d uid %u user %s name %s threads %u start %" G_GUINT64_FORMAT " kernel %d exe [%s] "
                  "cmdline [%s]\n", info->pid, info->ppid, (guint) info->uid, info->user, info->name,
                  info->n_threads, info->start_time, info->kernel, info->exe, info->cmdline);
        }
      if (!found)
        printf ("pid %d: not listed\n", pid);
    }
  return 0;
}
