/* fc-dwfl-callbacks.c - how libdwfl finds a module's debug info: for a process's modules, and
 * for a debug file read alone
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fc-debuginfod.h"
#include "fc-dwfl-callbacks.h"

static char *debuginfo_path = NULL;

/* How long the first lookups in a module without local debug info wait for debuginfod, in all
 * per symbolizer: a local or nearby server answers well within it, and the samples of the first
 * seconds are named too; a slow one delays this process's stacks (never its sampling) at most
 * this long, and its names then arrive for later samples. */
#define DEBUGINFOD_WAIT_US (10 * G_USEC_PER_SEC)

/* the symbolizer whose lookup libdwfl calls back from: one thread symbolizes at a time */
static __thread gint64 *debuginfod_deadline;

/**
 * fc_dwfl_wait_for_debuginfod_until:
 * @deadline: the caller's deadline for debuginfod, 0 until the first module asked for waits
 *
 * The lookups this thread makes from now on wait for debuginfod until *@deadline.
 */
void
fc_dwfl_wait_for_debuginfod_until (gint64 *deadline)
{
  debuginfod_deadline = deadline;
}

/* @deadline is going away: this thread's lookups no longer use it. */
void
fc_dwfl_forget_deadline (gint64 *deadline)
{
  if (debuginfod_deadline == deadline)
    debuginfod_deadline = NULL;
}

/* Local debug info first (/usr/lib/debug/.build-id, .gnu_debuglink), as before; with
 * DEBUGINFOD_URLS set, a module found with none is asked for in the background by its build-id
 * (fc-debuginfod.c) instead of libdwfl's own blocking query. */
static int
find_debuginfo (Dwfl_Module *mod,
                void       **userdata,
                const char  *modname,
                GElf_Addr    base,
                const char  *file_name,
                const char  *debuglink_file,
                GElf_Word    debuglink_crc,
                char       **debuginfo_file_name)
{
  const unsigned char *bits;
  GElf_Addr vaddr;
  char *path;
  int len, fd;

  len = dwfl_module_build_id (mod, &bits, &vaddr);
  if (len <= 0 || !fc_debuginfod_enabled ())
    return dwfl_standard_find_debuginfo (mod, userdata, modname, base, file_name, debuglink_file,
                                         debuglink_crc, debuginfo_file_name);
  fd = dwfl_build_id_find_debuginfo (mod, userdata, modname, base, file_name, debuglink_file, debuglink_crc,
                                     debuginfo_file_name);
  if (fd >= 0)
    return fd;
  fc_debuginfod_request (bits, len, modname);
  if (debuginfod_deadline != NULL && *debuginfod_deadline == 0)
    *debuginfod_deadline = g_get_monotonic_time () + DEBUGINFOD_WAIT_US;
  path = fc_debuginfod_wait (bits, len, debuginfod_deadline != NULL ? *debuginfod_deadline : 0);
  if (path == NULL)
    return -1;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      g_free (path);
      return -1;
    }
  *debuginfo_file_name = strdup (path);
  g_free (path);
  return fd;
}

/* nothing else to look for: the debug file has the symbols and the DWARF, and libdwfl must not
 * query debuginfod itself (it blocks) */
static int
no_debuginfo (Dwfl_Module *mod,
              void       **userdata,
              const char  *modname,
              GElf_Addr    base,
              const char  *file_name,
              const char  *debuglink_file,
              GElf_Word    debuglink_crc,
              char       **debuginfo_file_name)
{
  return -1;
}

static const Dwfl_Callbacks for_modules = {
  .find_elf = dwfl_linux_proc_find_elf,
  .find_debuginfo = find_debuginfo,
  .section_address = dwfl_offline_section_address,
  .debuginfo_path = &debuginfo_path,
};

static const Dwfl_Callbacks for_debug_file = {
  .find_elf = dwfl_build_id_find_elf,
  .find_debuginfo = no_debuginfo,
  .section_address = dwfl_offline_section_address,
};

/* A process's modules, each reported from its file: debug info found locally, else from
 * debuginfod within the deadline (fc_dwfl_wait_for_debuginfod_until()). */
const Dwfl_Callbacks *
fc_dwfl_callbacks_for_modules (void)
{
  return &for_modules;
}

/* A debug file reported alone: it is all there is to read. */
const Dwfl_Callbacks *
fc_dwfl_callbacks_for_debug_file (void)
{
  return &for_debug_file;
}
