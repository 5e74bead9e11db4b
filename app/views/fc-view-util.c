/* fc-view-util.c - text and search helpers shared by the flame views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "fc-format.h"
#include "fc-view-util.h"

static const char *
non_empty (const char *str)
{
  return str != NULL && str[0] != '\0' ? str : NULL;
}

char *
fc_view_frame_location (FcProfile *profile,
                        guint32    frame_id,
                        guint32    stack)
{
  g_autoptr(GString) str = g_string_new (NULL);
  FcFrameLocation location;
  const FcFrame *frame;
  const char *file;
  gboolean known;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  if (frame_id >= fc_profile_get_n_frames (profile))
    return NULL;

  frame = fc_profile_get_frame (profile, frame_id);
  known = stack != FC_STACK_EMPTY ? fc_profile_get_stack_location (profile, stack, &location)
                                  : fc_profile_get_frame_location (profile, frame_id, &location);
  file = non_empty (fc_profile_string (profile, frame->filename));
  if (file == NULL)
    file = non_empty (fc_profile_string (profile, frame->abs_path));

  if (file != NULL)
    g_string_append (str, file);

  if (known && location.several)
    {
      if (str->len > 0)
        g_string_append_c (str, ' ');
      /* Translators: the frames merged into one box were on different lines (or addresses) */
      g_string_append (str, location.lineno != FC_LINE_NONE || !location.has_instruction_addr
                            ? _("(several lines)") : _("(several addresses)"));
    }
  else if (known)
    {
      if (location.lineno != FC_LINE_NONE)
        {
          g_string_append_printf (str, ":%d", location.lineno);
          if (location.colno != FC_LINE_NONE)
            g_string_append_printf (str, ":%d", location.colno);
        }
      if (location.has_instruction_addr)
        g_string_append_printf (str, "%s0x%" G_GINT64_MODIFIER "x", str->len > 0 ? " · " : "",
                                location.instruction_addr);
    }

  /* Translators: the compiler inlined this function into its caller (in some call paths) */
  if (known && location.inlined)
    g_string_append_printf (str, "%s%s", str->len > 0 ? " · " : "", _("inlined"));

  if (str->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&str), FALSE);
}

char *
fc_view_frame_tooltip (FcProfile  *profile,
                       guint32     frame_id,
                       gint64      duration_ns,
                       gint64      reference_ns,
                       const char *reference_label)
{
  return fc_view_frame_tooltip_at (profile, frame_id, FC_STACK_EMPTY, duration_ns, reference_ns, reference_label);
}

char *
fc_view_frame_tooltip_at (FcProfile  *profile,
                          guint32     frame_id,
                          guint32     stack,
                          gint64      duration_ns,
                          gint64      reference_ns,
                          const char *reference_label)
{
  g_autoptr(GString) str = g_string_new (NULL);
  g_autofree char *duration = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *location = NULL;
  const FcFrame *frame;
  const char *where;
  char buf[64];

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  if (frame_id >= fc_profile_get_n_frames (profile))
    return NULL;

  frame = fc_profile_get_frame (profile, frame_id);
  escaped = g_markup_escape_text (fc_profile_frame_label (profile, frame_id, buf, sizeof buf), -1);
  g_string_append_printf (str, "<b>%s</b>", escaped);
  g_clear_pointer (&escaped, g_free);

  where = non_empty (fc_profile_string (profile, frame->module));
  if (where == NULL)
    where = non_empty (fc_profile_string (profile, frame->package));
  if (where != NULL)
    {
      escaped = g_markup_escape_text (where, -1);
      g_string_append_printf (str, "\n%s", escaped);
      g_clear_pointer (&escaped, g_free);
    }

  location = fc_view_frame_location (profile, frame_id, stack);
  if (location != NULL)
    {
      escaped = g_markup_escape_text (location, -1);
      g_string_append_printf (str, "\n%s", escaped);
      g_clear_pointer (&escaped, g_free);
    }

  g_string_append_printf (str, "\n%s", frame->in_app == FC_IN_APP_YES ? _("Application frame")
                                       : frame->in_app == FC_IN_APP_NO ? _("System frame")
                                       : _("Frame of unknown origin"));
  if (frame->in_app != FC_IN_APP_UNKNOWN && frame->in_app_inferred)
    g_string_append_printf (str, " %s", _("(inferred)"));

  duration = fc_format_duration (duration_ns);
  if (reference_ns > 0)
    {
      g_autofree char *share = fc_format_percent (duration_ns, reference_ns);

      /* Translators: "12.5 ms (25.0% of the visible range)" */
      g_string_append_printf (str, "\n%s (%s %s)", duration, share, reference_label ? reference_label : "");
    }
  else
    g_string_append_printf (str, "\n%s", duration);

  return g_string_free (g_steal_pointer (&str), FALSE);
}

