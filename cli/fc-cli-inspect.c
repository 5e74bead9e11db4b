/* fc-cli-inspect.c - flamecast-cli inspect
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "fc-cli.h"
#include "fc-reader.h"
#include "fc-stats.h"
#include "fc-transaction.h"

#define TOP_N 10

typedef struct {
  FcDocument *document;
  FcProfile  *profile;        /* every profile merged */
  FcProfile  *first;          /* ids come from the first profile */
  guint       n_stacks;       /* distinct stacks the samples use */
  gint64      first_ns;
  gint64      last_ns;
  guint      *thread_samples;
  guint       n_threads;
  GArray     *top_self;
  GArray     *top_total;
} Summary;

static void
summary_clear (Summary *s)
{
  g_clear_object (&s->profile);
  g_clear_pointer (&s->thread_samples, g_free);
  g_clear_pointer (&s->top_self, g_array_unref);
  g_clear_pointer (&s->top_total, g_array_unref);
}

static void
summary_init (Summary    *s,
              FcDocument *document)
{
  guint n_samples = 0;
  const FcSample *samples;
  g_autoptr(GHashTable) stacks = g_hash_table_new (NULL, NULL);

  s->document = document;
  s->profile = fc_document_dup_merged_profile (document);
  s->first = fc_document_get_n_profiles (document) > 0 ? fc_document_get_profile (document, 0) : NULL;
  samples = fc_profile_get_samples (s->profile, &n_samples);
  for (guint i = 0; i < n_samples; i++)
    g_hash_table_add (stacks, GUINT_TO_POINTER (samples[i].stack + 1));
  s->n_stacks = g_hash_table_size (stacks);
  fc_profile_get_time_range (s->profile, &s->first_ns, &s->last_ns);
  if (n_samples == 0)
    s->first_ns = s->last_ns = 0;
  s->thread_samples = fc_stats_thread_samples (s->profile, &s->n_threads);
  s->top_self = fc_stats_top_functions (s->profile, -1, TRUE, TOP_N);
  s->top_total = fc_stats_top_functions (s->profile, -1, FALSE, TOP_N);
}

static const char *
first_string (Summary    *s,
              const char *(*getter) (FcProfile *))
{
  return s->first != NULL ? getter (s->first) : NULL;
}

static const char *
or_dash (const char *str)
{
  return str != NULL && *str != '\0' ? str : "-";
}

static const char *
frame_label (FcProfile *profile,
             guint32    frame,
             char      *buf,
             gsize      len)
{
  return fc_profile_frame_label (profile, frame, buf, len);
}

static char *
format_time (gint64 ns)
{
  return fc_time_format_rfc3339 (ns);
}

static void
print_top (Summary    *s,
           GArray     *top,
           const char *title)
{
  printf ("\n%s\n", title);
  if (top->len == 0)
    {
      printf ("  %s\n", _("(no samples)"));
      return;
    }
  printf ("  %8s %8s  %s\n", _("SELF"), _("TOTAL"), _("FUNCTION"));
  for (guint i = 0; i < top->len; i++)
    {
      const FcFunctionStat *st = &g_array_index (top, FcFunctionStat, i);
      char buf[512];

      printf ("  %8u %8u  %s\n", st->self, st->total, frame_label (s->profile, st->frame, buf, sizeof buf));
    }
}

