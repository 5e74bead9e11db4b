/* fc-diff-tree-view.h - Compare with: the call tree of both profiles, before/after/delta of self and total
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "fc-diff.h"
#include "fc-tree-row.h"

G_BEGIN_DECLS

/* the table's columns, in their order */
typedef enum {
  FC_DIFF_COLUMN_FUNCTION,
  FC_DIFF_COLUMN_BEFORE_SELF,
  FC_DIFF_COLUMN_AFTER_SELF,
  FC_DIFF_COLUMN_DELTA_SELF,
  FC_DIFF_COLUMN_BEFORE_TOTAL,
  FC_DIFF_COLUMN_AFTER_TOTAL,
  FC_DIFF_COLUMN_DELTA_TOTAL,
  FC_DIFF_N_COLUMNS,
} FcDiffColumn;

#define FC_TYPE_DIFF_ROW (fc_diff_row_get_type ())
G_DECLARE_FINAL_TYPE (FcDiffRow, fc_diff_row, FC, DIFF_ROW, FcTreeRow)

const FcDiffEntry *fc_diff_row_get_entry (FcDiffRow    *self);
/* the text the row shows in @column */
char              *fc_diff_row_format    (FcDiffRow    *self,
                                          FcDiffColumn  column);

#define FC_TYPE_DIFF_TREE_VIEW (fc_diff_tree_view_get_type ())
G_DECLARE_FINAL_TYPE (FcDiffTreeView, fc_diff_tree_view, FC, DIFF_TREE_VIEW, GtkWidget)

GtkWidget  *fc_diff_tree_view_new        (void);
/* NULL empties the table */
void        fc_diff_tree_view_set_diff   (FcDiffTreeView *self,
                                          FcDiff         *diff);
FcDiff     *fc_diff_tree_view_get_diff   (FcDiffTreeView *self);
/* the rows as shown, sorted: GtkTreeListRow of FcDiffRow */
GListModel *fc_diff_tree_view_get_model  (FcDiffTreeView *self);
/* sorts by @column as a click on its header does */
void        fc_diff_tree_view_sort_by    (FcDiffTreeView *self,
                                          FcDiffColumn    column,
                                          GtkSortType     direction);

G_END_DECLS
