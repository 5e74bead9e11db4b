/* fc-call-tree-view.c - the call tree as a table with expanders: function, self, total, samples
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <glib/gi18n.h>

#include "fc-resources.h"

#include "fc-call-tree-view.h"
#include "fc-session-view.h"
#include "fc-view-util.h"
#include "fc-format.h"
#include "fc-session-tree.h"

/* FcCallTreeRow: one node of a filtered tree, keeping the tree alive. */

struct _FcCallTreeRow
{
  FcTreeRow parent_instance;
};

G_DEFINE_FINAL_TYPE (FcCallTreeRow, fc_call_tree_row, FC_TYPE_TREE_ROW)

static void
fc_call_tree_row_class_init (FcCallTreeRowClass *klass)
{
}

static void
fc_call_tree_row_init (FcCallTreeRow *self)
{
}

static FcCallTreeRow *
fc_call_tree_row_new (FcFilteredTree           *tree,
                      const FcFilteredTreeNode *node)
{
  return fc_tree_row_new (FC_TYPE_CALL_TREE_ROW, fc_filtered_tree_ref (tree),
                          (GDestroyNotify) fc_filtered_tree_unref, node);
}

const FcFilteredTreeNode *
fc_call_tree_row_get_node (FcCallTreeRow *self)
{
  return fc_tree_row_get_node (FC_TREE_ROW (self));
}

/**
 * fc_call_tree_row_get_tree:
 * @self: a row
 *
 * Returns: (transfer none): the tree the row's node belongs to
 */
FcFilteredTree *
fc_call_tree_row_get_tree (FcCallTreeRow *self)
{
  return fc_tree_row_get_owner (FC_TREE_ROW (self));
}

/* FcCallTreeRowList: the children of one node as a GListModel, making a
 * row object only when asked for one. A bottom-up root has a child per
 * function; making them all up front is a stall of its own. */

#define FC_TYPE_CALL_TREE_ROW_LIST (fc_call_tree_row_list_get_type ())
G_DECLARE_FINAL_TYPE (FcCallTreeRowList, fc_call_tree_row_list, FC, CALL_TREE_ROW_LIST, GObject)

struct _FcCallTreeRowList
{
  GObject                   parent_instance;
  FcFilteredTree           *tree;
  const FcFilteredTreeNode *node;
};

static GType
fc_call_tree_row_list_get_item_type (GListModel *model)
{
  return FC_TYPE_CALL_TREE_ROW;
}

static guint
fc_call_tree_row_list_get_n_items (GListModel *model)
{
  FcCallTreeRowList *self = FC_CALL_TREE_ROW_LIST (model);

  return self->node ? fc_filtered_tree_node_get_n_children (self->node) : 0;
}

static gpointer
fc_call_tree_row_list_get_item (GListModel *model,
                                guint       position)
{
  FcCallTreeRowList *self = FC_CALL_TREE_ROW_LIST (model);

  if (self->node == NULL || position >= fc_filtered_tree_node_get_n_children (self->node))
    return NULL;

  return fc_call_tree_row_new (self->tree, fc_filtered_tree_node_get_child (self->node, position));
}

static void
fc_call_tree_row_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = fc_call_tree_row_list_get_item_type;
  iface->get_n_items = fc_call_tree_row_list_get_n_items;
  iface->get_item = fc_call_tree_row_list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (FcCallTreeRowList, fc_call_tree_row_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, fc_call_tree_row_list_model_init))

static void
fc_call_tree_row_list_finalize (GObject *object)
{
  FcCallTreeRowList *self = (FcCallTreeRowList *)object;

  g_clear_pointer (&self->tree, fc_filtered_tree_unref);

  G_OBJECT_CLASS (fc_call_tree_row_list_parent_class)->finalize (object);
}

static void
fc_call_tree_row_list_class_init (FcCallTreeRowListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fc_call_tree_row_list_finalize;
}

static void
fc_call_tree_row_list_init (FcCallTreeRowList *self)
{
}

