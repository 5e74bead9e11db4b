/* fc-test-facilities.c - which kernel facilities the tests may need this machine allows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   fc-test-facilities [NAME...]
 *
 * One line a facility ("perf-events: available", "ptrace-non-child: refused: ..."), every one
 * without NAMEs. Exits 0 when all those named are available, 1 when one is refused, 2 for a
 * name it does not know. .ci/check-skips asks it about every facility a test skipped for.
 */

#include "fc-test-util.h"

int
main (int   argc,
      char *argv[])
{
  int status = 0;

  for (int i = argc > 1 ? 1 : 0; i < (argc > 1 ? argc : FC_TEST_N_FACILITIES); i++)
    {
      FcTestFacility facility = i;
      g_autofree char *why_not = NULL;

      if (argc > 1 && !fc_test_facility_lookup (argv[i], &facility))
        {
          g_printerr ("fc-test-facilities: no facility \"%s\"\n", argv[i]);
          return 2;
        }
      if (fc_test_facility_available (facility, &why_not))
        g_print ("%s: available\n", fc_test_facility_name (facility));
      else
        {
          g_print ("%s: refused: %s\n", fc_test_facility_name (facility), why_not);
          status = 1;
        }
    }
  return status;
}
