/* test-python-linetable.c - CPython's location tables read as CPython reads them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/data/python/linetable.py prints, for each code object of a source made to be awkward
 * (lines 5000 apart, loops, nested functions), its co_linetable and CPython's co_lines(): the
 * line of every code unit. Each CPython 3.11+ on the machine is asked (Debian's is required);
 * fc_python_linetable_line must agree on every unit.
 */

#include <stdio.h>
#include <string.h>

#include "fc-python-linetable.h"

static GPtrArray *pythons;

static GBytes *
from_hex (const char *hex)
{
  gsize len = strlen (hex) / 2;
  guint8 *data = g_malloc (MAX (len, 1));

  if (strcmp (hex, "-") == 0)
    return g_bytes_new_take (data, 0);
  for (gsize i = 0; i < len; i++)
    data[i] = (guint8) (g_ascii_xdigit_value (hex[2 * i]) << 4 | g_ascii_xdigit_value (hex[2 * i + 1]));
  return g_bytes_new_take (data, len);
}

static void
test_against_cpython (gconstpointer data)
{
  const char *python = data;
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "data", "python", "linetable.py", NULL);
  g_autofree char *target = g_test_build_filename (G_TEST_DIST, "targets", "split.py", NULL);
  const char *argv[] = { python, script, target, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_codes = 0, n_units = 0;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", 3);
      g_auto(GStrv) ranges = NULL;
      g_autoptr(GBytes) table = NULL;
      g_autoptr(GArray) decoded = NULL;
      int firstlineno;

      if (g_strv_length (fields) != 3)
        continue;
      firstlineno = atoi (fields[0]);
      table = from_hex (fields[1]);
      decoded = fc_python_linetable_decode (g_bytes_get_data (table, NULL), g_bytes_get_size (table), firstlineno);
      ranges = g_strsplit (fields[2], ";", -1);
      for (guint r = 0; ranges[r] != NULL && strcmp (ranges[r], "-") != 0; r++)
        {
          int start, end, line;

          g_assert_cmpint (sscanf (ranges[r], "%d,%d,%d", &start, &end, &line), ==, 3);
          /* co_lines() counts bytes, two per code unit */
          for (int unit = start / 2; unit < end / 2; unit++)
            {
              int ours = fc_python_linetable_line (decoded, firstlineno, unit);

              if (ours != line)
                g_error ("%s, code object %u (first line %d): unit %d is on line %d, not %d", python, n_codes,
                         firstlineno, unit, line, ours);
              n_units++;
            }
        }
      n_codes++;
    }
  g_test_message ("%s: %u code objects, %u code units agree", python, n_codes, n_units);
  g_assert_cmpuint (n_codes, >, 10);
  g_assert_cmpuint (n_units, >, 200);
}

/* Hand-made: what each form of entry means, without a CPython */
static void
test_forms (void)
{
  /* first line 10: one-line form +1 (code 11) over 2 units; no location (15) over 1 unit;
   * no columns (13) with delta -3 (svarint 7) over 3 units; long form (14) with delta +70
   * (svarint 140 = 0x0c | 0x40 continuation, 0x02) and three varints over 1 unit */
  static const guint8 table[] = {
    0x80 | 11 << 3 | 1, 0, 0,
    0x80 | 15 << 3 | 0,
    0x80 | 13 << 3 | 2, 7,
    0x80 | 14 << 3 | 0, 0x4c, 0x02, 0, 0, 0,
  };
  g_autoptr(GArray) r = fc_python_linetable_decode (table, sizeof table, 10);

  g_assert_cmpint (fc_python_linetable_line (r, 10, -1), ==, 10);
  g_assert_cmpint (fc_python_linetable_line (r, 10, 0), ==, 11);
  g_assert_cmpint (fc_python_linetable_line (r, 10, 1), ==, 11);
  g_assert_cmpint (fc_python_linetable_line (r, 10, 2), ==, -1);
  g_assert_cmpint (fc_python_linetable_line (r, 10, 3), ==, 8);
  g_assert_cmpint (fc_python_linetable_line (r, 10, 5), ==, 8);
  g_assert_cmpint (fc_python_linetable_line (r, 10, 6), ==, 78);
  g_assert_cmpint (fc_python_linetable_line (r, 10, 7), ==, -1);
}

/* Bytes that are no table (torn, or something else at the address): no crash, no line */
static void
test_garbage (void)
{
  static const guint8 torn[] = { 0x80 | 14 << 3, 0x7f, 0x7f, 0x7f };
  static const guint8 not_an_entry[] = { 0x01, 0x02 };
  g_autoptr(GArray) a = fc_python_linetable_decode (torn, sizeof torn, 1);
  g_autoptr(GArray) b = fc_python_linetable_decode (not_an_entry, sizeof not_an_entry, 1);

  g_assert_cmpint (fc_python_linetable_line (b, 1, 0), ==, -1);
  (void) fc_python_linetable_line (a, 1, 0);
}

int
main (int   argc,
      char *argv[])
{
  const char *root = g_getenv ("PYENV_ROOT");
  g_autofree char *home_root = g_build_filename (g_getenv ("HOME") ? g_getenv ("HOME") : "/", ".pyenv", NULL);
  g_autofree char *versions = g_build_filename (root != NULL ? root : home_root, "versions", NULL);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_test_init (&argc, &argv, NULL);
  pythons = g_ptr_array_new_with_free_func (g_free);
  if (!g_file_test ("/usr/bin/python3.11", G_FILE_TEST_IS_EXECUTABLE))
    g_error ("/usr/bin/python3.11 is not installed: the Debian package python3.11 is (DEB_PACKAGES)");
  g_ptr_array_add (pythons, g_strdup ("/usr/bin/python3.11"));
  dir = g_dir_open (versions, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      guint major = 0, minor = 0;
      char *exe;

      if (sscanf (name, "%u.%u", &major, &minor) != 2 || major != 3 || minor < 11 || minor > 13)
        continue;
      exe = g_strdup_printf ("%s/%s/bin/python%u.%u", versions, name, major, minor);
      if (g_file_test (exe, G_FILE_TEST_IS_EXECUTABLE))
        g_ptr_array_add (pythons, exe);
      else
        g_free (exe);
    }
  for (guint i = 0; i < pythons->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/core/python-linetable/cpython/%u", i);
      g_test_message ("%s: %s", path, (const char *) g_ptr_array_index (pythons, i));
      g_test_add_data_func (path, g_ptr_array_index (pythons, i), test_against_cpython);
    }
  g_test_add_func ("/core/python-linetable/forms", test_forms);
  g_test_add_func ("/core/python-linetable/garbage", test_garbage);
  return g_test_run ();
}
