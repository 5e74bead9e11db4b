/* fc-cli-inspect.c - flamecast-cli inspect
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib/gi18n.h>
#include <stdio.h>

#include "fc-cli.h"

int
fc_cli_inspect (int argc, char **argv)
{
  fprintf (stderr, "flamecast-cli inspect: not implemented yet\n");
  return 2;
}
