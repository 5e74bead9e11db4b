/* fc-diff-tree-view.c - Compare with: the call tree of both profiles, before/after/delta of self and total
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The call paths of fc_diff_get_roots() as a table with expanders. Values
 * are shares of each profile's samples, so profiles of different lengths
 * compare; deltas are in percentage points. Every column sorts; the delta
 * columns by the size of the change, so the biggest change comes first
 * whichever way it went, as the table opens (Total Δ, descending).
 */

#include <math.h>

#include <inttypes.h>
#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-diff-tree-view.h"

/* FcDiffRow: one call path, keeping the diff alive */

struct _FcDiffRow
{
  FcTreeRow parent_instance;
};

G_DEFINE_FINAL_TYPE (FcDiffRow, fc_diff_row, FC_TYPE_TREE_ROW)

static void
fc_diff_row_class_init (FcDiffRowClass *klass)
{
}

static void
fc_diff_row_init (FcDiffRow *self)
{
}

static FcDiffRow *
fc_diff_row_new (FcDiff            *diff,
                 const FcDiffEntry *entry)
{
  return fc_tree_row_new (FC_TYPE_DIFF_ROW, fc_diff_ref (diff), (GDestroyNotify) fc_diff_unref, entry);
}

const FcDiffEntry *
fc_diff_row_get_entry (FcDiffRow *self)
{
  return fc_tree_row_get_node (FC_TREE_ROW (self));
}

static double
row_value (const FcDiffEntry *e,
           FcDiffColumn       column)
{
  switch (column)
    {
    case FC_DIFF_COLUMN_BEFORE_SELF:  return e->before_self;
    case FC_DIFF_COLUMN_AFTER_SELF:   return e->after_self;
    case FC_DIFF_COLUMN_DELTA_SELF:   return fc_diff_entry_delta_self (e);
    case FC_DIFF_COLUMN_BEFORE_TOTAL: return e->before_total;
    case FC_DIFF_COLUMN_AFTER_TOTAL:  return e->after_total;
    case FC_DIFF_COLUMN_DELTA_TOTAL:  return fc_diff_entry_delta_total (e);
    case FC_DIFF_COLUMN_FUNCTION:
    case FC_DIFF_N_COLUMNS:
    default:                          return 0;
    }
}

static gboolean
is_delta (FcDiffColumn column)
{
  return column == FC_DIFF_COLUMN_DELTA_SELF || column == FC_DIFF_COLUMN_DELTA_TOTAL;
}

/**
 * fc_diff_row_format:
 * @self: a row
 * @column: which column
 *
 * Returns: (transfer full): "12.5%" for a share, "+35.0" / "−30.0" (percentage
 * points) for a delta, "—" for a path a profile does not have
 */
char *
fc_diff_row_format (FcDiffRow    *self,
                    FcDiffColumn  column)
{
  double v;

  g_return_val_if_fail (FC_IS_DIFF_ROW (self), NULL);
  g_return_val_if_fail (column < FC_DIFF_N_COLUMNS, NULL);

  if (column == FC_DIFF_COLUMN_FUNCTION)
    return g_strdup (fc_diff_row_get_entry (self)->label);

  /* the share of a profile that has no such path at all */
  if ((column == FC_DIFF_COLUMN_BEFORE_SELF || column == FC_DIFF_COLUMN_BEFORE_TOTAL) &&
      fc_diff_row_get_entry (self)->before_total == 0)
    return g_strdup ("—");
  if ((column == FC_DIFF_COLUMN_AFTER_SELF || column == FC_DIFF_COLUMN_AFTER_TOTAL) &&
      fc_diff_row_get_entry (self)->after_total == 0)
    return g_strdup ("—");

  v = row_value (fc_diff_row_get_entry (self), column) * 100;
  if (!is_delta (column))
    return g_strdup_printf ("%.1f%%", v);
  if (fabs (v) < 0.05)
    return g_strdup ("0.0");
  /* a real minus sign: it lines up with the plus */
  return g_strdup_printf ("%s%.1f", v > 0 ? "+" : "−", fabs (v));
}

/* FcDiffTreeView */

struct _FcDiffTreeView
{
  GtkWidget            parent_instance;

  /* template widgets */
  GtkLabel            *summary_label;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *function_column;
  GtkColumnViewColumn *before_self_column;
  GtkColumnViewColumn *after_self_column;
  GtkColumnViewColumn *delta_self_column;
  GtkColumnViewColumn *before_total_column;
  GtkColumnViewColumn *after_total_column;
  GtkColumnViewColumn *delta_total_column;