/* Shows the children of @node of @tree (both NULL: nothing). */
static void
fc_call_tree_row_list_set (FcCallTreeRowList        *self,
                           FcFilteredTree           *tree,
                           const FcFilteredTreeNode *node)
{
  guint n_old = fc_call_tree_row_list_get_n_items (G_LIST_MODEL (self));
  guint n_new;

  g_clear_pointer (&self->tree, fc_filtered_tree_unref);
  self->tree = tree ? fc_filtered_tree_ref (tree) : NULL;
  self->node = node;
  n_new = fc_call_tree_row_list_get_n_items (G_LIST_MODEL (self));

  if (n_old > 0 || n_new > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n_old, n_new);
}

static GListModel *
children_model_new (FcFilteredTree           *tree,
                    const FcFilteredTreeNode *node)
{
  FcCallTreeRowList *list = g_object_new (FC_TYPE_CALL_TREE_ROW_LIST, NULL);

  list->tree = fc_filtered_tree_ref (tree);
  list->node = node;

  return G_LIST_MODEL (list);
}

/* FcCallTreeView */

/* rows let into the column view per step, and how far to go before letting
 * the rest in at once (beyond what GTK 4.8 keeps widgets for) */
#define ROWS_PER_STEP  40
#define MAX_GROWN_ROWS 400

typedef enum {
  STAGE_SHRINK,
  STAGE_DETACH,
  STAGE_SWAP,
  STAGE_ATTACH,
  STAGE_GROW,
  STAGE_RELEASE,
  STAGE_DONE,
} RebuildStage;

typedef enum {
  COLUMN_FUNCTION,
  COLUMN_SELF,
  COLUMN_TOTAL,
  COLUMN_SAMPLES,
} Column;

struct _FcCallTreeView
{
  GtkWidget            parent_instance;

  /* template widgets */
  GtkToggleButton     *top_down_button;
  GtkToggleButton     *bottom_up_button;
  GtkLabel            *summary_label;
  GtkSpinner          *spinner;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *function_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *samples_column;

  /* owned */
  FcSessionTree       *session_tree;
  GSignalGroup        *session_signals;
  FcCallTreeRowList   *roots;
  GtkTreeListModel    *tree_model;
  /* sorts siblings by the clicked column; passes rows through untouched
   * until a header is clicked (see sorter_changed_cb) */
  GtkSortListModel    *sorted;
  GtkTreeListRowSorter *row_sorter;
  GtkSliceListModel   *slice;
  GtkSingleSelection  *selection;

  /* a new tree arrived while hidden: rows are made when shown */
  gboolean             tree_dirty;

  /* Showing a new tree is split over idles (see rebuild_step_cb) so
   * that no single step holds the main loop for long. */
  guint                rebuild_source;
  RebuildStage         rebuild_stage;
  GtkTreeListModel    *old_tree_model;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (FcCallTreeView, fc_call_tree_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (FC_TYPE_SESSION_VIEW, NULL))

enum {
  PROP_0,
  PROP_BOTTOM_UP,
  PROP_BUSY,
  N_PROPS,
  /* FcSessionView's */
  PROP_SESSION = N_PROPS,
};

static GParamSpec *properties[N_PROPS];

static void busy_changed_cb (FcCallTreeView *self);

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  FcCallTreeRow *row = item;

  if (fc_filtered_tree_node_get_n_children (fc_call_tree_row_get_node (row)) == 0)
    return NULL;

  return children_model_new (fc_call_tree_row_get_tree (row), fc_call_tree_row_get_node (row));
}

static gint64
root_total_ns (FcFilteredTree *tree)
{
  return fc_filtered_tree_node_get_total_ns (fc_filtered_tree_get_root (tree));
}

GtkColumnView *
fc_call_tree_view_get_column_view (FcCallTreeView *self)
{
  g_return_val_if_fail (FC_IS_CALL_TREE_VIEW (self), NULL);
  return self->column_view;
}

const char *
fc_call_tree_view_get_summary (FcCallTreeView *self)
{
  g_return_val_if_fail (FC_IS_CALL_TREE_VIEW (self), NULL);
  return gtk_label_get_text (self->summary_label);
}