static void
print_text (Summary    *s,
            const char *path)
{
  gint64 duration = s->last_ns - s->first_ns;

  printf ("%-13s %s\n", _("File:"), path);
  printf ("%-13s %s (%u %s)\n", _("Format:"), fc_document_kind_to_string (fc_document_get_kind (s->document)),
          fc_document_get_n_profiles (s->document),
          fc_document_get_n_profiles (s->document) == 1 ? _("profile") : _("profiles"));
  printf ("%-13s %s\n", _("Platform:"), or_dash (first_string (s, fc_profile_get_platform)));
  printf ("%-13s %s\n", _("Release:"), or_dash (first_string (s, fc_profile_get_release)));
  printf ("%-13s %s\n", _("Environment:"), or_dash (first_string (s, fc_profile_get_environment)));
  printf ("%-13s %s\n", _("Profiler id:"), or_dash (first_string (s, fc_profile_get_profiler_id)));
  printf ("%-13s %s\n", _("Chunk id:"), or_dash (first_string (s, fc_profile_get_chunk_id)));
  printf ("%-13s %s\n", _("Event id:"), or_dash (first_string (s, fc_profile_get_event_id)));
  for (guint i = 0; i < fc_document_get_n_transactions (s->document); i++)
    {
      JsonObject *event = fc_document_get_transaction (s->document, i);

      printf ("%-13s %s (%s)\n", _("Transaction:"),
              or_dash (json_object_get_string_member_with_default (event, "transaction", NULL)),
              or_dash (json_object_get_string_member_with_default (event, "event_id", NULL)));
    }
  printf ("%-13s %.6f s\n", _("Duration:"), duration / 1e9);
  printf ("%-13s %u\n", _("Samples:"), fc_profile_get_n_samples (s->profile));
  printf ("%-13s %u\n", _("Stacks:"), s->n_stacks);
  printf ("%-13s %u\n", _("Frames:"), fc_profile_get_n_frames (s->profile));

  printf ("\n%s\n", _("Threads:"));
  printf ("  %-20s %-32s %8s  %-27s  %s\n", _("ID"), _("NAME"), _("SAMPLES"), _("FIRST"), _("LAST"));
  for (guint t = 0; t < s->n_threads; t++)
    {
      const FcThread *thread = fc_profile_get_thread (s->profile, t);
      g_autofree char *first = NULL;
      g_autofree char *last = NULL;
      guint n = 0;
      const guint32 *idx = fc_profile_get_thread_samples (s->profile, t, &n);
      guint n_all = 0;
      const FcSample *samples = fc_profile_get_samples (s->profile, &n_all);

      if (n > 0)
        {
          first = format_time (samples[idx[0]].timestamp_ns);
          last = format_time (samples[idx[n - 1]].timestamp_ns);
        }
      printf ("  %-20s %-32s %8u  %-27s  %s\n",
              fc_profile_string (s->profile, thread->tid),
              or_dash (fc_profile_string (s->profile, thread->name)),
              s->thread_samples[t], or_dash (first), or_dash (last));
    }

  print_top (s, s->top_self, _("Top functions by self samples:"));
  print_top (s, s->top_total, _("Top functions by total samples:"));
}

