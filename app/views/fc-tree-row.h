/* fc-tree-row.h - one node of a tree view's model, keeping its tree alive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The item of a GtkTreeListModel row in the call tree and the diff tree: a
 * borrowed node of a reference-counted tree, and a reference on that tree
 * so the node outlives any model that dropped it. Each view derives its own
 * final type so the model's item type says which tree the node is of.
 */

#define FC_TYPE_TREE_ROW (fc_tree_row_get_type ())
G_DECLARE_DERIVABLE_TYPE (FcTreeRow, fc_tree_row, FC, TREE_ROW, GObject)

struct _FcTreeRowClass
{
  GObjectClass parent_class;
};

/* a row of @type (derived from FcTreeRow) for @node; takes @owner's
 * reference, which @owner_unref drops */
gpointer      fc_tree_row_new       (GType           type,
                                     gpointer        owner,
                                     GDestroyNotify  owner_unref,
                                     gconstpointer   node);
gpointer      fc_tree_row_get_owner (FcTreeRow      *self);
gconstpointer fc_tree_row_get_node  (FcTreeRow      *self);

/* GtkSignalListItemFactory handlers both tree views' columns share: a right-aligned numeric
 * label ("setup"), and letting go of the row an expander showed ("unbind") */
void          fc_tree_row_setup_number_cell (GtkSignalListItemFactory *factory,
                                             GtkListItem              *list_item,
                                             gpointer                  user_data);
void          fc_tree_row_unbind_expander   (GtkSignalListItemFactory *factory,
                                             GtkListItem              *list_item,
                                             gpointer                  user_data);

G_END_DECLS
