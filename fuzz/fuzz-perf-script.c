/* fuzz-perf-script.c - `perf script` text output (there is no perf script writer: only the V2
 * write-back is checked)
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
  fc_fuzz_import (data, size, "fc_perf_script_read", fc_perf_script_read, NULL);
  return 0;
}
