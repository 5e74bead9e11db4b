/* fc-speedscope.h - speedscope's file format (https://www.speedscope.app/file-format-schema.json)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-document.h"

G_BEGIN_DECLS

/* One evented profile per thread, in nanoseconds from the first sample: a
 * frame opens when a sample first has it and closes when one no longer
 * does, so speedscope's time-ordered view is a true time axis with idle
 * gaps. A thread whose stacks change so much that its events would be
 * huge is written sampled instead (each sample weighing the time to the
 * next). Frames shared by all profiles with their file and line. */
GBytes     *fc_speedscope_write (FcDocument  *document,
                                 GError     **error);

/* Sampled and evented profiles, each a thread of one V2 chunk. Sampled:
 * one sample per stack at the running sum of the weights (for "none" and
 * "bytes", weight-many samples 10 ms apart). Evented: a sample at every
 * event time with the stack open then. Times of all profiles are on one
 * axis from the earliest startValue. */
FcDocument *fc_speedscope_read  (GBytes      *bytes,
                                 GError     **error);

/* TRUE when the JSON text's first key marks a speedscope file */
gboolean    fc_speedscope_sniff (const char  *data,
                                 gsize        len);

G_END_DECLS
