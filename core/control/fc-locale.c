/* fc-locale.c - where the program's message catalogs are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-locale.h"

/**
 * fc_locale_dir:
 *
 * The directory to bind the "flamecast" text domain to, for the app and the
 * CLI (the library binds nothing itself). The catalogs installed beside the
 * running program win (PREFIX/share/locale for PREFIX/bin/flamecast-cli, so
 * a tree installed into a DESTDIR or moved elsewhere speaks its language);
 * a program run from the build tree has no such folder and takes the
 * catalogs compiled in po/ there; LOCALEDIR otherwise. Looked up once.
 *
 * Returns: (transfer none): a directory
 */
const char *
fc_locale_dir (void)
{
  static gsize once;
  static char *dir;

  if (g_once_init_enter (&once))
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);

      if (exe != NULL)
        {
          g_autofree char *bindir = g_path_get_dirname (exe);
          g_autofree char *beside = g_build_filename (bindir, FC_BINDIR_TO_LOCALEDIR, NULL);

          if (g_file_test (beside, G_FILE_TEST_IS_DIR))
            dir = g_canonicalize_filename (beside, NULL);
        }
#ifdef FC_BUILD_LOCALE_DIR
      if (dir == NULL && g_file_test (FC_BUILD_LOCALE_DIR, G_FILE_TEST_IS_DIR))
        dir = g_strdup (FC_BUILD_LOCALE_DIR);
#endif
      if (dir == NULL)
        dir = g_strdup (LOCALEDIR);
      g_once_init_leave (&once, 1);
    }

  return dir;
}
