/* fc-filtered-tree.c - a call tree keeping only application or only system frames
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-filtered-tree.h"

struct _FcFilteredTreeNode
{
  FcFilteredTreeNode  *parent;
  FcFilteredTreeNode **children;      /* sorted by total_ns desc, then frame id */
  guint                n_children;
  guint                index;         /* creation order, 0 for the root */
  guint32              frame;
  gint64               self_ns;
  gint64               total_ns;
  guint64              self;
  guint64              total;
};

struct _FcFilteredTree
{
  gatomicrefcount      ref_count;
  FcProfile           *profile;
  gint                 thread;
  gboolean             bottom_up;
  FcFrameFilter        filter;
  /* Two allocations, not one per node: a big tree is freed on the main
   * thread when the view moves on, and a million g_free()s is a stall. */
  FcFilteredTreeNode  *nodes;          /* [0] is the root */
  guint                n_nodes;
  FcFilteredTreeNode **children;       /* every node's children, back to back */
};

G_DEFINE_BOXED_TYPE (FcFilteredTree, fc_filtered_tree, fc_filtered_tree_ref, fc_filtered_tree_unref)

typedef struct {
  FcFilteredTree *tree;
  FcProfile      *profile;
  GHashTable     *children;   /* (parent index << 32 | frame) -> FcFilteredTreeNode* */
  gboolean        bottom_up;
} Builder;

/* (parent index << 32 | frame) keys: g_int64_hash() folds the halves with
 * XOR, which makes parent i / frame f and parent f / frame i collide by the
 * thousand in a big tree. Multiply to spread them instead. */
static guint
key_hash (gconstpointer key)
{
  guint64 v = *(const guint64 *) key * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (guint) (v >> 32);
}

static gboolean
frame_shown (Builder *builder,
             guint32  frame_id)
{
  const FcFrame *frame;

  if (builder->tree->filter == FC_FRAME_FILTER_ALL)
    return TRUE;

  frame = fc_profile_get_frame (builder->profile, frame_id);
  /* Unknown in_app counts as system, as in Sentry. */
  if (builder->tree->filter == FC_FRAME_FILTER_APPLICATION)
    return frame->in_app == FC_IN_APP_YES;
  return frame->in_app != FC_IN_APP_YES;
}

static FcFilteredTreeNode *
ensure_child (Builder            *builder,
              FcFilteredTreeNode *parent,
              guint32             frame)
{
  FcFilteredTree *tree = builder->tree;
  guint64 key = ((guint64) parent->index << 32) | frame;
  FcFilteredTreeNode *child = g_hash_table_lookup (builder->children, &key);
  guint64 *stored_key;

  if (child != NULL)
    return child;

  /* never more nodes than the source tree has: each comes from one of them */
  child = &tree->nodes[tree->n_nodes];
  child->parent = parent;
  child->frame = frame;
  child->index = tree->n_nodes++;
  parent->n_children++;

  stored_key = g_new (guint64, 1);
  *stored_key = key;
  g_hash_table_insert (builder->children, stored_key, child);

  return child;
}

/* A shown node merges into a child of @out_parent; a hidden one hands its
 * own time to @out_parent (top-down: that is where the time was spent, in
 * the nearest shown caller) and its children to @out_parent. Bottom-up, a
 * node's self is the time of the whole chain below it, already counted by
 * its shown relatives, so a hidden node's self is dropped instead. */
static void
visit (Builder              *builder,
       const FcCallTreeNode *in,
       FcFilteredTreeNode   *out_parent)
{
  guint32 frame = fc_call_tree_node_get_frame (in);
  FcFilteredTreeNode *next = out_parent;
  guint n = fc_call_tree_node_get_n_children (in);

  if (frame_shown (builder, frame))
    {
      next = ensure_child (builder, out_parent, frame);
      next->self_ns += fc_call_tree_node_get_self_ns (in);
      next->self += fc_call_tree_node_get_self (in);
      next->total_ns += fc_call_tree_node_get_total_ns (in);
      next->total += fc_call_tree_node_get_total (in);
    }
  else if (!builder->bottom_up)
    {
      out_parent->self_ns += fc_call_tree_node_get_self_ns (in);
      out_parent->self += fc_call_tree_node_get_self (in);
    }

  for (guint i = 0; i < n; i++)
    visit (builder, fc_call_tree_node_get_child (in, i), next);
}

static int
compare_nodes (gconstpointer a,
               gconstpointer b)
{
  const FcFilteredTreeNode *na = *(FcFilteredTreeNode **) a;
  const FcFilteredTreeNode *nb = *(FcFilteredTreeNode **) b;

  if (na->total_ns != nb->total_ns)
    return na->total_ns > nb->total_ns ? -1 : 1;
  return na->frame < nb->frame ? -1 : na->frame > nb->frame;
}

/**
 * fc_filtered_tree_new:
 * @tree: a call tree
 * @filter: which frames to keep
 *
 * Builds the filtered tree; O(nodes of @tree). Safe on a worker thread.
 *
 * Returns: (transfer full): the tree
 */