static void
update_summary (FcCallTreeView *self)
{
  FcFilteredTree *tree = fc_session_tree_get_filtered_tree (self->session_tree);

  if (tree != NULL)
    {
      const FcFilteredTreeNode *root = fc_filtered_tree_get_root (tree);
      g_autofree char *duration = fc_format_duration (fc_filtered_tree_node_get_total_ns (root));
      guint64 samples = fc_filtered_tree_node_get_total (root);
      g_autofree char *summary = NULL;

      summary = g_strdup_printf (ngettext ("%'" PRIu64 " sample · %s",
                                           "%'" PRIu64 " samples · %s", samples),
                                 samples, duration);
      /* the filter hid every frame: say so rather than show an empty tree */
      if (samples > 0 && fc_filtered_tree_node_get_n_children (root) == 0 &&
          fc_view_filter_empty_message (fc_filtered_tree_get_filter (tree)) != NULL)
        {
          g_autofree char *with_message = g_strdup_printf ("%s · %s", summary,
                                                           fc_view_filter_empty_message (fc_filtered_tree_get_filter (tree)));

          g_free (summary);
          summary = g_steal_pointer (&with_message);
        }
      gtk_label_set_text (self->summary_label, summary);
    }
  else
    gtk_label_set_text (self->summary_label, NULL);
}

/* A fresh row model for the current tree, its heaviest path opened.
 * Fresh rather than refilled: removing the old rows one by one from a
 * GtkTreeListModel costs far more than dropping the whole model later. */
static void
swap_models (FcCallTreeView *self)
{
  FcFilteredTree *tree = fc_session_tree_get_filtered_tree (self->session_tree);
  g_autoptr(FcCallTreeRowList) roots = g_object_new (FC_TYPE_CALL_TREE_ROW_LIST, NULL);
  GtkTreeListModel *tree_model;

  fc_call_tree_row_list_set (roots, tree, tree ? fc_filtered_tree_get_root (tree) : NULL);
  tree_model = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (roots)), FALSE, FALSE,
                                        create_children_cb, NULL, NULL);

  /* Open the heaviest path a few levels, as Sentry does, so there is
   * something to read before the first click. */
  for (guint position = 0, depth = 0; depth < 8; depth++)
    {
      g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (tree_model, position);

      if (row == NULL || !gtk_tree_list_row_is_expandable (row))
        break;
      gtk_tree_list_row_set_expanded (row, TRUE);
      position++;
    }

  /* an older one not yet released goes now: only one waits at a time */
  g_clear_object (&self->old_tree_model);
  self->old_tree_model = g_steal_pointer (&self->tree_model);
  self->tree_model = tree_model;
  g_set_object (&self->roots, roots);

  gtk_slice_list_model_set_size (self->slice, ROWS_PER_STEP);
  gtk_sort_list_model_set_model (self->sorted, G_LIST_MODEL (self->tree_model));
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

/* Where @row is shown: its place in the tree model, or once the rows are
 * sorted by a column, found among the sorted rows (GtkSortListModel has no
 * reverse lookup; the rows shown are only the opened ones). */
static guint
shown_position (FcCallTreeView *self,
                GtkTreeListRow *row)
{
  g_autoptr(FcCallTreeRow) wanted = gtk_tree_list_row_get_item (row);
  guint n;

  if (gtk_sort_list_model_get_sorter (self->sorted) == NULL)
    return gtk_tree_list_row_get_position (row);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) shown = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
      g_autoptr(FcCallTreeRow) item = gtk_tree_list_row_get_item (shown);

      if (fc_call_tree_row_get_node (item) == fc_call_tree_row_get_node (wanted))
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* The session's frame was picked elsewhere (a caller or callee in the
 * details, a flame view): select its row, opening the rows above it. */
