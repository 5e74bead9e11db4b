/* fc-problem.h - a problem found in a payload: by the lenient reader or the validator
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  FC_PROBLEM_ERROR,    /* Relay would reject the payload */
  FC_PROBLEM_WARNING,  /* accepted, but recommended otherwise or silently dropped */
} FcProblemSeverity;

typedef struct {
  FcProblemSeverity  severity;
  char              *location;  /* "profile.samples[4012].stack_id", "envelope item 2" */
  char              *message;   /* "stack_id 90210 but only 513 stacks" */
} FcProblem;

FcProblem *fc_problem_new    (FcProblemSeverity  severity,
                              const char        *location,
                              const char        *format,
                              ...) G_GNUC_PRINTF (3, 4);
void       fc_problem_free   (FcProblem         *problem);
char      *fc_problem_to_string (const FcProblem *problem); /* "error: LOCATION: MESSAGE" */

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FcProblem, fc_problem_free)

G_END_DECLS
