/* fc-speedscope.h - speedscope's file format (https://www.speedscope.app/file-format-schema.json)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

/* One sampled profile per thread, samples in time order, each weighing the
 * time to its thread's next sample (the last one a sampling period), in
 * nanoseconds from the first sample: speedscope's time-ordered view is a
 * true time axis. Frames shared by all profiles with their file and line. */
GBytes     *fc_speedscope_write (FcDocument  *document,
                                 GError     **error);

/* Sampled and evented profiles, each a thread of one V2 chunk. Sampled:
 * one sample per stack at the running sum of the weights (for "none" and
 * "bytes", weight-many samples 10 ms apart). Evented: a sample at every
 * event time with the stack open then. */
FcDocument *fc_speedscope_read  (GBytes      *bytes,
                                 GError     **error);

/* TRUE when the JSON text's first key marks a speedscope file */
gboolean    fc_speedscope_sniff (const char  *data,
                                 gsize        len);

G_END_DECLS
