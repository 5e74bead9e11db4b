/* fc-pprof.h - pprof's perftools.profiles.Profile (gzip-compressed protobuf)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

/*
 * Writing: every profile of the document in one pprof profile, gzipped.
 * sample_type samples/count first (what tools that read the first value
 * count), then wall/nanoseconds (count times the period); one sample per
 * distinct (stack, thread) with labels thread.id and thread.name; locations
 * with inlined frames as extra lines; mappings with their build id. pprof
 * has no per-sample timestamps.
 *
 * Reading (gzip is undone by the reader before): one V2 chunk whose samples
 * are values[0] samples per pprof sample, a period apart on their thread from
 * time_nanos; threads from the thread.id/thread.name labels (else "0").
 */
GBytes     *fc_pprof_write (FcDocument  *document,
                            GError     **error);
FcDocument *fc_pprof_read  (GBytes      *bytes,
                            GError     **error);
/* TRUE when @bytes decode as a pprof Profile with a string table */
gboolean    fc_pprof_sniff (GBytes      *bytes);

G_END_DECLS
