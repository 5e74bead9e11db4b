/* test-export.c - saving as V2 chunks / V1 envelopes and exporting the view as PNG / SVG, through the real window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include <glib/gstdio.h>

#include "fc-export.h"
#include "fc-flame-chart.h"
#include "fc-reader.h"
#include "fc-window.h"
#include "fc-test-util.h"

static const char *tmp;

static FcWindow *
window_with_fixture (const char *fixture)
{
  g_autofree char *path = fc_test_data_path (fixture);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  FcWindow *window = g_object_ref (fc_window_new (NULL));

  gtk_window_present (GTK_WINDOW (window));
  fc_window_open_file (window, file);
  while (fc_window_is_loading (window))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (fc_session_get_document (fc_window_get_session (window)));
  /* the flamechart laid out and given its size: what the exports draw */
  fc_test_spin_until (fc_flame_view_get_layout (FC_FLAME_VIEW (fc_window_get_part (window, "flame_chart"))) != NULL &&
                      gtk_widget_get_width (GTK_WIDGET (fc_window_get_part (window, "flame_chart"))) > 0);
  return window;
}

static void
window_free (FcWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static GFile *
tmp_file (const char *name)
{
  g_autofree char *path = g_build_filename (tmp, name, NULL);

  return g_file_new_for_path (path);
}

static void
test_save_v2 (void)
{
  FcWindow *window = window_with_fixture ("payloads/v2-cocoa.json");
  FcDocument *document = fc_session_get_document (fc_window_get_session (window));
  g_autoptr(GFile) file = tmp_file ("saved.json");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(FcDocument) back = NULL;
  g_autoptr(GString) why = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-v2"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-v1"));

  fc_export_save_async (document, file, FC_SAVE_V2_CHUNKS, NULL, store_result_cb, &result);
  files = fc_export_save_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 1);
  g_assert_true (g_file_equal (g_ptr_array_index (files, 0), file));

  /* the strict reader reads it back, with the same samples */
  back = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fc_document_get_kind (back), ==, FC_DOCUMENT_V2);
  g_assert_cmpuint (fc_document_get_n_profiles (back), ==, 1);
  if (!fc_profile_equal_samples (fc_document_get_profile (document, 0), fc_document_get_profile (back, 0), why))
    g_error ("saved chunk differs: %s", why->str);

  window_free (window);
}

static void
test_save_v1 (void)
{
  FcWindow *window = window_with_fixture ("payloads/v2-cocoa.json");
  FcDocument *document = fc_session_get_document (fc_window_get_session (window));
  g_autoptr(GFile) file = tmp_file ("saved.envelope");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(FcDocument) back = NULL;
  g_autoptr(GError) error = NULL;
  FcProfile *profile;

  fc_export_save_async (document, file, FC_SAVE_V1_ENVELOPES, NULL, store_result_cb, &result);
  files = fc_export_save_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 1);

  /* an envelope with the transaction and its V1 profile, all samples kept */
  back = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fc_document_get_kind (back), ==, FC_DOCUMENT_ENVELOPE);
  g_assert_cmpuint (fc_document_get_n_profiles (back), ==, 1);
  g_assert_cmpuint (fc_document_get_n_transactions (back), ==, 1);
  profile = fc_document_get_profile (back, 0);
  g_assert_cmpint (fc_profile_get_format (profile), ==, FC_FORMAT_V1);
  g_assert_cmpuint (fc_profile_get_n_samples (profile), ==,
                    fc_profile_get_n_samples (fc_document_get_profile (document, 0)));

  window_free (window);
}

/* "Save for Other Tools": each format in one file that the reader opens again */
static void
test_save_other (void)
{
  static const FcSaveFormat formats[] = { FC_SAVE_OTLP, FC_SAVE_OTLP_JSON, FC_SAVE_PPROF, FC_SAVE_SPEEDSCOPE,
                                          FC_SAVE_COLLAPSED };
  FcWindow *window = window_with_fixture ("payloads/v2-cocoa.json");
  FcDocument *document = fc_session_get_document (fc_window_get_session (window));
  guint n_samples = fc_profile_get_n_samples (fc_document_get_profile (document, 0));

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-other"));
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GFile) file = tmp_file ("saved.other");
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GPtrArray) files = NULL;
      g_autoptr(FcDocument) back = NULL;
      g_autoptr(GError) error = NULL;

      fc_export_save_async (document, file, formats[i], NULL, store_result_cb, &result);
      files = fc_export_save_finish (wait_result (&result), &error);
      g_assert_no_error (error);
      g_assert_cmpuint (files->len, ==, 1);
      back = fc_reader_load_file (file, FC_READ_FLAGS_NONE, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (fc_profile_get_n_samples (fc_document_get_profile (back, 0)), ==, n_samples);
    }

  window_free (window);
}