static void
select_session_frame (FcCallTreeView *self)
{
  FcSession *session = fc_session_tree_get_session (self->session_tree);
  FcFilteredTree *tree = fc_session_tree_get_filtered_tree (self->session_tree);
  GtkTreeListRow *selected;
  g_autoptr(GArray) path = NULL;
  g_autoptr(GtkTreeListRow) row = NULL;
  guint frame;
  guint position;

  if (session == NULL || tree == NULL || self->tree_model == NULL || self->rebuild_stage != STAGE_DONE)
    return;

  frame = fc_session_get_selected_frame (session);
  selected = gtk_single_selection_get_selected_item (self->selection);
  if (selected != NULL)
    {
      g_autoptr(FcCallTreeRow) item = gtk_tree_list_row_get_item (selected);

      if (item != NULL && fc_filtered_tree_node_get_frame (fc_call_tree_row_get_node (item)) == frame)
        return;
    }
  if (frame == FC_SESSION_NO_FRAME || (path = fc_filtered_tree_find_path (tree, frame)) == NULL)
    return;

  row = gtk_tree_list_model_get_child_row (self->tree_model, g_array_index (path, guint, 0));
  for (guint i = 1; i < path->len && row != NULL; i++)
    {
      GtkTreeListRow *child;

      gtk_tree_list_row_set_expanded (row, TRUE);
      child = gtk_tree_list_row_get_child_row (row, g_array_index (path, guint, i));
      g_object_unref (row);
      row = child;
    }
  if (row == NULL)
    return;

  position = shown_position (self, row);
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  gtk_single_selection_set_selected (self->selection, position);

  /* GTK 4.8 has no gtk_column_view_scroll_to(): its list view's action does it */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

static void
rebuild_step (FcCallTreeView *self)
{
  switch (self->rebuild_stage)
    {
    case STAGE_SHRINK:
      /* The old row widgets go a few dozen at a time too: all of them at
       * once is the longest step of all. Rows past those GTK keeps widgets
       * for go in the first step, cheaply. */
      {
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->slice));

        if (gtk_column_view_get_model (self->column_view) != NULL && n > 2 * ROWS_PER_STEP)
          gtk_slice_list_model_set_size (self->slice, MIN (n, MAX_GROWN_ROWS) - 2 * ROWS_PER_STEP);
        else
          self->rebuild_stage = STAGE_DETACH;
      }
      break;

    case STAGE_DETACH:
      /* Away from the column view while the rows change: otherwise GTK
       * 4.8 rebuilds its visible rows at every step. */
      gtk_column_view_set_model (self->column_view, NULL);
      self->rebuild_stage = STAGE_SWAP;
      break;

    case STAGE_SWAP:
      swap_models (self);
      self->rebuild_stage = STAGE_ATTACH;
      break;

    case STAGE_ATTACH:
      gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
      self->rebuild_stage = STAGE_GROW;
      break;

    case STAGE_GROW:
      /* GTK 4.8 makes a row widget for each of the first couple of
       * hundred rows at once, and styles them all in the next frame:
       * let them in a few dozen at a time. */
      {
        guint size = gtk_slice_list_model_get_size (self->slice);

        if (size >= g_list_model_get_n_items (G_LIST_MODEL (self->tree_model)) || size >= MAX_GROWN_ROWS)
          {
            gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
            self->rebuild_stage = STAGE_RELEASE;
          }
        else
          gtk_slice_list_model_set_size (self->slice, size + ROWS_PER_STEP);
      }
      break;

    case STAGE_RELEASE:
      g_clear_object (&self->old_tree_model);
      self->rebuild_stage = STAGE_DONE;
      /* a new tree (other range, filter, direction) keeps the frame picked */
      select_session_frame (self);
      break;

    case STAGE_DONE:
    default:
      break;
    }
}

static gboolean
rebuild_step_cb (gpointer user_data)
{
  FcCallTreeView *self = user_data;

  rebuild_step (self);
  if (self->rebuild_stage != STAGE_DONE)
    return G_SOURCE_CONTINUE;

  self->rebuild_source = 0;
  busy_changed_cb (self);
  return G_SOURCE_REMOVE;
}

/* Runs what is left of a staged rebuild now. */
static void
rebuild_finish (FcCallTreeView *self)
{
  if (self->rebuild_source == 0)
    return;

  while (self->rebuild_stage != STAGE_DONE)
    rebuild_step (self);
  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  busy_changed_cb (self);
}

