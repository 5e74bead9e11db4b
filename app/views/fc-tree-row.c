/* fc-tree-row.c - one node of a tree view's model, keeping its tree alive
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-tree-row.h"

typedef struct
{
  gpointer        owner;
  GDestroyNotify  owner_unref;
  gconstpointer   node;
} FcTreeRowPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (FcTreeRow, fc_tree_row, G_TYPE_OBJECT)

static void
fc_tree_row_finalize (GObject *object)
{
  FcTreeRowPrivate *priv = fc_tree_row_get_instance_private (FC_TREE_ROW (object));

  if (priv->owner != NULL && priv->owner_unref != NULL)
    priv->owner_unref (priv->owner);

  G_OBJECT_CLASS (fc_tree_row_parent_class)->finalize (object);
}

static void
fc_tree_row_class_init (FcTreeRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_tree_row_finalize;
}

static void
fc_tree_row_init (FcTreeRow *self)
{
}

gpointer
fc_tree_row_new (GType           type,
                 gpointer        owner,
                 GDestroyNotify  owner_unref,
                 gconstpointer   node)
{
  FcTreeRow *self;
  FcTreeRowPrivate *priv;

  g_return_val_if_fail (g_type_is_a (type, FC_TYPE_TREE_ROW), NULL);

  self = g_object_new (type, NULL);
  priv = fc_tree_row_get_instance_private (self);
  priv->owner = owner;
  priv->owner_unref = owner_unref;
  priv->node = node;
  return self;
}

gpointer
fc_tree_row_get_owner (FcTreeRow *self)
{
  FcTreeRowPrivate *priv = fc_tree_row_get_instance_private (self);

  g_return_val_if_fail (FC_IS_TREE_ROW (self), NULL);
  return priv->owner;
}

gconstpointer
fc_tree_row_get_node (FcTreeRow *self)
{
  FcTreeRowPrivate *priv = fc_tree_row_get_instance_private (self);

  g_return_val_if_fail (FC_IS_TREE_ROW (self), NULL);
  return priv->node;
}

void
fc_tree_row_setup_number_cell (GtkSignalListItemFactory *factory,
                               GtkListItem              *list_item,
                               gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

void
fc_tree_row_unbind_expander (GtkSignalListItemFactory *factory,
                             GtkListItem              *list_item,
                             gpointer                  user_data)
{
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}
