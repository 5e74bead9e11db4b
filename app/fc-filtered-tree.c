/* fc-filtered-tree.c - the call tree the call tree view shows, for one frame filter
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-filtered-tree.h"

struct _FcFilteredTree
{
  gatomicrefcount  ref_count;
  FcCallTree      *tree;
};

G_DEFINE_BOXED_TYPE (FcFilteredTree, fc_filtered_tree, fc_filtered_tree_ref, fc_filtered_tree_unref)

/**
 * fc_filtered_tree_new:
 * @tree: a call tree, of the frame filter the view shows
 *
 * Returns: (transfer full): a tree sharing @tree's nodes
 */
FcFilteredTree *
fc_filtered_tree_new (FcCallTree *tree)
{
  FcFilteredTree *self;

  g_return_val_if_fail (tree != NULL, NULL);

  self = g_new0 (FcFilteredTree, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->tree = fc_call_tree_ref (tree);
  return self;
}

FcFilteredTree *
fc_filtered_tree_ref (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
fc_filtered_tree_unref (FcFilteredTree *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      fc_call_tree_unref (self->tree);
      g_free (self);
    }
}

FcCallTree *
fc_filtered_tree_get_tree (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->tree;
}

/**
 * fc_filtered_tree_get_profile:
 * @self: a filtered tree
 *
 * Returns: (transfer none): the profile whose frames the nodes name
 */
FcProfile *
fc_filtered_tree_get_profile (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return fc_call_tree_get_profile (self->tree);
}

/* the thread of the call tree it comes from; -1 for all threads */
gint
fc_filtered_tree_get_thread (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return fc_call_tree_get_thread (self->tree);
}

gboolean
fc_filtered_tree_is_bottom_up (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return fc_call_tree_is_bottom_up (self->tree);
}

FcFrameFilter
fc_filtered_tree_get_filter (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, FC_FRAME_FILTER_ALL);
  return fc_call_tree_get_frames (self->tree);
}

const FcFilteredTreeNode *
fc_filtered_tree_get_root (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return fc_call_tree_get_root (self->tree);
}

/**
 * fc_filtered_tree_find_path:
 * @frame: a frame id
 *
 * Finds the shallowest node of @frame, the heaviest among equally shallow
 * ones, by one pass over the node array in memory order (a breadth-first
 * walk of a 100k-node tree chases pointers all over it: tens of ms on the
 * main loop for each frame picked in the details).
 *
 * Returns: (transfer full) (nullable): the child indexes from the root to
 *   that node, or %NULL when @frame is not in the tree
 */
GArray *
fc_filtered_tree_find_path (FcFilteredTree *self,
                            guint32         frame)
{
  const FcCallTreeNode *best = NULL;
  guint best_depth = G_MAXUINT;
  guint n;
  GArray *path;

  g_return_val_if_fail (self != NULL, NULL);

  n = fc_call_tree_get_n_nodes (self->tree);
  for (guint i = 1; i < n; i++)
    {
      const FcCallTreeNode *node = fc_call_tree_get_node (self->tree, i);
      guint depth;

      if (fc_call_tree_node_get_frame (node) != frame)
        continue;
      depth = fc_call_tree_node_get_depth (node);
      if (depth < best_depth ||
          (depth == best_depth && fc_call_tree_node_get_total_ns (node) > fc_call_tree_node_get_total_ns (best)))
        {
          best = node;
          best_depth = depth;
        }
    }
  if (best == NULL)
    return NULL;

  path = g_array_sized_new (FALSE, FALSE, sizeof (guint), best_depth);
  g_array_set_size (path, best_depth);
  for (const FcCallTreeNode *node = best, *parent; (parent = fc_call_tree_node_get_parent (node)) != NULL; node = parent)
    {
      guint c = 0;

      while (fc_call_tree_node_get_child (parent, c) != node)
        c++;
      g_array_index (path, guint, --best_depth) = c;
    }
  return path;
}

guint
fc_filtered_tree_node_get_n_children (const FcFilteredTreeNode *node)
{
  return fc_call_tree_node_get_n_children (node);
}

const FcFilteredTreeNode *
fc_filtered_tree_node_get_child (const FcFilteredTreeNode *node,
                                 guint                     index)
{
  return fc_call_tree_node_get_child (node, index);
}

guint32
fc_filtered_tree_node_get_frame (const FcFilteredTreeNode *node)
{
  return fc_call_tree_node_get_frame (node);
}

guint64
fc_filtered_tree_node_get_total (const FcFilteredTreeNode *node)
{
  return fc_call_tree_node_get_total (node);
}

gint64
fc_filtered_tree_node_get_self_ns (const FcFilteredTreeNode *node)
{
  return fc_call_tree_node_get_self_ns (node);
}

gint64
fc_filtered_tree_node_get_total_ns (const FcFilteredTreeNode *node)
{
  return fc_call_tree_node_get_total_ns (node);
}
