/* fc-test-fixtures.h - loading the payloads of tests/data and looking for problems
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "flamecast.h"
#include "fc-reader.h"
#include "fc-test-util.h"

G_BEGIN_DECLS

/* the payloads of tests/data that read (tests/data/README.md says how each was made; the
 * others in payloads/ are an Android trace and a legacy cocoa profile) */
static const char * const fc_test_readable_fixtures[] = {
  "payloads/v1-cocoa.json",
  "payloads/v2-cocoa.json",
  "payloads/v1-node-stored.json",
  "payloads/v1-cocoa-symbolicated.json",
  "payloads/v1-python-stored.json",
  "payloads/v2-android.json",
  "payloads/v2-cocoa-stored.json",
  "payloads/v2-python-cut.json",
  "recorded/burner-chunk.json",
  "recorded/burner.envelope",
};

/* @name: a path under tests/data */
static inline char *
fc_test_fixture_path (const char *name)
{
  return fc_test_data_path (name);
}

static inline FcDocument *
fc_test_load_fixture (const char *name)
{
  g_autofree char *path = fc_test_fixture_path (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  FcDocument *document;

  document = fc_reader_load_file (file, FC_READ_LENIENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

static inline FcDocument *
fc_test_load_bytes (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  FcDocument *document = fc_reader_load_bytes (bytes, FC_READ_FLAGS_NONE, &error);

  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

/* the problem of @severity whose location is @location (exactly) and whose
 * message contains @text, or NULL */
static inline const FcProblem *
fc_test_find_problem (GPtrArray         *problems,
                      FcProblemSeverity  severity,
                      const char        *location,
                      const char        *text)
{
  for (guint i = 0; i < problems->len; i++)
    {
      const FcProblem *p = g_ptr_array_index (problems, i);

      if (p->severity == severity &&
          (location == NULL || g_strcmp0 (p->location, location) == 0) &&
          (text == NULL || strstr (p->message, text) != NULL))
        return p;
    }
  return NULL;
}

static inline void
fc_test_print_problems (GPtrArray *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *line = fc_problem_to_string (g_ptr_array_index (problems, i));

      g_test_message ("%s", line);
    }
}

#define fc_test_assert_problem(problems, severity, location, text)                        \
  G_STMT_START {                                                                        \
    if (fc_test_find_problem ((problems), (severity), (location), (text)) == NULL)      \
      {                                                                                 \
        fc_test_print_problems (problems);                                             \
        g_error ("expected a %s at \"%s\" saying \"%s\"",                               \
                 (severity) == FC_PROBLEM_ERROR ? "error" : "warning",                 \
                 (location) ? (location) : "*", (text) ? (text) : "*");                \
      }                                                                                 \
  } G_STMT_END

#define fc_test_assert_no_problem(problems, severity, location, text)                     \
  G_STMT_START {                                                                        \
    if (fc_test_find_problem ((problems), (severity), (location), (text)) != NULL)      \
      {                                                                                 \
        fc_test_print_problems (problems);                                             \
        g_error ("unexpected %s at \"%s\" saying \"%s\"",                               \
                 (severity) == FC_PROBLEM_ERROR ? "error" : "warning",                 \
                 (location) ? (location) : "*", (text) ? (text) : "*");                \
      }                                                                                 \
  } G_STMT_END

G_END_DECLS
