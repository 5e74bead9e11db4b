/* fc-cli-validate.c - flamecast-cli validate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-cli.h"

int
fc_cli_validate (int argc, char **argv)
{
  fprintf (stderr, "flamecast-cli validate: not implemented yet\n");
  return 2;
}