  /* owned */
  FcDiff              *diff;
  GListStore          *roots;
  GtkTreeListModel    *tree_model;
  GtkSortListModel    *sorted;
  GtkSingleSelection  *selection;
};

G_DEFINE_FINAL_TYPE (FcDiffTreeView, fc_diff_tree_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_DIFF,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GtkColumnViewColumn *
column_of (FcDiffTreeView *self,
           FcDiffColumn    column)
{
  GtkColumnViewColumn *columns[FC_DIFF_N_COLUMNS] = {
    self->function_column, self->before_self_column, self->after_self_column, self->delta_self_column,
    self->before_total_column, self->after_total_column, self->delta_total_column,
  };

  return columns[column];
}

static GListStore *
rows_of (FcDiff    *diff,
         GPtrArray *entries)
{
  GListStore *store = g_list_store_new (FC_TYPE_DIFF_ROW);

  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      g_autoptr(FcDiffRow) row = fc_diff_row_new (diff, g_ptr_array_index (entries, i));

      g_list_store_append (store, row);
    }
  return store;
}

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  FcDiffRow *row = item;

  if (fc_diff_row_get_entry (row)->children == NULL)
    return NULL;
  return G_LIST_MODEL (rows_of (fc_tree_row_get_owner (FC_TREE_ROW (row)), fc_diff_row_get_entry (row)->children));
}

/* the label ascending, the numbers descending by default: GtkColumnView
 * flips it for a click on the same header again */
static int
compare_rows_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  FcDiffColumn column = GPOINTER_TO_INT (user_data);
  const FcDiffEntry *x = fc_diff_row_get_entry (FC_DIFF_ROW ((gpointer) a));
  const FcDiffEntry *y = fc_diff_row_get_entry (FC_DIFF_ROW ((gpointer) b));
  double vx, vy;

  if (column == FC_DIFF_COLUMN_FUNCTION)
    return gtk_ordering_from_cmpfunc (g_utf8_collate (x->label, y->label));

  vx = row_value (x, column);
  vy = row_value (y, column);
  /* a change is as big going down as going up */
  if (is_delta (column))
    {
      vx = fabs (vx);
      vy = fabs (vy);
    }
  if (vx != vy)
    return vx < vy ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  /* equal values: by name (A first in the descending order the table opens in) */
  return gtk_ordering_from_cmpfunc (g_utf8_collate (y->label, x->label));
}

static void
setup_function_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_function_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  g_autoptr(FcDiffRow) row = gtk_tree_list_row_get_item (tree_row);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), tree_row);
  gtk_label_set_text (GTK_LABEL (label), fc_diff_row_get_entry (row)->label);
  gtk_widget_set_tooltip_text (label, fc_diff_row_get_entry (row)->name);
}



static void
bind_number_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  FcDiffColumn column = GPOINTER_TO_INT (user_data);
  g_autoptr(FcDiffRow) row = gtk_tree_list_row_get_item (gtk_list_item_get_item (list_item));
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = fc_diff_row_format (row, column);
  double v = row_value (fc_diff_row_get_entry (row), column);

  gtk_label_set_text (GTK_LABEL (label), text);
  /* the flamegraph's colours: red is more now, blue less */
  gtk_widget_remove_css_class (label, "error");
  gtk_widget_remove_css_class (label, "accent");
  if (is_delta (column) && fabs (v) >= 0.0005)
    gtk_widget_add_css_class (label, v > 0 ? "error" : "accent");
}

static void
set_factories (FcDiffTreeView *self)
{
  for (FcDiffColumn c = 0; c < FC_DIFF_N_COLUMNS; c++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows_cb, GINT_TO_POINTER (c), NULL));

      if (c == FC_DIFF_COLUMN_FUNCTION)
        {
          g_signal_connect (factory, "setup", G_CALLBACK (setup_function_cb), NULL);
          g_signal_connect (factory, "bind", G_CALLBACK (bind_function_cb), NULL);
          g_signal_connect (factory, "unbind", G_CALLBACK (fc_tree_row_unbind_expander), NULL);
        }
      else
        {
          g_signal_connect (factory, "setup", G_CALLBACK (fc_tree_row_setup_number_cell), NULL);
          g_signal_connect (factory, "bind", G_CALLBACK (bind_number_cb), GINT_TO_POINTER (c));
        }
      gtk_column_view_column_set_factory (column_of (self, c), factory);
      gtk_column_view_column_set_sorter (column_of (self, c), sorter);
    }
}

static void
update_summary (FcDiffTreeView *self)
{
  g_autofree char *summary = NULL;

  if (self->diff != NULL)
    summary = g_strdup_printf (_("Before: %'" PRIu64 " samples · After: %'" PRIu64
                                 " samples · shares of each profile's samples, Δ in percentage points"),
                               fc_diff_get_n_before (self->diff), fc_diff_get_n_after (self->diff));
  gtk_label_set_text (self->summary_label, summary);
}

