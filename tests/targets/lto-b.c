/* lto-b.c - the function lto-a.c's loop inlines across files at link time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

unsigned long lto_helper (unsigned long x);

unsigned long
lto_helper (unsigned long x)
{
  unsigned long v = x * 2862933555777941757ul + 3037000493ul;

  __asm__ volatile ("" : "+r" (v));   /* LTO_HELPER_LINE */
  return v ^ (v >> 7);
}
