/* fc-session-tree.h - the call tree of a session's thread and time selection, kept up to date
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-call-tree.h"
#include "fc-filtered-tree.h"
#include "fc-session.h"

G_BEGIN_DECLS

#define FC_TYPE_SESSION_TREE (fc_session_tree_get_type ())
G_DECLARE_FINAL_TYPE (FcSessionTree, fc_session_tree, FC, SESSION_TREE, GObject)

FcSessionTree *fc_session_tree_new           (gboolean       filtered);
FcSessionTree *fc_session_tree_new_shared    (FcSession     *session);
void           fc_session_tree_detach        (FcSessionTree *self);
FcSession     *fc_session_tree_get_session   (FcSessionTree *self);
void           fc_session_tree_set_session   (FcSessionTree *self,
                                              FcSession     *session);
gboolean       fc_session_tree_get_bottom_up (FcSessionTree *self);
void           fc_session_tree_set_bottom_up (FcSessionTree *self,
                                              gboolean       bottom_up);
FcCallTree    *fc_session_tree_get_tree      (FcSessionTree *self);
FcFilteredTree *fc_session_tree_get_filtered_tree (FcSessionTree *self);
gboolean       fc_session_tree_get_busy      (FcSessionTree *self);

G_END_DECLS
