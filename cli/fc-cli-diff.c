/* fc-cli-diff.c - flamecast-cli diff
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <inttypes.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fc-cli.h"
#include "fc-diff.h"
#include "fc-reader.h"

#define TOP_N 20

static FcProfile *
load (const char  *path,
      GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(FcDocument) document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, error);

  if (document == NULL)
    return NULL;
  return fc_document_dup_merged_profile (document);
}

static void
add_entry (JsonBuilder       *b,
           const char        *name_key,
           const FcDiffEntry *e)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, name_key);
  json_builder_add_string_value (b, e->name);
  json_builder_set_member_name (b, "before_self");
  json_builder_add_double_value (b, e->before_self);
  json_builder_set_member_name (b, "after_self");
  json_builder_add_double_value (b, e->after_self);
  json_builder_set_member_name (b, "delta_self");
  json_builder_add_double_value (b, fc_diff_entry_delta_self (e));
  json_builder_set_member_name (b, "before_total");
  json_builder_add_double_value (b, e->before_total);
  json_builder_set_member_name (b, "after_total");
  json_builder_add_double_value (b, e->after_total);
  json_builder_set_member_name (b, "delta_total");
  json_builder_add_double_value (b, fc_diff_entry_delta_total (e));
  json_builder_end_object (b);
}

static void
print_json (FcDiff *diff)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  GPtrArray *functions = fc_diff_get_functions (diff);
  GPtrArray *paths = fc_diff_get_paths (diff);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "before_samples");
  json_builder_add_int_value (b, (gint64) fc_diff_get_n_before (diff));
  json_builder_set_member_name (b, "after_samples");
  json_builder_add_int_value (b, (gint64) fc_diff_get_n_after (diff));
  json_builder_set_member_name (b, "functions");
  json_builder_begin_array (b);
  for (guint i = 0; i < functions->len; i++)
    add_entry (b, "function", g_ptr_array_index (functions, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "paths");
  json_builder_begin_array (b);
  for (guint i = 0; i < paths->len; i++)
    add_entry (b, "path", g_ptr_array_index (paths, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp ((*(FcDiffEntry * const *) a)->name, (*(FcDiffEntry * const *) b)->name);
}

/* difffolded's three columns: "path BEFORE AFTER", counts of samples ending
 * there; normalised, the before counts are scaled to the after total */
static void
print_folded (FcDiff   *diff,
              gboolean  absolute)
{
  GPtrArray *paths = fc_diff_get_paths (diff);
  g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new (paths->len);   /* borrowed entries */
  double scale = 1;

  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (paths, i));
  if (!absolute && fc_diff_get_n_before (diff) > 0)
    scale = (double) fc_diff_get_n_after (diff) / (double) fc_diff_get_n_before (diff);
  g_ptr_array_sort (sorted, compare_names);
  for (guint i = 0; i < sorted->len; i++)
    {
      const FcDiffEntry *e = g_ptr_array_index (sorted, i);

      if (e->before_count == 0 && e->after_count == 0)
        continue;
      printf ("%s %.0f %" PRIu64 "\n", e->name, round (e->before_count * scale), e->after_count);
    }
}

static const char *
format_value (char     *buf,
              gsize     len,
              double    v,
              gboolean  absolute,
              gboolean  sign)
{
  if (absolute)
    g_snprintf (buf, len, sign ? "%+.0f" : "%.0f", v);
  else
    g_snprintf (buf, len, sign ? "%+.1f%%" : "%.1f%%", v * 100);
  return buf;
}

