/* fc-filtered-tree.h - the call tree the call tree view shows, for one frame filter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "fc-call-tree.h"
#include "fc-session.h"

G_BEGIN_DECLS

/*
 * An FcCallTree built for one frame filter (fc_call_tree_new_full() applies
 * it as Sentry's "application frames only" does: a hidden frame's callees
 * move up to its nearest shown caller, where identical frames merge again,
 * and its own time becomes that caller's self time), seen by the call tree
 * view. It shares the tree it is made from: the top-down one is the
 * session's, which the flamegraph shows too, and a big chunk's is 1.6
 * million nodes. Immutable; any thread.
 */

typedef struct _FcFilteredTree FcFilteredTree;
typedef FcCallTreeNode         FcFilteredTreeNode;

#define FC_TYPE_FILTERED_TREE (fc_filtered_tree_get_type ())
GType                     fc_filtered_tree_get_type           (void) G_GNUC_CONST;

FcFilteredTree           *fc_filtered_tree_new                (FcCallTree               *tree);
FcFilteredTree           *fc_filtered_tree_ref                (FcFilteredTree           *self);
void                      fc_filtered_tree_unref              (FcFilteredTree           *self);
FcCallTree               *fc_filtered_tree_get_tree           (FcFilteredTree           *self);
FcProfile                *fc_filtered_tree_get_profile        (FcFilteredTree           *self);
gint                      fc_filtered_tree_get_thread         (FcFilteredTree           *self);
gboolean                  fc_filtered_tree_is_bottom_up       (FcFilteredTree           *self);
FcFrameFilter             fc_filtered_tree_get_filter         (FcFilteredTree           *self);
const FcFilteredTreeNode *fc_filtered_tree_get_root           (FcFilteredTree           *self);
GArray                   *fc_filtered_tree_find_path          (FcFilteredTree           *self,
                                                               guint32                   frame);

guint                     fc_filtered_tree_node_get_n_children (const FcFilteredTreeNode *node);
const FcFilteredTreeNode *fc_filtered_tree_node_get_child     (const FcFilteredTreeNode *node,
                                                               guint                     index);
guint32                   fc_filtered_tree_node_get_frame     (const FcFilteredTreeNode *node);
guint64                   fc_filtered_tree_node_get_total     (const FcFilteredTreeNode *node);
gint64                    fc_filtered_tree_node_get_self_ns   (const FcFilteredTreeNode *node);
gint64                    fc_filtered_tree_node_get_total_ns  (const FcFilteredTreeNode *node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcFilteredTree, fc_filtered_tree_unref)

G_END_DECLS
