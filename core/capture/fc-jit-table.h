/* fc-jit-table.h - code regions a JIT compiler named: address range -> name, file, line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64     start;
  guint64     size;
  guint32     seq;        /* order of addition: a later region over the same code wins */
  const char *name;       /* as the runtime wrote it */
  const char *file;       /* jitdump debug info, or NULL */
  int         line;       /* -1 when unknown */
} FcJitEntry;

typedef struct _FcJitTable FcJitTable;

FcJitTable       *fc_jit_table_new          (void);
void              fc_jit_table_free         (FcJitTable  *self);
void              fc_jit_table_add          (FcJitTable  *self,
                                             guint64      start,
                                             guint64      size,
                                             const char  *name,
                                             gsize        name_len,
                                             const char  *file,
                                             int          line);
void              fc_jit_table_move         (FcJitTable  *self,
                                             guint64      old_start,
                                             guint64      new_start);
const FcJitEntry *fc_jit_table_lookup       (FcJitTable  *self,
                                             guint64      addr);
guint             fc_jit_table_get_n_entries (FcJitTable *self);
/* changes with every addition: a lookup that failed may succeed now */
guint             fc_jit_table_get_version  (FcJitTable  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcJitTable, fc_jit_table_free)

G_END_DECLS
