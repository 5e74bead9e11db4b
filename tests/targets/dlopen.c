/* dlopen.c - waits, then dlopen()s a library and burns CPU inside it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: dlopen LIBRARY SECONDS. Prints "ready" before loading the library.
 */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  unsigned long (*burn) (int);
  void *handle;
  double end;

  if (argc < 3)
    return 2;
  printf ("ready\n");
  fflush (stdout);
  usleep (300 * 1000);
  handle = dlopen (argv[1], RTLD_NOW);
  if (handle == NULL)
    {
      fprintf (stderr, "%s\n", dlerror ());
      return 1;
    }
  burn = (unsigned long (*) (int)) dlsym (handle, "plugin_burn");
  end = now () + atof (argv[2]);
  while (now () < end)
    burn (1);
  printf ("dlopen done\n");
  return 0;
}
