/* fc-release.c - the release a recording names when the user gives none
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A V2 chunk requires "release", and the official SDKs always send one
 * (python: the git revision or SENTRY_RELEASE). A native program carries its
 * own identity in the GNU build id note, which changes with every build.
 */

#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "fc-access.h"
#include "fc-release.h"

#define N_HEX 12

/* Lowercase hex of the NT_GNU_BUILD_ID note, NULL when there is none. */
static char *
read_build_id (int fd)
{
  Elf *elf;
  size_t n_phdrs = 0;
  char *hex = NULL;

  if (elf_version (EV_CURRENT) == EV_NONE)
    return NULL;
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  if (elf == NULL)
    return NULL;

  if (elf_kind (elf) == ELF_K_ELF && elf_getphdrnum (elf, &n_phdrs) == 0)
    {
      for (size_t i = 0; i < n_phdrs && hex == NULL; i++)
        {
          GElf_Phdr phdr;
          Elf_Data *data;
          GElf_Nhdr nhdr;
          size_t offset = 0, name_offset, desc_offset;

          if (gelf_getphdr (elf, i, &phdr) == NULL || phdr.p_type != PT_NOTE)
            continue;
          data = elf_getdata_rawchunk (elf, phdr.p_offset, phdr.p_filesz, ELF_T_NHDR);
          if (data == NULL)
            continue;
          while (hex == NULL && (offset = gelf_getnote (data, offset, &nhdr, &name_offset, &desc_offset)) > 0)
            {
              const guint8 *desc = (const guint8 *) data->d_buf + desc_offset;
              GString *s;

              if (nhdr.n_type != NT_GNU_BUILD_ID || nhdr.n_namesz != 4 ||
                  memcmp ((const char *) data->d_buf + name_offset, "GNU", 4) != 0 || nhdr.n_descsz == 0)
                continue;
              s = g_string_sized_new (nhdr.n_descsz * 2);
              for (size_t b = 0; b < nhdr.n_descsz; b++)
                g_string_append_printf (s, "%02x", desc[b]);
              hex = g_string_free (s, FALSE);
            }
        }
    }

  elf_end (elf);
  return hex;
}

static char *
file_digest (const char *path)
{
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);

  if (file == NULL)
    return NULL;
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) g_mapped_file_get_contents (file),
                                      g_mapped_file_get_length (file));
}

/* Sentry refuses releases with slashes, backslashes, tabs or newlines. */
static void
sanitize (char *name)
{
  for (char *p = name; *p != '\0'; p++)
    if (*p == '/' || *p == '\\' || g_ascii_isspace (*p) || g_ascii_iscntrl (*p))
      *p = '_';
}

char *
fc_release_default_for_file (const char *path,
                             const char *name)
{
  g_autofree char *id = NULL;
  g_autofree char *clean = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  id = read_build_id (fd);
  close (fd);
  if (id == NULL)
    id = file_digest (path);
  if (id == NULL || strlen (id) < N_HEX)
    return NULL;

  clean = g_strdup (name);
  sanitize (clean);
  return g_strdup_printf ("%s@%.*s", clean, N_HEX, id);
}

char *
fc_release_default_for_pid (GPid pid)
{
  g_autofree char *exe = g_strdup_printf ("/proc/%d/exe", (int) pid);
  g_autofree char *target = NULL;
  g_autofree char *name = NULL;
  char *release;
  int fd = -1;

  /* sandboxed, the host's /proc/PID/exe is not ours: the helper opens the program, which our
   * own /proc/self/fd reopens and names */
  if (fc_access_through_helper (pid))
    {
      if ((fd = fc_access_open_proc (pid, 0, "exe")) < 0)
        return NULL;
      g_free (exe);
      exe = g_strdup_printf ("/proc/self/fd/%d", fd);
    }
  target = g_file_read_link (exe, NULL);
  if (target == NULL)
    {
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  /* an executable replaced on disk while it runs still has its old id */
  if (g_str_has_suffix (target, " (deleted)"))
    target[strlen (target) - strlen (" (deleted)")] = '\0';
  name = g_path_get_basename (target);
  /* through /proc/PID/exe, so a deleted or replaced file is still the one running */
  release = fc_release_default_for_file (exe, name);
  if (fd >= 0)
    close (fd);
  return release;
}