static void
rebuild_rows (FcCallTreeView *self)
{
  gboolean was_busy = fc_call_tree_view_get_busy (self);

  self->tree_dirty = FALSE;
  update_summary (self);

  /* a newer tree while one is being shown: start over from the top */
  self->rebuild_stage = STAGE_SHRINK;
  if (self->rebuild_source == 0)
    {
      /* below redraw, so frames are drawn between the steps */
      self->rebuild_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, rebuild_step_cb, self, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->rebuild_source),
                                "[flamecast] call tree rows");
    }
  if (!was_busy)
    busy_changed_cb (self);
}

static void
tree_changed_cb (FcCallTreeView *self)
{
  /* Rows for a big tree cost the main loop a while, and most of the time
   * the call tree page is not the one shown: wait until it is. The rows
   * of the tree before go now, and the tree with them (a big chunk's is
   * 1.6 million nodes): the page is not shown, they are out of sight. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->tree_dirty = TRUE;
      if (self->tree_model != NULL && self->rebuild_source == 0)
        {
          gtk_column_view_set_model (self->column_view, NULL);
          gtk_sort_list_model_set_model (self->sorted, NULL);
          g_clear_object (&self->tree_model);
          g_clear_object (&self->old_tree_model);
          g_clear_object (&self->roots);
          gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
        }
    }
  else
    rebuild_rows (self);
}

static void
busy_changed_cb (FcCallTreeView *self)
{
  /* The spinner says a worker builds the tree. Not while rows are put in
   * place: those steps are idles below redraw, and a spinner asks for a
   * frame every frame; where drawing a frame takes longer than a frame
   * lasts (software GL on a loaded machine) the steps would never run. */
  gtk_spinner_set_spinning (self->spinner, fc_session_tree_get_busy (self->session_tree));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
bottom_up_changed_cb (FcCallTreeView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOTTOM_UP]);
}

static void
selection_changed_cb (FcCallTreeView *self)
{
  GtkTreeListRow *tree_row = gtk_single_selection_get_selected_item (self->selection);
  FcSession *session = fc_session_tree_get_session (self->session_tree);
  FcCallTreeRow *row;

  if (tree_row == NULL || session == NULL)
    return;

  row = gtk_tree_list_row_get_item (tree_row);
  fc_session_set_selected_frame (session, fc_filtered_tree_node_get_frame (fc_call_tree_row_get_node (row)));
  g_object_unref (row);
}

static gboolean
function_tooltip_cb (GtkWidget  *label,
                     int         x,
                     int         y,
                     gboolean    keyboard,
                     GtkTooltip *tooltip,
                     gpointer    user_data)
{
  GtkWidget *expander = gtk_widget_get_parent (label);
  g_autoptr(FcCallTreeRow) row = NULL;
  g_autoptr(GString) text = NULL;
  FcProfile *profile;
  const FcFrame *frame;
  guint32 frame_id;
  const char *package;
  const char *file;
  char buf[512];

  if (!GTK_IS_TREE_EXPANDER (expander))
    return FALSE;

  /* (transfer full) */
  row = gtk_tree_expander_get_item (GTK_TREE_EXPANDER (expander));
  if (row == NULL)
    return FALSE;

  profile = fc_filtered_tree_get_profile (fc_call_tree_row_get_tree (row));
  frame_id = fc_filtered_tree_node_get_frame (fc_call_tree_row_get_node (row));
  frame = fc_profile_get_frame (profile, frame_id);
  if (frame == NULL)
    return FALSE;

  /* built when asked: setting a tooltip on every bind costs more than the bind */
  text = g_string_new (fc_profile_frame_label (profile, frame_id, buf, sizeof buf));
  package = fc_profile_string (profile, frame->package ? frame->package : frame->module);
  file = fc_profile_string (profile, frame->filename ? frame->filename : frame->abs_path);
  if (package != NULL)
    g_string_append_printf (text, "\n%s", package);
  if (file != NULL && frame->lineno != FC_LINE_NONE)
    g_string_append_printf (text, "\n%s:%d", file, frame->lineno);
  else if (file != NULL)
    g_string_append_printf (text, "\n%s", file);

  gtk_tooltip_set_text (tooltip, text->str);
  return TRUE;
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
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (function_tooltip_cb), NULL);
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
  g_autoptr(FcCallTreeRow) row = gtk_tree_list_row_get_item (tree_row);
  FcProfile *profile = fc_filtered_tree_get_profile (fc_call_tree_row_get_tree (row));
  guint32 frame_id = fc_filtered_tree_node_get_frame (fc_call_tree_row_get_node (row));
  const FcFrame *frame = fc_profile_get_frame (profile, frame_id);
  char buf[512];

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), tree_row);
  gtk_label_set_text (GTK_LABEL (label), fc_profile_frame_label (profile, frame_id, buf, sizeof buf));

  if (frame->in_app == FC_IN_APP_NO)
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
}



