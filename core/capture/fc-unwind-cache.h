/* fc-unwind-cache.h - remembers walks of stacks that did not change where the walk looked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-proc-maps.h"
#include "fc-snapshot.h"

G_BEGIN_DECLS

#define FC_UNWIND_READS_MAX 256

/* What one walk read of the snapshot: registers and stack words. Reads of a module's file are the
 * same for every walk of the same maps; a read of the live target makes the walk one to forget. */
typedef struct {
  guint32  regs_read;                       /* bit n: regs[n] was read */
  guint    n_words;
  gboolean forget;                          /* read live memory, or too many words */
  guint64  words[FC_UNWIND_READS_MAX][2];   /* address, value */
} FcUnwindReads;

typedef struct _FcUnwindCache FcUnwindCache;

FcUnwindCache *fc_unwind_cache_new    (void);
void           fc_unwind_cache_free   (FcUnwindCache      *self);
void           fc_unwind_cache_clear  (FcUnwindCache      *self);
/* The walk of an earlier snapshot with the same PC, stack pointer and stack length whose every
 * read gives the same value in @snapshot: its frame count, or 0 when there is none. */
guint          fc_unwind_cache_lookup (FcUnwindCache      *self,
                                       const FcSnapshot   *snapshot,
                                       guint               generation,
                                       guint64            *ips,
                                       guint               max_ips,
                                       gboolean           *complete);
void           fc_unwind_cache_store  (FcUnwindCache      *self,
                                       const FcSnapshot   *snapshot,
                                       guint               generation,
                                       const FcUnwindReads *reads,
                                       const guint64      *ips,
                                       guint               n_ips,
                                       guint               max_ips,
                                       gboolean            complete);
void           fc_unwind_cache_get_counts (FcUnwindCache  *self,
                                           guint64        *hits,
                                           guint64        *misses);

static inline void
fc_unwind_reads_note_word (FcUnwindReads *reads,
                           guint64        addr,
                           guint64        value)
{
  if (reads->n_words == FC_UNWIND_READS_MAX)
    {
      reads->forget = TRUE;
      return;
    }
  reads->words[reads->n_words][0] = addr;
  reads->words[reads->n_words++][1] = value;
}

static inline void
fc_unwind_reads_note_reg (FcUnwindReads *reads,
                          int            reg)
{
  reads->regs_read |= 1u << reg;
}

void           fc_unwind_reads_note_other (FcUnwindReads *reads,
                                           FcProcMaps    *maps,
                                           guint64        addr,
                                           gsize          len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcUnwindCache, fc_unwind_cache_free)

G_END_DECLS
