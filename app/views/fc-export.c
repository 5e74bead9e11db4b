/* fc-export.c - save a profile as V2 chunks, V1 envelopes or other tools' formats; export a view as PNG or SVG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything that reads the profile, encodes or touches the disk runs on a
 * worker; only the PNG's rendering (GSK) happens on the main thread, as it
 * must. The SVG is drawn from the same core geometry the views draw
 * (FcFlameLayout for the flamechart, FcCallTree for the flamegraph), so it
 * is made of boxes and text, not of a picture of them.
 */

#include <cairo-svg.h>
#include <glib/gi18n.h>

#include "fc-call-tree.h"
#include "fc-colors.h"
#include "fc-convert.h"
#include "fc-export.h"
#include "fc-export-plan.h"
#include "fc-flame-layout.h"
#include "fc-sender.h"
#include "fc-writer.h"

#define ROW_HEIGHT     20.0
#define CULL_WIDTH     0.25
#define LABEL_PADDING  4.0
#define MIN_LABEL      28.0
#define FONT_SIZE      11.0

/* -- files -- */

static gboolean
write_bytes (GFile         *file,
             GBytes        *bytes,
             GCancellable  *cancellable,
             GError       **error)
{
  if (!g_file_replace_contents (file, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL, FALSE,
                                G_FILE_CREATE_REPLACE_DESTINATION, NULL, cancellable, error))
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_prefix_error (error, "%s: ", name);
      return FALSE;
    }
  return TRUE;
}

/* -- save -- */

typedef struct {
  FcDocument   *document;
  GFile        *file;
  FcSaveFormat  format;
} Save;

static void
save_free (Save *save)
{
  g_clear_object (&save->document);
  g_clear_object (&save->file);
  g_free (save);
}

/* The payloads to write, in file order. */
static GPtrArray *
save_payloads (Save    *save,
               GError **error)
{
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  guint n = fc_document_get_n_profiles (save->document);
  GBytes *whole = NULL;

  if (save->format >= FC_SAVE_OTLP && n > 0)
    {
      static const FcExportFormat formats[] = {
        [FC_SAVE_OTLP] = FC_EXPORT_FORMAT_OTLP,
        [FC_SAVE_OTLP_JSON] = FC_EXPORT_FORMAT_OTLP_JSON,
        [FC_SAVE_PPROF] = FC_EXPORT_FORMAT_PPROF,
        [FC_SAVE_SPEEDSCOPE] = FC_EXPORT_FORMAT_SPEEDSCOPE,
        [FC_SAVE_COLLAPSED] = FC_EXPORT_FORMAT_COLLAPSED,
      };

      g_assert (save->format < G_N_ELEMENTS (formats));
      whole = fc_export_write_document (save->document, formats[save->format], FALSE, error);
      if (whole == NULL)
        return NULL;
      g_ptr_array_add (payloads, whole);
      return g_steal_pointer (&payloads);
    }

  for (guint i = 0; i < n; i++)
    {
      FcProfile *profile = fc_document_get_profile (save->document, i);

      if (save->format == FC_SAVE_V2_CHUNKS)
        {
          g_autoptr(FcProfile) chunk = NULL;
          GBytes *bytes;

          chunk = fc_profile_get_format (profile) == FC_FORMAT_V2 ? g_object_ref (profile)
                                                                  : fc_convert_v1_to_v2 (profile, error);
          if (chunk == NULL || (bytes = fc_writer_write_v2 (chunk, error)) == NULL)
            return NULL;
          g_ptr_array_add (payloads, bytes);
        }
      else if (fc_profile_get_format (profile) == FC_FORMAT_V2)
        {
          /* Validated like a send: a saved envelope is one Relay takes. */
          g_autoptr(GPtrArray) envelopes = fc_sender_v1_envelopes_for_chunk (profile, NULL, TRUE, error);

          if (envelopes == NULL)
            return NULL;
          for (guint j = 0; j < envelopes->len; j++)
            g_ptr_array_add (payloads, g_bytes_ref (g_ptr_array_index (envelopes, j)));
        }
      else
        {
          GBytes *bytes = fc_writer_write_v1_envelope (profile, fc_profile_get_linked_event (profile), error);

          if (bytes == NULL)
            return NULL;
          g_ptr_array_add (payloads, bytes);
        }
    }

  if (payloads->len == 0)
    {
      g_set_error_literal (error, FC_FORMAT_ERROR, FC_FORMAT_ERROR_MISSING, _("there is no profile to save"));
      return NULL;
    }
  return g_steal_pointer (&payloads);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Save *save = task_data;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) payloads = NULL;
  g_autoptr(GError) error = NULL;

  payloads = save_payloads (save, &error);
  if (payloads == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  for (guint i = 0; i < payloads->len; i++)
    {
      g_autofree char *name = g_file_get_basename (save->file);
      g_autofree char *numbered = fc_export_numbered_path (name, i + 1, payloads->len);
      g_autofree char *numbered_name = g_path_get_basename (numbered);
      g_autoptr(GFile) parent = g_file_get_parent (save->file);
      g_autoptr(GFile) file = payloads->len == 1 ? g_object_ref (save->file) : g_file_get_child (parent, numbered_name);

      if (!write_bytes (file, g_ptr_array_index (payloads, i), cancellable, &error))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_ptr_array_add (files, g_steal_pointer (&file));
    }

  g_task_return_pointer (task, g_steal_pointer (&files), (GDestroyNotify) g_ptr_array_unref);
}