static void
bind_number_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkTreeListRow *tree_row = gtk_list_item_get_item (list_item);
  g_autoptr(FcCallTreeRow) row = gtk_tree_list_row_get_item (tree_row);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  if (column == COLUMN_SAMPLES)
    text = g_strdup_printf ("%'" PRIu64, fc_filtered_tree_node_get_total (fc_call_tree_row_get_node (row)));
  else
    {
      gint64 ns = column == COLUMN_SELF ? fc_filtered_tree_node_get_self_ns (fc_call_tree_row_get_node (row))
                                        : fc_filtered_tree_node_get_total_ns (fc_call_tree_row_get_node (row));
      g_autofree char *duration = fc_format_duration (ns);
      g_autofree char *percent = fc_format_percent (ns, root_total_ns (fc_call_tree_row_get_tree (row)));

      text = g_strdup_printf ("%s  %s", duration, percent);
    }

  gtk_label_set_text (GTK_LABEL (label), text);
}

/* One column's order of two rows, ascending; the column view turns it
 * round for descending. Ties go by name so the order is stable to read. */
static int
compare_rows_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  const FcFilteredTreeNode *x = fc_call_tree_row_get_node ((FcCallTreeRow *) a);
  const FcFilteredTreeNode *y = fc_call_tree_row_get_node ((FcCallTreeRow *) b);
  FcProfile *profile = fc_filtered_tree_get_profile (fc_call_tree_row_get_tree ((FcCallTreeRow *) a));
  Column column = GPOINTER_TO_INT (user_data);
  gint64 vx = 0;
  gint64 vy = 0;
  char bx[512];
  char by[512];

  switch (column)
    {
    case COLUMN_SELF:
      vx = fc_filtered_tree_node_get_self_ns (x);
      vy = fc_filtered_tree_node_get_self_ns (y);
      break;
    case COLUMN_TOTAL:
      vx = fc_filtered_tree_node_get_total_ns (x);
      vy = fc_filtered_tree_node_get_total_ns (y);
      break;
    case COLUMN_SAMPLES:
      vx = (gint64) fc_filtered_tree_node_get_total (x);
      vy = (gint64) fc_filtered_tree_node_get_total (y);
      break;
    case COLUMN_FUNCTION:
    default:
      break;
    }
  if (vx != vy)
    return vx < vy ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;

  /* both rows are of one tree: the sorter sees one model's items */
  return gtk_ordering_from_cmpfunc (g_utf8_collate (
    fc_profile_frame_label (profile, fc_filtered_tree_node_get_frame (x), bx, sizeof bx),
    fc_profile_frame_label (profile, fc_filtered_tree_node_get_frame (y), by, sizeof by)));
}

/* A header was clicked. Until then the rows are shown in the tree's own
 * order, heaviest total first, which is what the Total column's arrow
 * says: sorting would make a row object for every row shown, a stall on a
 * big bottom-up tree, for no change. GTK 4.8 cannot tell which column
 * the order is by, so once sorted the rows stay sorted. */
static void
sorter_changed_cb (FcCallTreeView *self)
{
  if (gtk_sort_list_model_get_sorter (self->sorted) == NULL)
    gtk_sort_list_model_set_sorter (self->sorted, GTK_SORTER (self->row_sorter));
}