void
fc_label_keep_room (GtkLabel           *label,
                    int                 max_chars,
                    PangoEllipsizeMode  mode)
{
  gboolean whole;
  int chars;

  g_return_if_fail (GTK_IS_LABEL (label));

  /* A short text is not ellipsized at all rather than given max_chars of
   * room: "ch" is a wide character, and the room left over squeezed the view
   * switcher out of the header. */
  whole = max_chars >= 0 && g_utf8_strlen (gtk_label_get_text (label), -1) <= max_chars;
  chars = max_chars < 0 || whole ? -1 : max_chars;
  if (gtk_label_get_width_chars (label) != chars)
    gtk_label_set_width_chars (label, chars);
  if (gtk_label_get_ellipsize (label) != (whole ? PANGO_ELLIPSIZE_NONE : mode))
    gtk_label_set_ellipsize (label, whole ? PANGO_ELLIPSIZE_NONE : mode);
}

const char *
fc_view_filter_empty_message (FcFrameFilter filter)
{
  switch (filter)
    {
    case FC_FRAME_FILTER_APPLICATION:
      return _("No application frames in this range");
    case FC_FRAME_FILTER_SYSTEM:
      return _("No system frames in this range");
    case FC_FRAME_FILTER_ALL:
    default:
      return NULL;
    }
}

gboolean
fc_view_filter_shows (FcProfile    *profile,
                      guint32       frame_id,
                      FcFrameFilter filter)
{
  const FcFrame *frame;

  if (filter == FC_FRAME_FILTER_ALL || frame_id >= fc_profile_get_n_frames (profile))
    return TRUE;
  frame = fc_profile_get_frame (profile, frame_id);
  if (filter == FC_FRAME_FILTER_APPLICATION)
    return frame->in_app == FC_IN_APP_YES;
  return frame->in_app != FC_IN_APP_YES;
}

static gboolean
contains (FcProfile  *profile,
          guint32     id,
          const char *needle)
{
  const char *s = fc_profile_string (profile, id);
  g_autofree char *folded = NULL;

  if (s == NULL || s[0] == '\0')
    return FALSE;
  folded = g_utf8_casefold (s, -1);
  return strstr (folded, needle) != NULL;
}

guint8 *
fc_view_search_frames (FcProfile  *profile,
                       const char *text,
                       guint      *n_matching)
{
  g_autofree char *needle = NULL;
  guint8 *match;
  guint n;
  guint count = 0;

  g_return_val_if_fail (FC_IS_PROFILE (profile), NULL);

  if (n_matching != NULL)
    *n_matching = 0;
  if (text == NULL || text[0] == '\0')
    return NULL;

  needle = g_utf8_casefold (text, -1);
  n = fc_profile_get_n_frames (profile);
  match = g_new0 (guint8, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const FcFrame *frame = fc_profile_get_frame (profile, i);
      char buf[64];
      g_autofree char *label = g_utf8_casefold (fc_profile_frame_label (profile, i, buf, sizeof buf), -1);

      match[i] = strstr (label, needle) != NULL ||
                 contains (profile, frame->module, needle) ||
                 contains (profile, frame->package, needle) ||
                 contains (profile, frame->filename, needle);
      count += match[i];
    }

  if (n_matching != NULL)
    *n_matching = count;
  return match;
}

