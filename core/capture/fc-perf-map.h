/* fc-perf-map.h - /tmp/perf-PID.map, the names JIT runtimes give their code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-jit-table.h"

G_BEGIN_DECLS

typedef struct _FcPerfMap FcPerfMap;

FcPerfMap  *fc_perf_map_new       (GPid        pid);
void        fc_perf_map_free      (FcPerfMap  *self);
gboolean    fc_perf_map_read      (FcPerfMap  *self,
                                   FcJitTable *table);
const char *fc_perf_map_get_name  (FcPerfMap  *self);
char       *fc_perf_map_path_in_process (GPid        pid,
                                   const char *path);
gboolean    fc_perf_map_parse_line (const char *line,
                                   gsize       len,
                                   guint64    *start,
                                   guint64    *size,
                                   const char **name,
                                   gsize      *name_len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcPerfMap, fc_perf_map_free)

G_END_DECLS