static void
set_sorters (FcCallTreeView *self)
{
  GtkColumnViewColumn *columns[] = {
    [COLUMN_FUNCTION] = self->function_column,
    [COLUMN_SELF] = self->self_column,
    [COLUMN_TOTAL] = self->total_column,
    [COLUMN_SAMPLES] = self->samples_column,
  };

  for (Column c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      g_autoptr(GtkSorter) sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows_cb, GINT_TO_POINTER (c), NULL));

      gtk_column_view_column_set_sorter (columns[c], sorter);
    }
  gtk_column_view_sort_by_column (self->column_view, self->total_column, GTK_SORT_DESCENDING);

  /* the column view's order, applied among siblings only: children stay under their parent */
  self->row_sorter = gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (sorter_changed_cb), self, G_CONNECT_SWAPPED);
}

static void
set_factories (FcCallTreeView *self)
{
  g_autoptr(GtkListItemFactory) function = gtk_signal_list_item_factory_new ();
  struct { GtkColumnViewColumn *column; Column kind; } numbers[] = {
    { self->self_column, COLUMN_SELF },
    { self->total_column, COLUMN_TOTAL },
    { self->samples_column, COLUMN_SAMPLES },
  };

  g_signal_connect (function, "setup", G_CALLBACK (setup_function_cb), NULL);
  g_signal_connect (function, "bind", G_CALLBACK (bind_function_cb), NULL);
  g_signal_connect (function, "unbind", G_CALLBACK (fc_tree_row_unbind_expander), NULL);
  gtk_column_view_column_set_factory (self->function_column, function);

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();

      g_signal_connect (factory, "setup", G_CALLBACK (fc_tree_row_setup_number_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_number_cb), GINT_TO_POINTER (numbers[i].kind));
      gtk_column_view_column_set_factory (numbers[i].column, factory);
    }
}

static void
fc_call_tree_view_map (GtkWidget *widget)
{
  FcCallTreeView *self = FC_CALL_TREE_VIEW (widget);

  GTK_WIDGET_CLASS (fc_call_tree_view_parent_class)->map (widget);

  if (self->tree_dirty)
    rebuild_rows (self);
}

static void
fc_call_tree_view_dispose (GObject *object)
{
  FcCallTreeView *self = (FcCallTreeView *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), FC_TYPE_CALL_TREE_VIEW);
  /* the template's root box is not a bound child: unparent it here */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->old_tree_model);
  if (self->session_tree != NULL)
    g_signal_handlers_disconnect_by_data (self->session_tree, self);
  g_clear_object (&self->session_tree);
  g_clear_object (&self->selection);
  g_clear_object (&self->slice);
  g_clear_object (&self->sorted);
  g_clear_object (&self->row_sorter);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->roots);

  G_OBJECT_CLASS (fc_call_tree_view_parent_class)->dispose (object);
}

static void
fc_call_tree_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  FcCallTreeView *self = FC_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, fc_call_tree_view_get_session (self));
      break;
    case PROP_BOTTOM_UP:
      g_value_set_boolean (value, fc_call_tree_view_get_bottom_up (self));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, fc_call_tree_view_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_call_tree_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  FcCallTreeView *self = FC_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      fc_call_tree_view_set_session (self, g_value_get_object (value));
      break;
    case PROP_BOTTOM_UP:
      fc_call_tree_view_set_bottom_up (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
fc_call_tree_view_class_init (FcCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_call_tree_view_dispose;
  object_class->get_property = fc_call_tree_view_get_property;
  object_class->set_property = fc_call_tree_view_set_property;
  widget_class->map = fc_call_tree_view_map;

  properties[PROP_BOTTOM_UP] =
    g_param_spec_boolean ("bottom-up", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
  fc_session_view_class_override (object_class, PROP_SESSION);

  /* Referencing the resource links it (and its constructor) from the static library. */
  (void) fc_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-call-tree-view.ui");
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, top_down_button);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, bottom_up_button);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, spinner);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, column_view);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, function_column);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, self_column);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, total_column);
  gtk_widget_class_bind_template_child (widget_class, FcCallTreeView, samples_column);

  gtk_widget_class_install_property_action (widget_class, "call-tree.bottom-up", "bottom-up");

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "calltreeview");
}

