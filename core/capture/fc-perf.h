/* fc-perf.h - per-thread perf_event sampling with user registers and stack copies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-snapshot.h"

G_BEGIN_DECLS

typedef struct _FcPerfStream FcPerfStream;

FcPerfStream *fc_perf_stream_open   (int             tid,
                                     guint           frequency,
                                     guint           stack_size,
                                     gboolean        enable_on_exec,
                                     GError        **error);
void          fc_perf_stream_free   (FcPerfStream   *self);
int           fc_perf_stream_get_tid (FcPerfStream  *self);
void          fc_perf_stream_set_frequency (FcPerfStream *self,
                                            guint         frequency);
void          fc_perf_stream_enable (FcPerfStream   *self,
                                     gboolean        enable);
/* Hands every sample in the ring buffer to sink as an FC_SNAPSHOT_SAMPLE; returns the number read. */
guint         fc_perf_stream_drain  (FcPerfStream   *self,
                                     FcSnapshotSink  sink,
                                     gpointer        sink_data,
                                     guint64        *lost);

G_END_DECLS
