/* fc-call-tree-view.h - the call tree as a table with expanders: function, self, total, samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-call-tree.h"
#include "fc-filtered-tree.h"
#include "fc-session.h"
#include "fc-tree-row.h"

G_BEGIN_DECLS

#define FC_TYPE_CALL_TREE_ROW (fc_call_tree_row_get_type ())
G_DECLARE_FINAL_TYPE (FcCallTreeRow, fc_call_tree_row, FC, CALL_TREE_ROW, FcTreeRow)

const FcFilteredTreeNode *fc_call_tree_row_get_node (FcCallTreeRow *self);
FcFilteredTree           *fc_call_tree_row_get_tree (FcCallTreeRow *self);

#define FC_TYPE_CALL_TREE_VIEW (fc_call_tree_view_get_type ())
G_DECLARE_FINAL_TYPE (FcCallTreeView, fc_call_tree_view, FC, CALL_TREE_VIEW, GtkWidget)

GtkWidget        *fc_call_tree_view_new            (void);
FcSession        *fc_call_tree_view_get_session    (FcCallTreeView *self);
void              fc_call_tree_view_set_session    (FcCallTreeView *self,
                                                    FcSession      *session);
gboolean          fc_call_tree_view_get_bottom_up  (FcCallTreeView *self);
/* the line above the tree: "1,234 samples · 2.50 s", and why it is empty */
const char       *fc_call_tree_view_get_summary    (FcCallTreeView *self);
void              fc_call_tree_view_set_bottom_up  (FcCallTreeView *self,
                                                    gboolean        bottom_up);
gboolean          fc_call_tree_view_get_busy       (FcCallTreeView *self);
FcFilteredTree   *fc_call_tree_view_get_filtered_tree (FcCallTreeView *self);
GtkTreeListModel *fc_call_tree_view_get_model      (FcCallTreeView *self);
GtkColumnView    *fc_call_tree_view_get_column_view (FcCallTreeView *self);

G_END_DECLS