static void
print_text (FcDiff   *diff,
            gboolean  absolute)
{
  GPtrArray *functions = fc_diff_get_functions (diff);
  GPtrArray *paths = fc_diff_get_paths (diff);
  char a[32], b[32], c[32], d[32];
  guint shown = 0;

  printf (_("Samples: %" PRIu64 " before, %" PRIu64 " after (%s)\n\n"),
          fc_diff_get_n_before (diff), fc_diff_get_n_after (diff),
          absolute ? _("sample counts") : _("shares of all samples"));

  printf ("%s\n", _("By function, biggest change of self first:"));
  printf ("  %9s %9s %9s %10s  %s\n", _("before"), _("after"), _("delta"), _("total Δ"), _("function"));
  for (guint i = 0; i < functions->len && shown < TOP_N; i++)
    {
      const FcDiffEntry *e = g_ptr_array_index (functions, i);

      if (fc_diff_entry_delta_self (e) == 0 && fc_diff_entry_delta_total (e) == 0)
        continue;
      printf ("  %9s %9s %9s %10s  %s\n", format_value (a, sizeof a, e->before_self, absolute, FALSE),
              format_value (b, sizeof b, e->after_self, absolute, FALSE),
              format_value (c, sizeof c, fc_diff_entry_delta_self (e), absolute, TRUE),
              format_value (d, sizeof d, fc_diff_entry_delta_total (e), absolute, TRUE), e->name);
      shown++;
    }
  if (shown == 0)
    printf ("  %s\n", _("no change"));

  printf ("\n%s\n", _("By call path, biggest change first:"));
  shown = 0;
  for (guint i = 0; i < paths->len && shown < TOP_N; i++)
    {
      const FcDiffEntry *e = g_ptr_array_index (paths, i);
      const char *mark = e->before_total == 0 ? _(" (new)") : e->after_total == 0 ? _(" (vanished)") : "";

      if (fc_diff_entry_delta_total (e) == 0)
        continue;
      printf ("  %9s -> %9s %9s  %s%s\n", format_value (a, sizeof a, e->before_total, absolute, FALSE),
              format_value (b, sizeof b, e->after_total, absolute, FALSE),
              format_value (c, sizeof c, fc_diff_entry_delta_total (e), absolute, TRUE), e->name, mark);
      shown++;
    }
  if (shown == 0)
    printf ("  %s\n", _("no change"));
}

int
fc_cli_diff (int    argc,
             char **argv)
{
  gboolean json = FALSE, folded = FALSE, absolute = FALSE;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON: functions and paths, biggest |delta_self| first"), NULL },
    { "folded", 0, 0, G_OPTION_ARG_NONE, &folded,
      N_("Print three-column folded stacks (path BEFORE AFTER) for difffolded-style flamegraphs"), NULL },
    { "absolute", 0, 0, G_OPTION_ARG_NONE, &absolute, N_("Raw sample counts instead of shares of all samples"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("BEFORE AFTER") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("- compare two profiles"));
  g_autoptr(GError) error = NULL;
  g_autoptr(FcProfile) before = NULL;
  g_autoptr(FcProfile) after = NULL;
  g_autoptr(FcDiff) diff = NULL;

  g_option_context_set_summary (context,
                                _("Compares where the samples of two profiles (any format the reader opens)\n"
                                  "go: by function (self: the function is the leaf; total: it is on the\n"
                                  "stack) and by call path, as shares of each profile's samples unless\n"
                                  "--absolute. Exit status: 0 compared, 2 unreadable input or bad usage."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli diff: %s\n", error->message);
      return 2;
    }
  if (files == NULL || g_strv_length (files) != 2)
    {
      fprintf (stderr, "flamecast-cli diff: %s\n", _("expected two files, BEFORE and AFTER (see --help)"));
      return 2;
    }
  if (json && folded)
    {
      fprintf (stderr, "flamecast-cli diff: %s\n", _("--json and --folded exclude each other"));
      return 2;
    }

  before = load (files[0], &error);
  if (before == NULL)
    {
      fprintf (stderr, "%s: %s\n", files[0], error->message);
      return 2;
    }
  after = load (files[1], &error);
  if (after == NULL)
    {
      fprintf (stderr, "%s: %s\n", files[1], error->message);
      return 2;
    }

  diff = fc_diff_new (before, after, absolute ? FC_DIFF_ABSOLUTE : FC_DIFF_FLAGS_NONE);
  if (json)
    print_json (diff);
  else if (folded)
    print_folded (diff, absolute);
  else
    print_text (diff, absolute);
  return 0;
}
