/* fc-problem.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n-lib.h>
#include "fc-problem.h"

FcProblem *
fc_problem_new (FcProblemSeverity  severity,
                const char        *location,
                const char        *format,
                ...)
{
  FcProblem *problem = g_new0 (FcProblem, 1);
  va_list args;

  problem->severity = severity;
  problem->location = g_strdup (location);
  va_start (args, format);
  problem->message = g_strdup_vprintf (format, args);
  va_end (args);

  return problem;
}

void
fc_problem_free (FcProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->location);
  g_free (problem->message);
  g_free (problem);
}

char *
fc_problem_to_string (const FcProblem *problem)
{
  const char *sev = problem->severity == FC_PROBLEM_ERROR ? _("error") : _("warning");

  if (problem->location != NULL && problem->location[0] != '\0')
    return g_strdup_printf ("%s: %s: %s", sev, problem->location, problem->message);
  return g_strdup_printf ("%s: %s", sev, problem->message);
}
