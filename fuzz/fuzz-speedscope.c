/* fuzz-speedscope.c - speedscope's JSON file format: sampled and evented profiles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format's reader is called directly, past the content sniffing of
 * fc_reader_load_bytes(), so that every mutation reaches it.
 */

#include "flamecast.h"
#include "fc-fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  fc_fuzz_import (data, size, "fc_speedscope_read", fc_speedscope_read, fc_speedscope_write);
  return 0;
}
