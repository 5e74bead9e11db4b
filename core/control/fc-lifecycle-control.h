/* fc-lifecycle-control.h - drive a lifecycle from text commands on a FIFO
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "fc-lifecycle.h"

G_BEGIN_DECLS

/*
 * One command per line, so a test script can bracket its scenarios:
 *   begin NAME    begin a root span (trace lifecycle: profiling follows spans)
 *   end NAME      end the most recent active span called NAME
 *   start, stop   start/stop the profiler (manual lifecycle)
 * Empty lines and lines starting with '#' are ignored; anything else logs a
 * warning. Commands are read on the thread-default main context of the
 * thread that created the control, without blocking it.
 */
#define FC_TYPE_LIFECYCLE_CONTROL (fc_lifecycle_control_get_type ())
G_DECLARE_FINAL_TYPE (FcLifecycleControl, fc_lifecycle_control, FC, LIFECYCLE_CONTROL, GObject)

/* Opens the FIFO at @path, creating it (mode 0600) when it does not exist;
 * a FIFO it created is removed again when the control is finalized. Writers
 * may come and go: the FIFO stays open for reading. */
FcLifecycleControl *fc_lifecycle_control_new         (FcLifecycle         *lifecycle,
                                                      const char          *path,
                                                      GError             **error);
/* Runs one command line as if it came from the FIFO. */
gboolean            fc_lifecycle_control_handle_line (FcLifecycleControl  *self,
                                                      const char          *line,
                                                      GError             **error);
guint               fc_lifecycle_control_get_n_commands (FcLifecycleControl *self);
/* Handles every complete line written so far, now. Call it before tearing
 * down: a script's last "end NAME" may still sit in the FIFO when the
 * profiled program exits. */
void                fc_lifecycle_control_drain       (FcLifecycleControl  *self);

G_END_DECLS