void
fc_export_save_async (FcDocument          *document,
                      GFile               *file,
                      FcSaveFormat         format,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Save *save;

  g_return_if_fail (FC_IS_DOCUMENT (document));
  g_return_if_fail (G_IS_FILE (file));

  save = g_new0 (Save, 1);
  save->document = g_object_ref (document);
  save->file = g_object_ref (file);
  save->format = format;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_export_save_async);
  g_task_set_task_data (task, save, (GDestroyNotify) save_free);
  g_task_run_in_thread (task, save_thread);
}

GPtrArray *
fc_export_save_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* -- PNG -- */

typedef struct {
  GdkTexture *texture;
  GFile      *file;
} Png;

static void
png_free (Png *png)
{
  g_clear_object (&png->texture);
  g_clear_object (&png->file);
  g_free (png);
}

static void
png_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Png *png = task_data;
  g_autoptr(GBytes) bytes = gdk_texture_save_to_png_bytes (png->texture);
  g_autoptr(GError) error = NULL;

  if (!write_bytes (png->file, bytes, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
fc_export_png_async (GtkWidget           *widget,
                     GFile               *file,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkNative *native;
  int width, height;
  Png *png;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_export_png_async);

  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  native = gtk_widget_get_native (widget);
  if (width <= 0 || height <= 0 || native == NULL || gtk_native_get_renderer (native) == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, _("the view is not on screen, so there is nothing to export"));
      return;
    }

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, _("the view drew nothing"));
      return;
    }

  png = g_new0 (Png, 1);
  png->texture = gsk_renderer_render_texture (gtk_native_get_renderer (native), node,
                                              &GRAPHENE_RECT_INIT (0, 0, width, height));
  png->file = g_object_ref (file);
  g_task_set_task_data (task, png, (GDestroyNotify) png_free);
  g_task_run_in_thread (task, png_thread);
}

gboolean
fc_export_png_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* -- SVG -- */

typedef struct {
  FcProfile        *profile;
  FcExportView      view;
  gint              thread;
  gint64            begin_ns;
  gint64            end_ns;
  FcColorMode       color_mode;
  FcFrameFilter  frames;
  int               width;
  GFile            *file;
} Svg;

static void
svg_free (Svg *svg)
{
  g_clear_object (&svg->profile);
  g_clear_object (&svg->file);
  g_free (svg);
}

