/* helper-read.c - reads another process's maps and memory through fc-access, for test-helper
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: helper-read PID. Run as a user who may not read PID: prints the first
 * line of its maps and whether its first mapping starts with an ELF header, as
 * read through the file descriptors flamecast-helper opened.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamecast.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *maps = NULL;
  unsigned long long start;
  char magic[4];
  int pid;

  if (argc != 2 || (pid = atoi (argv[1])) <= 0)
    return 2;
  fc_access_set_use_helper (TRUE);
  maps = fc_access_read_maps (pid, &error);
  if (maps == NULL)
    {
      printf ("maps: %s\n", error->message);
      return 1;
    }
  if (sscanf (maps, "%llx-", &start) != 1)
    return 1;
  printf ("maps: %.*s\n", (int) strcspn (maps, "\n"), maps);
  if (!fc_access_read_memory (pid, start, magic, sizeof magic))
    {
      printf ("memory: unreadable\n");
      return 1;
    }
  printf ("memory: %s\n", memcmp (magic, "\177ELF", 4) == 0 ? "ELF header" : "something else");
  return 0;
}
