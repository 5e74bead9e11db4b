/* plugin.c - a small shared library that dlopen.c loads after the profiler attached
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

unsigned long plugin_burn (int rounds);

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long
plugin_burn (int rounds)
{
  unsigned long acc = sink;
  for (long i = 0; i < (long) rounds * 100000; i++)
    {
      acc = acc * 6364136223846793005ul + 1;
      __asm__ volatile ("" : "+r" (acc));
    }
  sink = acc;
  return acc;
}