static cairo_status_t
append_to_array (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* One box: its fill, a hairline between neighbours, and its label where it fits. */
static void
draw_box (cairo_t       *cr,
          FcProfile     *profile,
          const GdkRGBA *colors,
          guint          n_colors,
          guint32        frame,
          double         x,
          double         y,
          double         w)
{
  GdkRGBA fill = { 0.7, 0.7, 0.7, 1 };
  GdkRGBA text;
  char buf[256];
  const char *label;
  cairo_text_extents_t extents;
  g_autofree char *shown = NULL;
  gsize len;

  if (frame < n_colors)
    fill = colors[frame];
  cairo_rectangle (cr, x, y, MAX (w - 0.5, 0.25), ROW_HEIGHT - 1);
  gdk_cairo_set_source_rgba (cr, &fill);
  cairo_fill (cr);

  if (w < MIN_LABEL)
    return;

  label = fc_profile_frame_label (profile, frame, buf, sizeof buf);
  shown = g_strdup (label);
  len = strlen (shown);
  cairo_text_extents (cr, shown, &extents);
  /* Shorten by whole characters until it fits, with an ellipsis. */
  while (len > 0 && extents.x_advance > w - 2 * LABEL_PADDING)
    {
      const char *prev = g_utf8_find_prev_char (label, label + len);
      g_autofree char *cut = NULL;

      len = prev ? (gsize)(prev - label) : 0;
      cut = g_strndup (label, len);
      g_free (shown);
      shown = g_strconcat (cut, "…", NULL);
      cairo_text_extents (cr, shown, &extents);
    }
  if (len == 0)
    return;

  fc_colors_text_for (&fill, &text);
  gdk_cairo_set_source_rgba (cr, &text);
  cairo_move_to (cr, x + LABEL_PADDING, y + ROW_HEIGHT / 2 + FONT_SIZE / 2 - 2);
  cairo_show_text (cr, shown);
}

static void
draw_flamechart (cairo_t       *cr,
                 Svg           *svg,
                 FcFlameLayout *layout,
                 const GdkRGBA *colors,
                 guint          n_colors)
{
  double span = (double) MAX (svg->end_ns - svg->begin_ns, 1);
  double scale = svg->width / span;
  g_autoptr(FcFlameFrameCache) cache = fc_flame_frame_cache_new ();

  /* as the chart draws them: boxes narrower than a pixel of the SVG merge
   * by the pixel they begin in */
  for (guint row = 0; row < fc_flame_layout_get_n_rows (layout); row++)
    {
      FcFlameRowIter iter;
      FcFlameSpan shown;

      fc_flame_row_iter_init (&iter, layout, cache, row, svg->begin_ns, svg->end_ns, scale);
      while (fc_flame_row_iter_next (&iter, &shown))
        {
          double x0 = MAX (0.0, (shown.begin_ns - svg->begin_ns) * scale);
          double x1 = MIN ((double) svg->width, (shown.end_ns - svg->begin_ns) * scale);

          if (x1 - x0 < CULL_WIDTH)
            continue;
          draw_box (cr, svg->profile, colors, n_colors, shown.box.frame, x0, row * ROW_HEIGHT, x1 - x0);
        }
    }
}

static void
draw_flamegraph_node (cairo_t              *cr,
                      Svg                  *svg,
                      const FcCallTreeNode *node,
                      double                x,
                      double                scale,
                      gboolean              use_samples,
                      const GdkRGBA        *colors,
                      guint                 n_colors)
{
  double child_x = x;

  for (guint i = 0; i < fc_call_tree_node_get_n_children (node); i++)
    {
      const FcCallTreeNode *child = fc_call_tree_node_get_child (node, i);
      double total = use_samples ? (double) fc_call_tree_node_get_total (child)
                                 : (double) fc_call_tree_node_get_total_ns (child);
      double w = total * scale;

      if (w < CULL_WIDTH)
        continue;
      draw_box (cr, svg->profile, colors, n_colors, fc_call_tree_node_get_frame (child),
                child_x, (fc_call_tree_node_get_depth (child) - 1.0) * ROW_HEIGHT, w);
      draw_flamegraph_node (cr, svg, child, child_x, scale, use_samples, colors, n_colors);
      child_x += w;
    }
}

static void
svg_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Svg *svg = task_data;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(FcFlameLayout) layout = NULL;
  g_autoptr(FcCallTree) tree = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree GdkRGBA *colors = NULL;
  guint n_colors = 0;
  guint n_rows;
  cairo_surface_t *surface;
  cairo_t *cr;

  if (svg->view == FC_EXPORT_FLAMECHART)
    {
      layout = fc_flame_layout_new (svg->profile, svg->thread);
      n_rows = fc_flame_layout_get_n_rows (layout);
    }
  else
    {
      tree = fc_call_tree_new_full (svg->profile, svg->thread, svg->begin_ns, svg->end_ns, FALSE, svg->frames);
      n_rows = fc_call_tree_get_max_depth (tree);
    }
  colors = fc_colors_for_profile (svg->profile, svg->color_mode, &n_colors);

  surface = cairo_svg_surface_create_for_stream (append_to_array, out, svg->width, MAX (n_rows, 1) * ROW_HEIGHT);
  cr = cairo_create (surface);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, FONT_SIZE);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);

  if (layout != NULL)
    draw_flamechart (cr, svg, layout, colors, n_colors);
  else
    {
      const FcCallTreeNode *root = fc_call_tree_get_root (tree);
      gboolean use_samples = fc_call_tree_node_get_total_ns (root) <= 0;
      double whole = use_samples ? (double) fc_call_tree_node_get_total (root)
                                 : (double) fc_call_tree_node_get_total_ns (root);

      if (whole > 0)
        draw_flamegraph_node (cr, svg, root, 0, svg->width / whole, use_samples, colors, n_colors);
    }

  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, _("cairo could not draw the SVG: %s"),
                               cairo_status_to_string (cairo_surface_status (surface)));
      cairo_surface_destroy (surface);
      return;
    }
  cairo_surface_destroy (surface);

  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&out));
  if (!write_bytes (svg->file, bytes, cancellable, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
fc_export_svg_async (FcSession           *session,
                     FcExportView         view,
                     int                  width,
                     GFile               *file,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FcProfile *profile;
  Svg *svg;

  g_return_if_fail (FC_IS_SESSION (session));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (width > 0);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, fc_export_svg_async);

  profile = fc_session_get_profile (session);
  if (profile == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, _("there is no profile to export"));
      return;
    }

  svg = g_new0 (Svg, 1);
  svg->profile = g_object_ref (profile);
  svg->view = view;
  svg->thread = fc_session_get_thread (session);
  svg->color_mode = fc_session_get_color_mode (session);
  svg->frames = (FcFrameFilter) fc_session_get_frame_filter (session);
  svg->width = width;
  svg->file = g_object_ref (file);
  if (view == FC_EXPORT_FLAMECHART)
    {
      svg->begin_ns = fc_session_get_visible_begin_ns (session);
      svg->end_ns = fc_session_get_visible_end_ns (session);
    }
  else if (fc_session_has_selection (session))
    {
      svg->begin_ns = fc_session_get_selection_begin_ns (session);
      svg->end_ns = fc_session_get_selection_end_ns (session);
    }
  else
    fc_session_get_thread_range (session, &svg->begin_ns, &svg->end_ns);
  if (svg->end_ns <= svg->begin_ns)
    fc_session_get_thread_range (session, &svg->begin_ns, &svg->end_ns);

  g_task_set_task_data (task, svg, (GDestroyNotify) svg_free);
  g_task_run_in_thread (task, svg_thread);
}

gboolean
fc_export_svg_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
