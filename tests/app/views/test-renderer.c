/* test-renderer.c - GL kept from starting where there is no GPU
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gstdio.h>

#include "fc-renderer.h"

static void
touch (const char *dir,
       const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, "", 0, NULL));
}

static void
delete (const char *dir,
        const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_cmpint (g_remove (path), ==, 0);
}

/* a DRM node or NVIDIA's control node is a GPU; nothing, or other DRM
 * entries (by-path), is not */
static void
test_has_gpu (void)
{
  g_autofree char *dev = g_dir_make_tmp ("fc-test-dev-XXXXXX", NULL);
  g_autofree char *dri = g_build_filename (dev, "dri", NULL);
  g_autofree char *by_path = g_build_filename (dri, "by-path", NULL);

  g_assert_false (fc_renderer_has_gpu (dev));
  g_assert_cmpint (g_mkdir_with_parents (by_path, 0700), ==, 0);
  g_assert_false (fc_renderer_has_gpu (dev));
  touch (dri, "renderD128");
  g_assert_true (fc_renderer_has_gpu (dev));
  touch (dri, "card0");
  g_assert_true (fc_renderer_has_gpu (dev));

  delete (dri, "renderD128");
  delete (dri, "card0");
  g_assert_false (fc_renderer_has_gpu (dev));
  touch (dev, "nvidiactl");
  g_assert_true (fc_renderer_has_gpu (dev));

  delete (dev, "nvidiactl");
  delete (dri, "by-path");
  delete (dev, "dri");
  delete (dev, "");
}

/* what the user set stays theirs */
static void
test_user_choice (void)
{
  g_setenv ("GDK_DEBUG", "interactive", TRUE);
  g_unsetenv ("GSK_RENDERER");
  g_assert_false (fc_renderer_skip_gl_without_gpu ());
  g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "interactive");
  g_assert_null (g_getenv ("GSK_RENDERER"));

  g_unsetenv ("GDK_DEBUG");
  g_setenv ("GSK_RENDERER", "gl", TRUE);
  g_assert_false (fc_renderer_skip_gl_without_gpu ());
  g_assert_null (g_getenv ("GDK_DEBUG"));
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "gl");

  /* neither: it depends on this machine, and says what it did */
  g_unsetenv ("GSK_RENDERER");
  if (fc_renderer_skip_gl_without_gpu ())
    {
      g_assert_false (fc_renderer_has_gpu ("/dev"));
      g_assert_cmpstr (g_getenv ("GDK_DEBUG"), ==, "gl-disable");
      g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
    }
  else
    {
      g_assert_true (fc_renderer_has_gpu ("/dev"));
      g_assert_null (g_getenv ("GDK_DEBUG"));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/renderer/has-gpu", test_has_gpu);
  g_test_add_func ("/app/renderer/user-choice", test_user_choice);

  return g_test_run ();
}