static void
fc_call_tree_view_init (FcCallTreeView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->session_tree = fc_session_tree_new (TRUE);
  self->roots = g_object_new (FC_TYPE_CALL_TREE_ROW_LIST, NULL);
  self->tree_model = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->roots)), FALSE, FALSE,
                                              create_children_cb, NULL, NULL);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->tree_model)), NULL);
  self->slice = gtk_slice_list_model_new (G_LIST_MODEL (g_object_ref (self->sorted)), 0, G_MAXUINT);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->slice)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  set_factories (self);
  set_sorters (self);

  g_signal_connect_swapped (self->session_tree, "notify::filtered-tree", G_CALLBACK (tree_changed_cb), self);
  g_signal_connect_swapped (self->session_tree, "notify::busy", G_CALLBACK (busy_changed_cb), self);
  g_signal_connect_swapped (self->session_tree, "notify::bottom-up", G_CALLBACK (bottom_up_changed_cb), self);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  self->session_signals = g_signal_group_new (FC_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-frame",
                                  G_CALLBACK (select_session_frame), self);

  g_object_bind_property (self->session_tree, "bottom-up", self->bottom_up_button, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->session_tree, "bottom-up", self->top_down_button, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);

}

GtkWidget *
fc_call_tree_view_new (void)
{
  return g_object_new (FC_TYPE_CALL_TREE_VIEW, NULL);
}

/**
 * fc_call_tree_view_get_session:
 * @self: a call tree view
 *
 * Returns: (transfer none) (nullable): the session it follows
 */
FcSession *
fc_call_tree_view_get_session (FcCallTreeView *self)
{
  g_return_val_if_fail (FC_IS_CALL_TREE_VIEW (self), NULL);

  return fc_session_tree_get_session (self->session_tree);
}

void
fc_call_tree_view_set_session (FcCallTreeView *self,
                               FcSession      *session)
{
  g_return_if_fail (FC_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (!session || FC_IS_SESSION (session));

  if (session == fc_session_tree_get_session (self->session_tree))
    return;

  fc_session_tree_set_session (self->session_tree, session);
  g_signal_group_set_target (self->session_signals, session);
  fc_session_view_notify (FC_SESSION_VIEW (self));
}

gboolean
fc_call_tree_view_get_bottom_up (FcCallTreeView *self)
{
  g_return_val_if_fail (FC_IS_CALL_TREE_VIEW (self), FALSE);

  return fc_session_tree_get_bottom_up (self->session_tree);
}

void
fc_call_tree_view_set_bottom_up (FcCallTreeView *self,
                                 gboolean        bottom_up)
{
  g_return_if_fail (FC_IS_CALL_TREE_VIEW (self));

  fc_session_tree_set_bottom_up (self->session_tree, bottom_up);
}

/**
 * fc_call_tree_view_get_busy:
 * @self: a call tree view
 *
 * Returns: whether a newer tree is being built on a worker thread or its
 * rows are still being put in place
 */
gboolean
fc_call_tree_view_get_busy (FcCallTreeView *self)
{
  g_return_val_if_fail (FC_IS_CALL_TREE_VIEW (self), FALSE);

  return fc_session_tree_get_busy (self->session_tree) || self->rebuild_source != 0;
}

/**
 * fc_call_tree_view_get_filtered_tree:
 * @self: a call tree view
 *
 * Returns: (transfer none) (nullable): the tree shown, with the session's frame filter
 */
FcFilteredTree *
fc_call_tree_view_get_filtered_tree (FcCallTreeView *self)
{
  g_return_val_if_fail (FC_IS_CALL_TREE_VIEW (self), NULL);

  return fc_session_tree_get_filtered_tree (self->session_tree);
}

/**
 * fc_call_tree_view_get_model:
 * @self: a call tree view
 *
 * Returns: (transfer none): the rows, #GtkTreeListRow of #FcCallTreeRow, in
 * the tree's own order (heaviest first); the column view shows them sorted
 * by the clicked column
 */
GtkTreeListModel *
fc_call_tree_view_get_model (FcCallTreeView *self)
{
  g_return_val_if_fail (FC_IS_CALL_TREE_VIEW (self), NULL);

  /* asked for while hidden or half shown: make the rows now */
  if (self->tree_dirty)
    rebuild_rows (self);
  rebuild_finish (self);

  return self->tree_model;
}
