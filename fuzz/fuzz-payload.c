/* fuzz-payload.c - one V1 profile or V2 chunk payload, as an envelope item hands it over
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "flamecast.h"
#include "fc-fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  for (guint lenient = 0; lenient < 2; lenient++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) fc_problem_free);
      g_autoptr(FcProfile) profile = fc_reader_parse_payload ((const char *) data, size,
                                                              lenient ? FC_READ_LENIENT : FC_READ_FLAGS_NONE,
                                                              problems, &error);

      FC_FUZZ_CHECK_RESULT (profile != NULL, error, "fc_reader_parse_payload");
      if (profile != NULL)
        {
          g_autoptr(GPtrArray) found = fc_validate_profile (profile);

          g_assert (found != NULL);
        }
    }
  return 0;
}
