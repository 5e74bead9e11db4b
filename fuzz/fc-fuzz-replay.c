/* fc-fuzz-replay.c - runs a fuzz harness once over each file of its corpus
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The regression half of fuzzing: linked instead of libFuzzer, with any
 * compiler and sanitizer, so `make check` replays every seed and every crash
 * ever found. Arguments are files or directories.
 */

#include <string.h>

#include <gio/gio.h>

#include "fc-fuzz.h"

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
replay_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, &error))
    {
      g_printerr ("%s\n", error->message);
      return FALSE;
    }
  LLVMFuzzerTestOneInput ((const uint8_t *) contents, len);
  return TRUE;
}

/* Directories are walked recursively (the fixtures are nested), in name
 * order so that a failure names the same file every run; dotfiles (the
 * .gitkeep of an empty crash folder) are skipped. */
static gboolean
replay_path (const char *path,
             guint      *n)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_print ("# %s\n", path);
      if (!replay_file (path))
        return FALSE;
      (*n)++;
      return TRUE;
    }

  names = g_ptr_array_new_with_free_func (g_free);
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_paths);

  for (guint i = 0; i < names->len; i++)
    if (!replay_path (g_ptr_array_index (names, i), n))
      return FALSE;
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  guint n = 0;

  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++)
    if (!replay_path (argv[i], &n))
      return 1;

  if (n == 0)
    {
      g_printerr ("No corpus files in the arguments\n");
      return 1;
    }
  g_print ("%u inputs replayed without a crash\n", n);
  return 0;
}