FcFilteredTree *
fc_filtered_tree_new (FcCallTree    *tree,
                      FcFrameFilter  filter)
{
  FcFilteredTree *self;
  const FcCallTreeNode *in_root;
  FcFilteredTreeNode *root;
  Builder builder = { 0 };
  guint *filled;
  guint offset = 0;

  g_return_val_if_fail (tree != NULL, NULL);

  self = g_new0 (FcFilteredTree, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->profile = g_object_ref (fc_call_tree_get_profile (tree));
  self->thread = fc_call_tree_get_thread (tree);
  self->bottom_up = fc_call_tree_is_bottom_up (tree);
  self->filter = filter;
  self->nodes = g_new0 (FcFilteredTreeNode, fc_call_tree_get_n_nodes (tree));

  in_root = fc_call_tree_get_root (tree);
  root = &self->nodes[self->n_nodes++];
  root->frame = FC_CALL_TREE_ROOT_FRAME;
  root->self_ns = fc_call_tree_node_get_self_ns (in_root);
  root->self = fc_call_tree_node_get_self (in_root);
  root->total_ns = fc_call_tree_node_get_total_ns (in_root);
  root->total = fc_call_tree_node_get_total (in_root);

  builder.tree = self;
  builder.profile = fc_call_tree_get_profile (tree);
  builder.bottom_up = fc_call_tree_is_bottom_up (tree);
  builder.children = g_hash_table_new_full (key_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < fc_call_tree_node_get_n_children (in_root); i++)
    visit (&builder, fc_call_tree_node_get_child (in_root, i), root);

  g_hash_table_unref (builder.children);

  /* children lists: carve one array, fill it in creation order, sort each */
  self->children = g_new (FcFilteredTreeNode *, MAX (self->n_nodes, 1));
  for (guint i = 0; i < self->n_nodes; i++)
    {
      self->nodes[i].children = self->children + offset;
      offset += self->nodes[i].n_children;
    }
  filled = g_new0 (guint, self->n_nodes);
  for (guint i = 1; i < self->n_nodes; i++)
    {
      FcFilteredTreeNode *parent = self->nodes[i].parent;

      parent->children[filled[parent->index]++] = &self->nodes[i];
    }
  g_free (filled);
  for (guint i = 0; i < self->n_nodes; i++)
    if (self->nodes[i].n_children > 1)
      qsort (self->nodes[i].children, self->nodes[i].n_children, sizeof (FcFilteredTreeNode *), compare_nodes);

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
      g_free (self->nodes);
      g_free (self->children);
      g_object_unref (self->profile);
      g_free (self);
    }
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
  return self->profile;
}

/* the thread of the call tree it comes from; -1 for all threads */
gint
fc_filtered_tree_get_thread (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, -1);
  return self->thread;
}

gboolean
fc_filtered_tree_is_bottom_up (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->bottom_up;
}

FcFrameFilter
fc_filtered_tree_get_filter (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, FC_FRAME_FILTER_ALL);
  return self->filter;
}

const FcFilteredTreeNode *
fc_filtered_tree_get_root (FcFilteredTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->nodes[0];
}

static guint
node_depth (const FcFilteredTreeNode *node)
{
  guint depth = 0;

  for (; node->parent != NULL; node = node->parent)
    depth++;
  return depth;
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
  const FcFilteredTreeNode *best = NULL;
  guint best_depth = G_MAXUINT;
  GArray *path;

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 1; i < self->n_nodes; i++)
    {
      const FcFilteredTreeNode *node = &self->nodes[i];
      guint depth;

      if (node->frame != frame)
        continue;
      depth = node_depth (node);
      if (depth < best_depth || (depth == best_depth && node->total_ns > best->total_ns))
        {
          best = node;
          best_depth = depth;
        }
    }
  if (best == NULL)
    return NULL;

  path = g_array_sized_new (FALSE, FALSE, sizeof (guint), best_depth);
  g_array_set_size (path, best_depth);
  for (const FcFilteredTreeNode *node = best; node->parent != NULL; node = node->parent)
    {
      const FcFilteredTreeNode *parent = node->parent;
      guint c = 0;

      while (parent->children[c] != node)
        c++;
      g_array_index (path, guint, --best_depth) = c;
    }
  return path;
}

guint
fc_filtered_tree_node_get_n_children (const FcFilteredTreeNode *node)
{
  return node->n_children;
}

const FcFilteredTreeNode *
fc_filtered_tree_node_get_child (const FcFilteredTreeNode *node,
                                 guint                     index)
{
  g_return_val_if_fail (index < node->n_children, NULL);
  return node->children[index];
}

guint32
fc_filtered_tree_node_get_frame (const FcFilteredTreeNode *node)
{
  return node->frame;
}

guint64
fc_filtered_tree_node_get_total (const FcFilteredTreeNode *node)
{
  return node->total;
}

gint64
fc_filtered_tree_node_get_self_ns (const FcFilteredTreeNode *node)
{
  return node->self_ns;
}

gint64
fc_filtered_tree_node_get_total_ns (const FcFilteredTreeNode *node)
{
  return node->total_ns;
}
