/* test-export-plan.c - the formats and file names the app's Save and `flamecast-cli convert` share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-export-plan.h"
#include "fc-folded.h"
#include "fc-otlp.h"
#include "fc-pprof.h"
#include "fc-reader.h"
#include "fc-speedscope.h"
#include "fc-test-util.h"

/* One file keeps the name typed; several are numbered before the extension. */
static void
test_numbered_path (void)
{
  static const struct {
    const char *path;
    guint       n, total;
    const char *expected;
  } cases[] = {
    { "out.json", 1, 1, "out.json" },
    { "/tmp/x/out.json", 1, 1, "/tmp/x/out.json" },
    { "/tmp/x/out.json", 1, 3, "/tmp/x/out.1.json" },
    { "/tmp/x/out.json", 3, 3, "/tmp/x/out.3.json" },
    { "/tmp/x/profile.chunk.json", 2, 2, "/tmp/x/profile.chunk.2.json" },
    { "/tmp/x/out", 2, 2, "/tmp/x/out.2" },
    { "/tmp/x/.hidden", 2, 2, "/tmp/x/.hidden.2" },
    { "/tmp/x.d/out", 2, 2, "/tmp/x.d/out.2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = fc_export_numbered_path (cases[i].path, cases[i].n, cases[i].total);

      g_assert_cmpstr (path, ==, cases[i].expected);
    }
}

/* Each format is its writer's output, byte for byte. */
static void
test_write_document (void)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "data", "good", "python-v1.envelope", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (fixture);
  g_autoptr(GError) error = NULL;
  g_autoptr(FcDocument) document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  struct {
    FcExportFormat format;
    GBytes        *expected;
  } cases[] = {
    { FC_EXPORT_FORMAT_OTLP, NULL },
    { FC_EXPORT_FORMAT_OTLP_JSON, NULL },
    { FC_EXPORT_FORMAT_PPROF, NULL },
    { FC_EXPORT_FORMAT_SPEEDSCOPE, NULL },
    { FC_EXPORT_FORMAT_COLLAPSED, NULL },
  };

  g_assert_no_error (error);
  cases[0].expected = fc_otlp_write (document, &error);
  cases[1].expected = fc_otlp_write_json (document, &error);
  cases[2].expected = fc_pprof_write (document, &error);
  cases[3].expected = fc_speedscope_write (document, &error);
  cases[4].expected = fc_folded_write (document, TRUE, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = fc_export_write_document (document, cases[i].format, TRUE, &error);

      g_assert_no_error (error);
      g_assert_nonnull (cases[i].expected);
      g_assert_true (g_bytes_equal (bytes, cases[i].expected));
      g_bytes_unref (cases[i].expected);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/formats/export-plan/numbered-path", test_numbered_path);
  g_test_add_func ("/formats/export-plan/write-document", test_write_document);

  return g_test_run ();
}
