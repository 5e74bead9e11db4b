/* fc-jitdump.h - jit-PID.dump, the code a JIT compiler wrote, with names and lines
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-jit-table.h"

G_BEGIN_DECLS

typedef struct _FcJitdump FcJitdump;

FcJitdump  *fc_jitdump_new        (GPid         pid,
                                   const char  *path);
void        fc_jitdump_free       (FcJitdump   *self);
gboolean    fc_jitdump_read       (FcJitdump   *self,
                                   FcJitTable  *table,
                                   GError     **error);
const char *fc_jitdump_get_path   (FcJitdump   *self);
gsize       fc_jitdump_parse      (const guint8 *data,
                                   gsize         len,
                                   gboolean      with_header,
                                   FcJitTable   *table,
                                   GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcJitdump, fc_jitdump_free)

G_END_DECLS
