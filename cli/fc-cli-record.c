/* fc-cli-record.c - flamecast-cli record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-cli.h"

int
fc_cli_record (int argc, char **argv)
{
  fprintf (stderr, "flamecast-cli record: not implemented yet\n");
  return 2;
}
