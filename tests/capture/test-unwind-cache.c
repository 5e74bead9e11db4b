/* test-unwind-cache.c - a remembered walk answers only a stack that reads the same
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Synthetic snapshots: a walk is stored with what it read (two registers, two stack words);
 * a later snapshot gets its frames back when everything it read is the same, and a miss
 * when any of it, the maps' generation, the stack's place or its length differ.
 */

#include <libunwind.h>
#include <string.h>

#include "fc-unwind-cache.h"

#define STACK_ADDR 0x7ffc0000u
#define STACK_LEN  256

static FcSnapshot *
snapshot_new (void)
{
  FcSnapshot *snap = fc_snapshot_new (FC_SNAPSHOT_SAMPLE, 42, STACK_LEN);

  for (guint i = 0; i < STACK_LEN; i++)
    snap->stack[i] = (guint8) (i * 7 + 1);
  snap->stack_addr = STACK_ADDR;
  snap->regs[UNW_X86_64_RIP] = 0x401000;
  snap->regs[UNW_X86_64_RSP] = STACK_ADDR;
  snap->regs[UNW_X86_64_RBP] = STACK_ADDR + 64;
  snap->regs[UNW_X86_64_RAX] = 5;
  return snap;
}

static FcSnapshot *
snapshot_copy (const FcSnapshot *snap)
{
  return g_memdup2 (snap, sizeof (FcSnapshot) + snap->stack_len);
}

static guint64
word_at (const FcSnapshot *snap,
         guint64           addr)
{
  guint64 value;

  memcpy (&value, snap->stack + (addr - snap->stack_addr), sizeof value);
  return value;
}

static void
set_word (FcSnapshot *snap,
          guint64     addr,
          guint64     value)
{
  memcpy (snap->stack + (addr - snap->stack_addr), &value, sizeof value);
}

/* The walk of @snap: it read RSP, RBP and the words at +8 and +72 */
static void
store_walk (FcUnwindCache    *cache,
            const FcSnapshot *snap,
            guint             generation,
            gboolean          forget)
{
  g_autofree FcUnwindReads *reads = g_new0 (FcUnwindReads, 1);
  const guint64 ips[] = { 0x401000, 0x402345, 0x403456 };

  fc_unwind_reads_note_reg (reads, UNW_X86_64_RSP);
  fc_unwind_reads_note_reg (reads, UNW_X86_64_RBP);
  fc_unwind_reads_note_word (reads, STACK_ADDR + 8, word_at (snap, STACK_ADDR + 8));
  fc_unwind_reads_note_word (reads, STACK_ADDR + 72, word_at (snap, STACK_ADDR + 72));
  reads->forget = forget;
  fc_unwind_cache_store (cache, snap, generation, reads, ips, G_N_ELEMENTS (ips), 64, TRUE);
}

static guint
lookup (FcUnwindCache    *cache,
        const FcSnapshot *snap,
        guint             generation)
{
  guint64 ips[64];
  gboolean complete = FALSE;
  guint n = fc_unwind_cache_lookup (cache, snap, generation, ips, G_N_ELEMENTS (ips), &complete);

  if (n > 0)
    {
      g_assert_cmpuint (n, ==, 3);
      g_assert_cmphex (ips[0], ==, 0x401000);
      g_assert_cmphex (ips[1], ==, 0x402345);
      g_assert_cmphex (ips[2], ==, 0x403456);
      g_assert_true (complete);
    }
  return n;
}

static void
test_exact (void)
{
  g_autoptr(FcUnwindCache) cache = fc_unwind_cache_new ();
  g_autofree FcSnapshot *snap = snapshot_new ();
  g_autofree FcSnapshot *other = NULL;
  guint64 hits, misses;

  g_assert_cmpuint (lookup (cache, snap, 1), ==, 0);
  store_walk (cache, snap, 1, FALSE);
  g_assert_cmpuint (lookup (cache, snap, 1), ==, 3);

  /* a word the walk did not read (a local), a register it did not read: the same frames */
  other = snapshot_copy (snap);
  set_word (other, STACK_ADDR + 16, 0xdeadbeef);
  other->regs[UNW_X86_64_RAX] = 99;
  g_assert_cmpuint (lookup (cache, other, 1), ==, 3);
  g_clear_pointer (&other, g_free);

  /* a word it read */
  other = snapshot_copy (snap);
  set_word (other, STACK_ADDR + 72, word_at (snap, STACK_ADDR + 72) + 1);
  g_assert_cmpuint (lookup (cache, other, 1), ==, 0);
  g_clear_pointer (&other, g_free);

  /* a register it read */
  other = snapshot_copy (snap);
  other->regs[UNW_X86_64_RBP] += 8;
  g_assert_cmpuint (lookup (cache, other, 1), ==, 0);
  g_clear_pointer (&other, g_free);

  /* another place, another length, other maps */
  other = snapshot_copy (snap);
  other->regs[UNW_X86_64_RIP] += 1;
  g_assert_cmpuint (lookup (cache, other, 1), ==, 0);
  other->regs[UNW_X86_64_RIP] -= 1;
  other->stack_len -= 8;
  g_assert_cmpuint (lookup (cache, other, 1), ==, 0);
  g_assert_cmpuint (lookup (cache, snap, 2), ==, 0);

  fc_unwind_cache_get_counts (cache, &hits, &misses);
  g_assert_cmpuint (hits, ==, 2);
  g_assert_cmpuint (misses, ==, 6);
}

/* A walk that read the live target is not kept; a cleared cache answers nothing */
static void
test_forget (void)
{
  g_autoptr(FcUnwindCache) cache = fc_unwind_cache_new ();
  g_autofree FcSnapshot *snap = snapshot_new ();

  store_walk (cache, snap, 1, TRUE);
  g_assert_cmpuint (lookup (cache, snap, 1), ==, 0);
  store_walk (cache, snap, 1, FALSE);
  g_assert_cmpuint (lookup (cache, snap, 1), ==, 3);
  fc_unwind_cache_clear (cache);
  g_assert_cmpuint (lookup (cache, snap, 1), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/unwind-cache/exact", test_exact);
  g_test_add_func ("/core/unwind-cache/forget", test_forget);
  return g_test_run ();
}
