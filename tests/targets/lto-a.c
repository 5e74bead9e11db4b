/* lto-a.c - a program built with link-time optimisation, whose hot loop inlines a function
 * of another file (lto-b.c): its DWARF names the inlined function's origin in another
 * compilation unit, as in Debian's python3.11
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Usage: lto [SECONDS]
 * Prints the address of lto_outer() on a line, then loops for SECONDS (default 1).
 */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern unsigned long lto_helper (unsigned long x);

static volatile unsigned long sink;

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) unsigned long
lto_outer (unsigned long n)
{
  unsigned long acc = 0;

  for (unsigned long i = 0; i < n; i++)
    acc += lto_helper (i);   /* LTO_CALL_SITE */
  return acc;
}

int
main (int    argc,
      char **argv)
{
  double end = now () + (argc > 1 ? atof (argv[1]) : 1.0);

  printf ("%p\n", (void *) lto_outer);
  fflush (stdout);
  while (now () < end)
    sink += lto_outer (1000000 + (sink & 1));
  return 0;
}
