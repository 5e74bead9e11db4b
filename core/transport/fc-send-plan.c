/* fc-send-plan.c - what `send` and the app's send dialog will send: envelopes, their summaries, the verdict
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One plan for both fronts, so that the CLI refuses what the dialog refuses
 * and sends the same bytes the dialog previews.
 */

#include <glib/gi18n-lib.h>

#include "fc-problem.h"
#include "fc-send-plan.h"
#include "fc-sender.h"
#include "fc-strip-home.h"
#include "fc-transport-error.h"
#include "fc-validate.h"

void
fc_send_plan_free (FcSendPlan *plan)
{
  if (plan == NULL)
    return;
  g_clear_pointer (&plan->envelopes, g_ptr_array_unref);
  g_clear_pointer (&plan->summaries, g_ptr_array_unref);
  g_clear_pointer (&plan->warnings, g_ptr_array_unref);
  g_free (plan->invalid);
  g_free (plan);
}

/* Relay's limits, checked on the bytes that go: NULL when they all fit. */
static char *
describe_oversize (const FcEnvelopeSummary *summary,
                   guint                    index)
{
  g_autofree char *size = g_format_size_full (summary->size, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *limit = g_format_size_full (FC_VALIDATE_MAX_ENVELOPE_SIZE, G_FORMAT_SIZE_IEC_UNITS);

  if (summary->size > FC_VALIDATE_MAX_ENVELOPE_SIZE)
    return g_strdup_printf (_("envelope %u: %s, above Relay's limit of %s"), index + 1, size, limit);
  for (guint i = 0; i < summary->items->len; i++)
    {
      const FcItemSummary *item = g_ptr_array_index (summary->items, i);

      if (item->limit != 0 && item->size > item->limit)
        {
          g_autofree char *item_size = g_format_size_full (item->size, G_FORMAT_SIZE_IEC_UNITS);
          g_autofree char *item_limit = g_format_size_full (item->limit, G_FORMAT_SIZE_IEC_UNITS);

          return g_strdup_printf (_("envelope %u, item %u (%s): %s, above Relay's limit of %s"),
                                  index + 1, i + 1, item->type, item_size, item_limit);
        }
    }
  return NULL;
}

/* No envelopes go when one cannot: the summaries stay, to show why. */
static FcSendPlan *
refuse (FcSendPlan *plan,
        char       *why)
{
  plan->invalid = why;
  g_ptr_array_set_size (plan->envelopes, 0);
  return plan;
}

/**
 * fc_send_plan_new:
 * @document: what to send
 * @original: (nullable): the bytes @document was read from
 * @home: (nullable): the directory to write as "~"
 * @cancellable: (nullable): checked between envelopes
 * @error: G_IO_ERROR_CANCELLED, nothing else
 *
 * Returns: (transfer full) (nullable): the plan, NULL when cancelled
 */
FcSendPlan *
fc_send_plan_new (FcDocument    *document,
                  GBytes        *original,
                  const char    *home,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(FcSendPlan) plan = g_new0 (FcSendPlan, 1);
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) envelopes = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (FC_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (home == NULL || g_path_is_absolute (home), NULL);

  plan->envelopes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  plan->summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_envelope_summary_free);
  plan->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);

  problems = fc_validate_document (document);
  for (guint i = 0; i < problems->len; i++)
    {
      FcProblem *problem = g_ptr_array_index (problems, i);

      if (problem->severity == FC_PROBLEM_WARNING)
        g_ptr_array_add (plan->warnings, fc_problem_new (problem->severity, problem->location, "%s",
                                                         problem->message));
    }

  /* the sender validates again and names the errors */
  envelopes = fc_sender_envelopes_for_document (document, original, &local_error);
  if (envelopes == NULL)
    return refuse (g_steal_pointer (&plan), g_strdup (local_error->message));

  for (guint i = 0; i < envelopes->len; i++)
    {
      g_autoptr(GBytes) envelope = g_bytes_ref (g_ptr_array_index (envelopes, i));
      FcEnvelopeSummary *summary;
      char *oversize;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;

      if (home != NULL)
        {
          g_autoptr(GBytes) stripped = fc_envelope_strip_home (envelope, home, &local_error);

          if (stripped == NULL)
            return refuse (g_steal_pointer (&plan), g_strdup (local_error->message));
          g_bytes_unref (envelope);
          envelope = g_steal_pointer (&stripped);
        }

      summary = fc_envelope_summarize (envelope, &local_error);
      if (summary == NULL)
        return refuse (g_steal_pointer (&plan), g_strdup (local_error->message));
      g_ptr_array_add (plan->summaries, summary);
      g_ptr_array_add (plan->envelopes, g_steal_pointer (&envelope));

      oversize = describe_oversize (summary, i);
      if (oversize != NULL)
        return refuse (g_steal_pointer (&plan), oversize);
    }

  return g_steal_pointer (&plan);
}

/**
 * fc_send_plan_enqueue:
 * @plan: a plan that can be sent
 * @transport: where it goes
 * @error: FC_TRANSPORT_ERROR_INVALID, or the outbox's error
 *
 * Returns: (transfer full) (element-type utf8): the outbox IDs, in order
 */
GPtrArray *
fc_send_plan_enqueue (FcSendPlan   *plan,
                      FcTransport  *transport,
                      GError      **error)
{
  g_autoptr(GPtrArray) ids = NULL;

  g_return_val_if_fail (plan != NULL, NULL);
  g_return_val_if_fail (FC_IS_TRANSPORT (transport), NULL);

  if (plan->invalid != NULL)
    {
      g_set_error (error, FC_TRANSPORT_ERROR, FC_TRANSPORT_ERROR_INVALID, "%s", plan->invalid);
      return NULL;
    }

  ids = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < plan->envelopes->len; i++)
    {
      char *id = fc_transport_enqueue (transport, g_ptr_array_index (plan->envelopes, i), error);

      if (id == NULL)
        return NULL;
      g_ptr_array_add (ids, id);
    }
  return g_steal_pointer (&ids);
}
