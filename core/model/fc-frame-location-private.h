/* fc-frame-location-private.h - the table a merged copy fills while merging
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-column.h"
#include "fc-frame-location.h"

G_BEGIN_DECLS

typedef struct _FcLocationTable FcLocationTable;

/* @shared: read while it grows (a live copy); see fc_location_table_publish () */
FcLocationTable *fc_location_table_new    (gboolean               shared);
void             fc_location_table_free   (FcLocationTable       *self);
/* source frame @src_frame (its content @frame) was merged into stack node
 * @stack of the copy, whose frame is @dst_frame; @inlined: at that place the
 * compiler had inlined it into its caller */
void             fc_location_table_note   (FcLocationTable       *self,
                                           guint32                stack,
                                           guint32                dst_frame,
                                           guint32                src_frame,
                                           const FcFrame         *frame,
                                           gboolean               inlined);
/* the same for a copy's frame alone, with no stack node: a copy that shares
 * its source's nodes (no two frames merged) knows each node's location from
 * its frame's, and whether that node was inlined from the source */
void             fc_location_table_note_frame (FcLocationTable *self,
                                               guint32          dst_frame,
                                               guint32          src_frame,
                                               const FcFrame   *frame,
                                               gboolean         inlined);
/* the copy's frame for a function (@frame's function, module, package,
 * platform and in_app, in the copy's strings), FALSE before the first; the
 * building thread's, until the table is trimmed */
gboolean         fc_location_table_find_function (FcLocationTable *self,
                                                  const FcFrame   *frame,
                                                  guint32         *dst_frame);
void             fc_location_table_add_function  (FcLocationTable *self,
                                                  const FcFrame   *frame,
                                                  guint32          dst_frame);
/* once merging ends: the slots take exactly what they need */
void             fc_location_table_trim   (FcLocationTable       *self);
/* a shared table: what was noted so far becomes visible to readers */
void             fc_location_table_publish (FcLocationTable      *self);
gboolean         fc_location_table_lookup (const FcLocationTable *self,
                                           gboolean               by_stack,
                                           guint32                id,
                                           FcFrameLocation       *location);
/* the frame the table itself would give: its own fields */
void             fc_frame_location_of     (const FcFrame         *frame,
                                           guint32                frame_id,
                                           FcFrameLocation       *location);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcLocationTable, fc_location_table_free)

G_END_DECLS
