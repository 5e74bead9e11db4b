/* fc-unwind-cache.c - remembers walks of stacks that did not change where the walk looked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thread that goes to sleep at the same place again and again (a pool worker, an event loop)
 * hands the unwinder the same frames each time, with other bytes in their locals. libunwind's
 * walk is a function of the registers and stack words it reads and of the modules' files: when
 * a snapshot has the PC, stack pointer and stack length of a walk already made and every word and
 * register that walk read holds the same value, the walk would read the same words again and
 * find the same frames. Checking a few dozen words costs far less than the walk (20-150 us on
 * this kind of machine, SAMPLING.md).
 */

#include <string.h>

#include "fc-unwind-cache.h"

/* ~1 KiB an entry: a few MiB at most, for ~4,000 places threads stand */
#define MAX_ENTRIES 4096

typedef struct {
  guint64   pc;
  guint64   sp;
  guint32   stack_len;
  guint     max_ips;
} Key;

typedef struct {
  Key       key;
  guint     generation;
  guint32   regs_read;
  guint64   regs[FC_SNAPSHOT_N_REGS];
  guint     n_words;
  guint64  *words;     /* address, value pairs */
  guint     n_ips;
  gboolean  complete;
  guint64   ips[];
} Entry;

struct _FcUnwindCache {
  GHashTable *entries;   /* Key -> Entry, the key inside the entry */
  guint64     hits;
  guint64     misses;
};

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;
  guint64 h = k->pc * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ k->sp ^ ((guint64) k->stack_len << 32);

  return (guint) (h ^ (h >> 32));
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  return memcmp (a, b, sizeof (Key)) == 0;
}

static void
entry_free (Entry *entry)
{
  g_free (entry->words);
  g_free (entry);
}

static void
key_of (const FcSnapshot *snapshot,
        guint             max_ips,
        Key              *key)
{
  memset (key, 0, sizeof *key);
  key->pc = snapshot->regs[FC_SNAPSHOT_N_REGS - 1];
  key->sp = snapshot->stack_addr;
  key->stack_len = snapshot->stack_len;
  key->max_ips = max_ips;
}

FcUnwindCache *
fc_unwind_cache_new (void)
{
  FcUnwindCache *self = g_new0 (FcUnwindCache, 1);

  self->entries = g_hash_table_new_full (key_hash, key_equal, NULL, (GDestroyNotify) entry_free);
  return self;
}

void
fc_unwind_cache_free (FcUnwindCache *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->entries);
  g_free (self);
}

void
fc_unwind_cache_clear (FcUnwindCache *self)
{
  g_hash_table_remove_all (self->entries);
}

guint
fc_unwind_cache_lookup (FcUnwindCache    *self,
                        const FcSnapshot *snapshot,
                        guint             generation,
                        guint64          *ips,
                        guint             max_ips,
                        gboolean         *complete)
{
  const Entry *entry;
  Key key;

  key_of (snapshot, max_ips, &key);
  entry = g_hash_table_lookup (self->entries, &key);
  if (entry == NULL || entry->generation != generation)
    goto miss;
  for (guint r = 0; r < FC_SNAPSHOT_N_REGS; r++)
    if ((entry->regs_read & (1u << r)) && entry->regs[r] != snapshot->regs[r])
      goto miss;
  for (guint i = 0; i < entry->n_words; i++)
    {
      guint64 offset = entry->words[2 * i] - snapshot->stack_addr;
      guint64 value;

      /* the same stack pointer and length: the word is where it was */
      memcpy (&value, snapshot->stack + offset, sizeof value);
      if (value != entry->words[2 * i + 1])
        goto miss;
    }
  memcpy (ips, entry->ips, entry->n_ips * sizeof (guint64));
  *complete = entry->complete;
  self->hits++;
  return entry->n_ips;

miss:
  self->misses++;
  return 0;
}

void
fc_unwind_cache_store (FcUnwindCache       *self,
                       const FcSnapshot    *snapshot,
                       guint                generation,
                       const FcUnwindReads *reads,
                       const guint64       *ips,
                       guint                n_ips,
                       guint                max_ips,
                       gboolean             complete)
{
  Entry *entry;

  if (reads->forget || n_ips == 0)
    return;
  /* only words of the captured stack are checked again */
  for (guint i = 0; i < reads->n_words; i++)
    if (reads->words[i][0] < snapshot->stack_addr ||
        reads->words[i][0] + sizeof (guint64) > snapshot->stack_addr + snapshot->stack_len)
      return;
  if (g_hash_table_size (self->entries) >= MAX_ENTRIES)
    g_hash_table_remove_all (self->entries);

  entry = g_malloc (sizeof (Entry) + n_ips * sizeof (guint64));
  key_of (snapshot, max_ips, &entry->key);
  entry->generation = generation;
  entry->regs_read = reads->regs_read;
  memcpy (entry->regs, snapshot->regs, sizeof entry->regs);
  entry->n_words = reads->n_words;
  entry->words = g_memdup2 (reads->words, reads->n_words * 2 * sizeof (guint64));
  entry->n_ips = n_ips;
  entry->complete = complete;
  memcpy (entry->ips, ips, n_ips * sizeof (guint64));
  g_hash_table_replace (self->entries, &entry->key, entry);
}

void
fc_unwind_cache_get_counts (FcUnwindCache *self,
                            guint64       *hits,
                            guint64       *misses)
{
  *hits = self->hits;
  *misses = self->misses;
}

/* A read outside the captured stack: from a module's file it is the same for the next walk; from
 * the live target (writable data, anything unmapped in the file) it may not be. */
void
fc_unwind_reads_note_other (FcUnwindReads *reads,
                            FcProcMaps    *maps,
                            guint64        addr,
                            gsize          len)
{
  const FcModule *m = fc_proc_maps_find (maps, addr);
  guint8 buf[16];

  if (m == NULL || len > sizeof buf || !fc_module_read (m, addr, buf, len))
    reads->forget = TRUE;
}