/* A redraw while zooming makes a new frame-sized buffer each time; a fresh
 * allocation of that size is a new mapping whose pages all fault in, which
 * costs more than clearing a warm one. The buffers of textures already
 * dropped are kept here for the next raster of the same size. */
#define N_SPARE_BUFFERS 2

typedef struct {
  guint32 *pixels;
  gsize    size;
} RasterBuffer;

G_LOCK_DEFINE_STATIC (spare_buffers);
static RasterBuffer spare_buffers[N_SPARE_BUFFERS];

static guint32 *
raster_buffer_take (gsize size)
{
  guint32 *pixels = NULL;

  G_LOCK (spare_buffers);
  for (guint i = 0; i < N_SPARE_BUFFERS; i++)
    if (spare_buffers[i].pixels != NULL && spare_buffers[i].size == size)
      {
        pixels = g_steal_pointer (&spare_buffers[i].pixels);
        break;
      }
  G_UNLOCK (spare_buffers);

  if (pixels == NULL)
    return g_malloc0 (size);
  memset (pixels, 0, size);
  return pixels;
}

static void
raster_buffer_put (guint32 *pixels,
                   gsize    size)
{
  RasterBuffer buffer = { pixels, size };
  guint32 *evicted = NULL;

  G_LOCK (spare_buffers);
  for (guint i = 0; i < N_SPARE_BUFFERS && buffer.pixels != NULL; i++)
    if (spare_buffers[i].pixels == NULL)
      spare_buffers[i] = buffer, buffer.pixels = NULL;
  if (buffer.pixels != NULL)
    {
      /* keep the newest: the next frame most likely has its size */
      evicted = spare_buffers[0].pixels;
      spare_buffers[0] = spare_buffers[N_SPARE_BUFFERS - 1];
      spare_buffers[N_SPARE_BUFFERS - 1] = buffer;
    }
  G_UNLOCK (spare_buffers);

  g_free (evicted);
}

static void
raster_buffer_release (gpointer data)
{
  RasterBuffer *buffer = data;

  raster_buffer_put (buffer->pixels, buffer->size);
  g_free (buffer);
}

void
fc_raster_init (FcRaster *raster,
                double    width,
                double    height,
                double    scale)
{
  raster->scale = MAX (1.0, scale);
  raster->width = MAX (1, (int) ceil (width * raster->scale));
  raster->height = MAX (1, (int) ceil (height * raster->scale));
  raster->pixels = raster_buffer_take ((gsize) raster->width * raster->height * sizeof (guint32));
}

guint32
fc_raster_pack (const GdkRGBA *color)
{
  guint a = (guint) (CLAMP (color->alpha, 0.f, 1.f) * 255 + 0.5f);
  guint r = (guint) (CLAMP (color->red, 0.f, 1.f) * a + 0.5f);
  guint g = (guint) (CLAMP (color->green, 0.f, 1.f) * a + 0.5f);
  guint b = (guint) (CLAMP (color->blue, 0.f, 1.f) * a + 0.5f);

  return GUINT32_TO_LE ((a << 24) | (r << 16) | (g << 8) | b);
}

static inline gboolean
device_span (double  scale,
             int     limit,
             double  v0,
             double  v1,
             int    *p0,
             int    *p1)
{
  int a = (int) floor (v0 * scale + 0.5);
  int b = (int) floor (v1 * scale + 0.5);

  if (b <= a)
    b = a + 1;
  *p0 = MAX (a, 0);
  *p1 = MIN (b, limit);
  return *p0 < *p1;
}