static void
add_string_or_null (JsonBuilder *b,
                    const char  *key,
                    const char  *value)
{
  json_builder_set_member_name (b, key);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_top (JsonBuilder *b,
         Summary     *s,
         const char  *key,
         GArray      *top,
         gboolean     by_self)
{
  json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; i < top->len; i++)
    {
      const FcFunctionStat *st = &g_array_index (top, FcFunctionStat, i);
      char buf[512];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "function");
      json_builder_add_string_value (b, frame_label (s->profile, st->frame, buf, sizeof buf));
      json_builder_set_member_name (b, "samples");
      json_builder_add_int_value (b, by_self ? st->self : st->total);
      json_builder_set_member_name (b, "self");
      json_builder_add_int_value (b, st->self);
      json_builder_set_member_name (b, "total");
      json_builder_add_int_value (b, st->total);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
print_json (Summary    *s,
            const char *path)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  GPtrArray *problems = fc_document_get_problems (s->document);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, path);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, fc_document_kind_to_string (fc_document_get_kind (s->document)));
  json_builder_set_member_name (b, "profiles");
  json_builder_add_int_value (b, fc_document_get_n_profiles (s->document));
  add_string_or_null (b, "platform", first_string (s, fc_profile_get_platform));
  add_string_or_null (b, "release", first_string (s, fc_profile_get_release));
  add_string_or_null (b, "environment", first_string (s, fc_profile_get_environment));
  add_string_or_null (b, "profiler_id", first_string (s, fc_profile_get_profiler_id));
  add_string_or_null (b, "chunk_id", first_string (s, fc_profile_get_chunk_id));
  add_string_or_null (b, "event_id", first_string (s, fc_profile_get_event_id));
  json_builder_set_member_name (b, "transactions");
  json_builder_begin_array (b);
  for (guint i = 0; i < fc_document_get_n_transactions (s->document); i++)
    {
      JsonObject *event = fc_document_get_transaction (s->document, i);

      json_builder_begin_object (b);
      add_string_or_null (b, "name", json_object_get_string_member_with_default (event, "transaction", NULL));
      add_string_or_null (b, "event_id", json_object_get_string_member_with_default (event, "event_id", NULL));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "samples");
  json_builder_add_int_value (b, fc_profile_get_n_samples (s->profile));
  json_builder_set_member_name (b, "stacks");
  json_builder_add_int_value (b, s->n_stacks);
  json_builder_set_member_name (b, "frames");
  json_builder_add_int_value (b, fc_profile_get_n_frames (s->profile));
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, s->first_ns);
  json_builder_set_member_name (b, "duration_ns");
  json_builder_add_int_value (b, s->last_ns - s->first_ns);

  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint t = 0; t < s->n_threads; t++)
    {
      const FcThread *thread = fc_profile_get_thread (s->profile, t);
      guint n = 0;
      const guint32 *idx = fc_profile_get_thread_samples (s->profile, t, &n);
      const FcSample *samples = fc_profile_get_samples (s->profile, NULL);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, fc_profile_string (s->profile, thread->tid));
      add_string_or_null (b, "name", fc_profile_string (s->profile, thread->name));
      json_builder_set_member_name (b, "samples");
      json_builder_add_int_value (b, s->thread_samples[t]);
      if (n > 0)
        {
          json_builder_set_member_name (b, "first_ns");
          json_builder_add_int_value (b, samples[idx[0]].timestamp_ns);
          json_builder_set_member_name (b, "last_ns");
          json_builder_add_int_value (b, samples[idx[n - 1]].timestamp_ns);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  add_top (b, s, "top_self", s->top_self, TRUE);
  add_top (b, s, "top_total", s->top_total, FALSE);

  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      g_autofree char *line = fc_problem_to_string (g_ptr_array_index (problems, i));

      json_builder_add_string_value (b, line);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
}

int
fc_cli_inspect (int    argc,
                char **argv)
{
  gboolean json = FALSE;
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print one JSON object instead of text"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("- summarize a profile, chunk or envelope"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(FcDocument) document = NULL;
  GPtrArray *problems;
  Summary s = { 0 };

  g_option_context_set_summary (context,
                                _("Prints the format, platform, release, environment, ids, duration, counts\n"
                                  "of samples, stacks and frames, the threads and the top 10 functions by\n"
                                  "self and total samples of a Sentry V1 profile, V2 chunk or envelope.\n"
                                  "\n"
                                  "Exit status: 0 on success, 2 when the file cannot be read."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "flamecast-cli inspect: %s\n", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      fprintf (stderr, "flamecast-cli inspect: %s\n", _("expected exactly one FILE (see --help)"));
      return 2;
    }

  file = g_file_new_for_commandline_arg (files[0]);
  document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  if (document == NULL)
    {
      fprintf (stderr, "%s: %s\n", files[0], error->message);
      return 2;
    }

  problems = fc_document_get_problems (document);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      g_autofree char *line = fc_problem_to_string (g_ptr_array_index (problems, i));

      /* the reader recovered from these: inspect shows them, validate judges */
      fprintf (stderr, "%s: %s\n", files[0], line);
    }

  summary_init (&s, document);
  if (json)
    print_json (&s, files[0]);
  else
    print_text (&s, files[0]);
  summary_clear (&s);

  return 0;
}