static void
test_export_png (void)
{
  FcWindow *window = window_with_fixture ("payloads/v1-node-stored.json");
  g_autoptr(GFile) file = tmp_file ("view.png");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-png"));
  fc_export_png_async (GTK_WIDGET (fc_window_get_part (window, "flame_chart")), file, NULL, store_result_cb, &result);
  g_assert_true (fc_export_png_finish (wait_result (&result), &error));
  g_assert_no_error (error);

  /* a PNG of the view's size that GDK reads back */
  g_assert_true (g_file_load_contents (file, NULL, &data, &len, NULL, &error));
  g_assert_cmpuint (len, >, 8);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  texture = gdk_texture_new_from_file (file, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, gtk_widget_get_width (GTK_WIDGET (fc_window_get_part (window, "flame_chart"))));
  g_assert_cmpint (gdk_texture_get_height (texture), ==, gtk_widget_get_height (GTK_WIDGET (fc_window_get_part (window, "flame_chart"))));

  window_free (window);
}

typedef struct {
  guint  n_elements;
  char  *root;
  char  *width;
} SvgCheck;

static void
svg_start_cb (GMarkupParseContext  *context,
              const char           *element,
              const char          **names,
              const char          **values,
              gpointer              user_data,
              GError              **error)
{
  SvgCheck *check = user_data;

  if (check->root == NULL)
    {
      check->root = g_strdup (element);
      for (guint i = 0; names[i] != NULL; i++)
        if (g_str_equal (names[i], "width"))
          check->width = g_strdup (values[i]);
    }
  check->n_elements++;
}

/* Well-formed XML with an <svg> root @width wide; returns how many elements. */
static guint
check_svg (GFile *file,
           int    width)
{
  static const GMarkupParser parser = { .start_element = svg_start_cb };
  SvgCheck check = { 0 };
  g_autoptr(GMarkupParseContext) context = g_markup_parse_context_new (&parser, 0, &check, NULL);
  g_autofree char *data = NULL;
  g_autofree char *expected_width = g_strdup_printf ("%d", width);
  g_autoptr(GError) error = NULL;
  gsize len;
  guint n;

  g_assert_true (g_file_load_contents (file, NULL, &data, &len, NULL, &error));
  g_assert_true (g_markup_parse_context_parse (context, data, len, &error));
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (check.root, ==, "svg");
  g_assert_nonnull (check.width);
  g_assert_true (g_str_has_prefix (check.width, expected_width));
  n = check.n_elements;
  g_free (check.root);
  g_free (check.width);
  return n;
}

static void
test_export_svg (void)
{
  FcWindow *window = window_with_fixture ("payloads/v1-node-stored.json");
  g_autoptr(GFile) chart = tmp_file ("chart.svg");
  g_autoptr(GFile) graph = tmp_file ("graph.svg");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) result2 = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-svg"));

  fc_export_svg_async (fc_window_get_session (window), FC_EXPORT_FLAMECHART, 1000, chart, NULL, store_result_cb, &result);
  g_assert_true (fc_export_svg_finish (wait_result (&result), &error));
  g_assert_no_error (error);
  /* boxes are vector paths: many elements, not one embedded picture */
  g_assert_cmpuint (check_svg (chart, 1000), >, 20);
  g_assert_true (g_file_load_contents (chart, NULL, &data, NULL, NULL, &error));
  g_assert_null (strstr (data, "<image"));

  fc_export_svg_async (fc_window_get_session (window), FC_EXPORT_FLAMEGRAPH, 640, graph, NULL, store_result_cb, &result2);
  g_assert_true (fc_export_svg_finish (wait_result (&result2), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (check_svg (graph, 640), >, 20);

  window_free (window);
}

int
main (int   argc,
      char *argv[])
{
  fc_test_init_private_home (&argc, &argv);
  tmp = g_get_home_dir ();
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/export/save-v2", test_save_v2);
  g_test_add_func ("/app/export/save-v1", test_save_v1);
  g_test_add_func ("/app/export/save-other", test_save_other);
  g_test_add_func ("/app/export/png", test_export_png);
  g_test_add_func ("/app/export/svg", test_export_svg);

  return fc_test_run ();
}