void
fc_raster_fill (FcRaster *raster,
                guint32   pixel,
                double    x0,
                double    y0,
                double    x1,
                double    y1)
{
  int px0, px1, py0, py1;
  guint32 *first;

  if (!device_span (raster->scale, raster->width, x0, x1, &px0, &px1) ||
      !device_span (raster->scale, raster->height, y0, y1, &py0, &py1))
    return;

  first = &raster->pixels[(gsize) py0 * raster->width];
  for (int x = px0; x < px1; x++)
    first[x] = pixel;
  for (int y = py0 + 1; y < py1; y++)
    memcpy (&raster->pixels[(gsize) y * raster->width + px0], &first[px0], sizeof (guint32) * (px1 - px0));
}

void
fc_raster_rows (FcRaster *raster,
                double    y0,
                double    y1,
                int      *py0,
                int      *py1)
{
  if (!device_span (raster->scale, raster->height, y0, y1, py0, py1))
    *py0 = *py1 = -1;
}

void
fc_raster_fill_line (FcRaster *raster,
                     guint32   pixel,
                     int       py,
                     double    x0,
                     double    x1)
{
  int px0, px1;
  guint32 *line;

  if (py < 0 || py >= raster->height ||
      !device_span (raster->scale, raster->width, x0, x1, &px0, &px1))
    return;

  line = &raster->pixels[(gsize) py * raster->width];
  for (int x = px0; x < px1; x++)
    line[x] = pixel;
}

void
fc_raster_repeat_line (FcRaster *raster,
                       int       py,
                       int       py1)
{
  const guint32 *line;

  if (py < 0 || py >= raster->height)
    return;

  line = &raster->pixels[(gsize) py * raster->width];
  for (int y = py + 1; y < MIN (py1, raster->height); y++)
    memcpy (&raster->pixels[(gsize) y * raster->width], line, sizeof (guint32) * raster->width);
}

static GdkTexture *
raster_texture (FcRaster *raster)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize stride = (gsize) raster->width * sizeof (guint32);
  RasterBuffer *buffer = g_new (RasterBuffer, 1);

  buffer->pixels = g_steal_pointer (&raster->pixels);
  buffer->size = stride * raster->height;
  bytes = g_bytes_new_with_free_func (buffer->pixels, buffer->size, raster_buffer_release, buffer);
  return gdk_memory_texture_new (raster->width, raster->height, GDK_MEMORY_DEFAULT, bytes, stride);
}

static void
raster_append_cairo (FcRaster              *raster,
                     GtkSnapshot           *snapshot,
                     const graphene_rect_t *bounds)
{
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, bounds);
  cairo_surface_t *image;

  image = cairo_image_surface_create_for_data ((guchar *) raster->pixels, CAIRO_FORMAT_ARGB32,
                                               raster->width, raster->height,
                                               raster->width * sizeof (guint32));
  cairo_surface_set_device_scale (image, raster->scale, raster->scale);
  cairo_set_source_surface (cr, image, bounds->origin.x, bounds->origin.y);
  cairo_paint (cr);
  cairo_destroy (cr);
  /* the recording keeps a copy of the pixels it took: the buffer is free again */
  cairo_surface_destroy (image);
  raster_buffer_put (g_steal_pointer (&raster->pixels), (gsize) raster->width * raster->height * sizeof (guint32));
}

void
fc_raster_append (FcRaster              *raster,
                  GtkSnapshot           *snapshot,
                  const graphene_rect_t *bounds,
                  GtkWidget             *widget)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;
  g_autoptr(GdkTexture) texture = NULL;

  /* GTK 4.8's cairo renderer converts a texture to a new cairo surface
   * every time it draws it (premultiplying, or through floats for most
   * formats), then paints that: most of a frame. A cairo node's pixels are
   * painted as they are. The buffer is cairo's ARGB32 in memory where the
   * byte order is little-endian. GL uploads the premultiplied texture as
   * it is (a cairo node would cost it one more copy): keep it there. */
  if (renderer != NULL && GSK_IS_CAIRO_RENDERER (renderer) && G_BYTE_ORDER == G_LITTLE_ENDIAN)
    {
      raster_append_cairo (raster, snapshot, bounds);
      return;
    }
  texture = raster_texture (raster);
  gtk_snapshot_append_texture (snapshot, texture, bounds);
}
