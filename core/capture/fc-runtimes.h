/* fc-runtimes.h - the language runtimes in a recorded process, and how their frames are read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-proc-maps.h"
#include "fc-python-splice.h"
#include "fc-symbolizer.h"

G_BEGIN_DECLS

typedef struct _FcRuntimes FcRuntimes;

FcRuntimes    *fc_runtimes_new            (FcProcMaps          *maps);
void           fc_runtimes_free           (FcRuntimes          *self);

/* sampler thread */
FcPythonStack *fc_runtimes_read_python    (FcRuntimes          *self,
                                           int                  tid);
void           fc_runtimes_sink_exec      (FcRuntimes          *self);

/* worker thread */
void           fc_runtimes_update         (FcRuntimes          *self);
void           fc_runtimes_worker_exec    (FcRuntimes          *self);
void           fc_runtimes_note_jit       (FcRuntimes          *self,
                                           FcSymbolizer        *symbolizer,
                                           gboolean             force);
FcStacksMode   fc_runtimes_resolve_mode   (FcRuntimes          *self,
                                           FcStacksMode         requested);
gboolean       fc_runtimes_splices        (FcRuntimes          *self,
                                           FcStacksMode         mode);
guint          fc_runtimes_splice         (FcRuntimes          *self,
                                           FcStacksMode         mode,
                                           const FcPythonStack *python,
                                           const guint64       *ips,
                                           const FcSymbol * const *symbols,
                                           guint                n,
                                           guint64             *out_ips,
                                           const FcSymbol     **out_symbols,
                                           guint                max_out);

/* any thread */
char          *fc_runtimes_dup_description (FcRuntimes         *self,
                                            char              **hint);

G_END_DECLS
