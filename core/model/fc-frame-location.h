/* fc-frame-location.h - where the frames merged into one view frame were
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-profile.h"

G_BEGIN_DECLS

/*
 * Views merge frames by function (fc_profile_dup_for_view()), which drops
 * line, column and instruction address: one function called from several
 * lines is one box, and so is a function whose inlined copies name another
 * file (a header) than its own code. While merging, the copy keeps a summary of what was
 * merged: the first location, and whether the others agree with it. Per
 * stack node (a box of the flamechart, a node of the flamegraph or call
 * tree: one call path) and per frame (a function, as the details panel
 * shows it).
 *
 * It costs 4 bytes per stack node and per frame of the copy, and 24 bytes
 * per distinct source frame.
 */

typedef struct {
  gint32   lineno;                /* FC_LINE_NONE when absent */
  gint32   colno;                 /* FC_LINE_NONE when absent */
  guint64  instruction_addr;
  guint32  source_frame;          /* index in the frames the copy was made from */
  guint8   has_instruction_addr;
  guint8   several;               /* the merged frames disagree on line, column or address */
  guint8   inlined;               /* some of them were copies the compiler inlined into a caller */
  guint8   _pad;
} FcFrameLocation;

/* FALSE when nothing is known (an unknown id) */
gboolean fc_profile_get_stack_location (FcProfile       *profile,
                                        guint32          stack,
                                        FcFrameLocation *location);
gboolean fc_profile_get_frame_location (FcProfile       *profile,
                                        guint32          frame,
                                        FcFrameLocation *location);

G_END_DECLS
