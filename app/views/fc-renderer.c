/* fc-renderer.c - choosing GTK's renderer where GL is only emulated
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <string.h>

#include "fc-renderer.h"

static gboolean
is_software_renderer (const char *name)
{
  static const char * const software[] = { "llvmpipe", "softpipe", "swrast", "SWR", NULL };

  for (guint i = 0; software[i] != NULL; i++)
    if (strstr (name, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

/**
 * fc_renderer_has_gpu:
 * @dev_dir: where device nodes are, "/dev"
 *
 * Whether a GL driver could reach a GPU: a DRM node (Mesa's drivers and
 * NVIDIA's with nvidia-drm) or NVIDIA's own control node. Without one, GL
 * can only be Mesa's CPU emulation (llvmpipe, softpipe).
 *
 * Returns: %TRUE when @dev_dir has such a node
 */
gboolean
fc_renderer_has_gpu (const char *dev_dir)
{
  g_autofree char *dri = g_build_filename (dev_dir, "dri", NULL);
  g_autofree char *nvidia = g_build_filename (dev_dir, "nvidiactl", NULL);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_return_val_if_fail (dev_dir != NULL, TRUE);

  if (g_file_test (nvidia, G_FILE_TEST_EXISTS))
    return TRUE;
  dir = g_dir_open (dri, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, "renderD") || g_str_has_prefix (name, "card"))
      return TRUE;
  return FALSE;
}

/**
 * fc_renderer_skip_gl_without_gpu:
 *
 * GTK 4.8 on X11 starts GL as it opens the display, whatever renderer is
 * used then: on a machine without a GPU (a VM, Xvfb, a container) that is
 * loading Mesa's emulation and LLVM, about 250 ms of the main thread before
 * the first frame, only for fc_renderer_prefer_cairo_on_software_gl() to
 * turn it away. Without a GPU (fc_renderer_has_gpu()) GTK is told not to
 * start GL (GDK_DEBUG=gl-disable) and draws with cairo. Call before GTK
 * starts and before any other thread runs (it sets the environment, which
 * programs Flamecast launches inherit); a GSK_RENDERER or GDK_DEBUG the
 * user set is left alone.
 *
 * Returns: %TRUE when it kept GL from starting
 */
gboolean
fc_renderer_skip_gl_without_gpu (void)
{
  if (g_getenv ("GSK_RENDERER") != NULL || g_getenv ("GDK_DEBUG") != NULL || fc_renderer_has_gpu ("/dev"))
    return FALSE;

  g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  return TRUE;
}

/**
 * fc_renderer_prefer_cairo_on_software_gl:
 *
 * In virtual machines and under Xvfb, GL is Mesa's CPU emulation: GTK 4.8's
 * GL renderer then spends 100-460 ms per frame on a flamechart that the
 * cairo renderer draws in a few milliseconds. Call before the first window
 * is realized (GTK reads GSK_RENDERER once); a GSK_RENDERER the user set is
 * left alone.
 *
 * Returns: %TRUE when it chose the cairo renderer
 */
gboolean
fc_renderer_prefer_cairo_on_software_gl (void)
{
  g_autoptr(GdkGLContext) context = NULL;
  GdkDisplay *display;
  const char *name;
  gboolean software;

  if (g_getenv ("GSK_RENDERER") != NULL)
    return FALSE;

  display = gdk_display_get_default ();
  if (display == NULL)
    return FALSE;

  /* Without GL at all, GTK falls back to cairo by itself. */
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return FALSE;

  gdk_gl_context_make_current (context);
  name = (const char *) glGetString (GL_RENDERER);
  software = name != NULL && is_software_renderer (name);
  g_debug ("GL renderer: %s%s", name ? name : "(unknown)", software ? ", drawing with cairo" : "");
  gdk_gl_context_clear_current ();

  if (software)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);

  return software;
}
