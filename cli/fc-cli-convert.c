/* fc-cli-convert.c - flamecast-cli convert
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-cli.h"

int
fc_cli_convert (int argc, char **argv)
{
  fprintf (stderr, "flamecast-cli convert: not implemented yet\n");
  return 2;
}