static void
fc_diff_tree_view_dispose (GObject *object)
{
  FcDiffTreeView *self = (FcDiffTreeView *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_DIFF_TREE_VIEW);
  /* the template's root box is not a bound child: unparent it here */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->roots);
  g_clear_pointer (&self->diff, fc_diff_unref);

  G_OBJECT_CLASS (fc_diff_tree_view_parent_class)->dispose (object);
}

static void
fc_diff_tree_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  FcDiffTreeView *self = FC_DIFF_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_DIFF:
      g_value_set_pointer (value, self->diff);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_diff_tree_view_class_init (FcDiffTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_diff_tree_view_dispose;
  object_class->get_property = fc_diff_tree_view_get_property;

  /* notified when the table shows another comparison (or none) */
  properties[PROP_DIFF] =
    g_param_spec_pointer ("diff", NULL, NULL,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-diff-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, column_view);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, function_column);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, before_self_column);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, after_self_column);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, delta_self_column);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, before_total_column);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, after_total_column);
  gtk_widget_class_bind_template_child (widget_class, FcDiffTreeView, delta_total_column);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "difftreeview");
}

static void
fc_diff_tree_view_init (FcDiffTreeView *self)
{
  GtkTreeListRowSorter *row_sorter;

  gtk_widget_init_template (GTK_WIDGET (self));
  set_factories (self);

  self->roots = g_list_store_new (FC_TYPE_DIFF_ROW);
  self->tree_model = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE, FALSE,
                                              create_children_cb, NULL, NULL);
  /* the column view's sorter, applied among siblings only */
  row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->tree_model)), GTK_SORTER (row_sorter));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->column_view, self->delta_total_column, GTK_SORT_DESCENDING);
}

GtkWidget *
fc_diff_tree_view_new (void)
{
  return g_object_new (FC_TYPE_DIFF_TREE_VIEW, NULL);
}

/**
 * fc_diff_tree_view_set_diff:
 * @self: a diff tree view
 * @diff: (nullable): the comparison to show
 *
 * Shows @diff's call paths (a reference is taken), the biggest changes
 * opened a few levels.
 */
void
fc_diff_tree_view_set_diff (FcDiffTreeView *self,
                            FcDiff         *diff)
{
  g_return_if_fail (FC_IS_DIFF_TREE_VIEW (self));

  if (diff == self->diff)
    return;

  g_clear_pointer (&self->diff, fc_diff_unref);
  self->diff = diff != NULL ? fc_diff_ref (diff) : NULL;
  {
    g_autoptr(GListStore) rows = rows_of (diff, diff != NULL ? fc_diff_get_roots (diff) : NULL);
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (rows)); i++)
      g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (rows), i));
    g_list_store_splice (self->roots, 0, g_list_model_get_n_items (G_LIST_MODEL (self->roots)),
                         items->pdata, items->len);
  }

  /* open the path of the biggest change, as the call tree opens the heaviest */
  for (guint position = 0, depth = 0; depth < 8; depth++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);

      if (row == NULL || !gtk_tree_list_row_is_expandable (row))
        break;
      /* the tree row sorter keeps children right after their parent, sorted */
      gtk_tree_list_row_set_expanded (row, TRUE);
      position++;
    }

  update_summary (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIFF]);
}

/**
 * fc_diff_tree_view_get_diff:
 * @self: a diff tree view
 *
 * Returns: (transfer none) (nullable): the comparison shown
 */
FcDiff *
fc_diff_tree_view_get_diff (FcDiffTreeView *self)
{
  g_return_val_if_fail (FC_IS_DIFF_TREE_VIEW (self), NULL);

  return self->diff;
}

/**
 * fc_diff_tree_view_get_model:
 * @self: a diff tree view
 *
 * Returns: (transfer none): the rows in the order shown, #GtkTreeListRow of #FcDiffRow
 */
GListModel *
fc_diff_tree_view_get_model (FcDiffTreeView *self)
{
  g_return_val_if_fail (FC_IS_DIFF_TREE_VIEW (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

void
fc_diff_tree_view_sort_by (FcDiffTreeView *self,
                           FcDiffColumn    column,
                           GtkSortType     direction)
{
  g_return_if_fail (FC_IS_DIFF_TREE_VIEW (self));
  g_return_if_fail (column < FC_DIFF_N_COLUMNS);

  gtk_column_view_sort_by_column (self->column_view, column_of (self, column), direction);
}
