/* test-symbolizer.c - module maps, debug ids and symbolization of our own process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fc-chunk-meta.h"
#include "fc-proc-maps.h"
#include "fc-symbolizer.h"

/* a function of this test with a known name and file; kept out of line */
G_GNUC_NO_INLINE int fc_test_symbolizer_marker (int x);

G_GNUC_NO_INLINE int
fc_test_symbolizer_marker (int x)
{
  return x * 3 + 1;
}

/* A function inlined into another: the address of the call inside it must give two frames */
G_GNUC_NO_INLINE guint64 fc_test_return_address (void);
G_GNUC_NO_INLINE guint64 fc_test_inline_outer (void);

G_GNUC_NO_INLINE guint64
fc_test_return_address (void)
{
  return GPOINTER_TO_SIZE (__builtin_return_address (0));
}

static inline __attribute__((always_inline)) guint64
fc_test_inlined_helper (void)
{
  return fc_test_return_address () + 1;   /* LINE_HELPER */
}

G_GNUC_NO_INLINE guint64
fc_test_inline_outer (void)
{
  return fc_test_inlined_helper () * 3;   /* LINE_OUTER */
}

static int
line_of (const char *marker)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "capture", "test-symbolizer.c", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], marker) != NULL && strstr (lines[i], "/*") != NULL && strstr (lines[i], "strstr") == NULL)
      return i + 1;
  g_assert_not_reached ();
}

static void
test_debug_id (void)
{
  g_autofree char *id = fc_build_id_to_debug_id ("f1c3bcc0279865fe3058404b2831d9e64135386c");
  g_autofree char *short_id = fc_build_id_to_debug_id ("0102");
  g_autofree char *bad = fc_build_id_to_debug_id ("zz");

  /* the recipe in PROTOCOL.md: first 16 bytes, bytes 0-3, 4-5 and 6-7 reversed */
  g_assert_cmpstr (id, ==, "c0bcc3f1-9827-fe65-3058-404b2831d9e6");
  /* shorter build-ids are zero padded */
  g_assert_cmpstr (short_id, ==, "00000201-0000-0000-0000-000000000000");
  g_assert_null (bad);
}

static void
test_system_dirs (void)
{
  g_assert_true (fc_path_is_system_library ("/usr/lib/x86_64-linux-gnu/libc.so.6"));
  g_assert_true (fc_path_is_system_library ("/lib64/ld-linux-x86-64.so.2"));
  g_assert_true (fc_path_is_system_library ("[vdso]"));
  g_assert_false (fc_path_is_system_library ("/home/user/project/libfoo.so"));
  g_assert_false (fc_path_is_system_library ("/opt/app/bin/app"));
}

static void
test_maps_self (void)
{
  g_autoptr(FcProcMaps) maps = fc_proc_maps_new (getpid ());
  g_autoptr(GError) error = NULL;
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  const FcModule *m;
  guint8 code[16];

  g_assert_true (fc_proc_maps_reload (maps, &error));
  g_assert_no_error (error);

  m = fc_proc_maps_find (maps, GPOINTER_TO_SIZE (fc_test_symbolizer_marker));
  g_assert_nonnull (m);
  g_assert_cmpstr (m->path, ==, exe);
  g_assert_true (m->is_main);
  g_assert_true (m->in_app);
  g_assert_nonnull (m->build_id);
  g_assert_cmpuint (m->eh_frame_hdr, !=, 0);
  g_assert_cmpuint (m->eh_fde_count, >, 0);

  /* the module's file serves the same bytes as our memory */
  g_assert_true (fc_module_read (m, GPOINTER_TO_SIZE (fc_test_symbolizer_marker), code, sizeof code));
  g_assert_cmpmem (code, sizeof code, (const void *) fc_test_symbolizer_marker, sizeof code);

  m = fc_proc_maps_find (maps, GPOINTER_TO_SIZE (dlsym (RTLD_DEFAULT, "getpid")));
  g_assert_nonnull (m);
  g_assert_true (strstr (m->path, "libc") != NULL);
  g_assert_false (m->in_app);
  g_assert_false (m->is_main);

  g_assert_null (fc_proc_maps_find (maps, 16));
}

static void
test_lookup_self (void)
{
  g_autoptr(FcProcMaps) maps = fc_proc_maps_new (getpid ());
  g_autoptr(FcSymbolizer) symbolizer = NULL;
  guint64 addr = GPOINTER_TO_SIZE (fc_test_symbolizer_marker);
  const FcSymbol *sym, *again, *libc, *unknown;

  g_assert_true (fc_proc_maps_reload (maps, NULL));
  symbolizer = fc_symbolizer_new (maps);

  sym = fc_symbolizer_lookup (symbolizer, addr + 1, FALSE);
  g_assert_cmpstr (sym->function, ==, "fc_test_symbolizer_marker");
  g_assert_cmpstr (sym->filename, ==, "test-symbolizer.c");
  g_assert_true (g_str_has_suffix (sym->abs_path, "test-symbolizer.c"));
  /* meson compiles "../tests/capture/test-symbolizer.c" in the build directory: joined with
   * the compilation directory, the path is absolute, normalized, and the file is there */
  g_assert_true (g_path_is_absolute (sym->abs_path));
  g_assert_null (strstr (sym->abs_path, "/../"));
  g_assert_null (strstr (sym->abs_path, "/./"));
  g_assert_true (g_file_test (sym->abs_path, G_FILE_TEST_EXISTS));
  g_assert_cmpint (sym->lineno, >=, 20);
  g_assert_cmpint (sym->lineno, <=, 24);
  g_assert_true (sym->in_app);
  g_assert_nonnull (sym->module);
  g_assert_null (sym->caller);

  /* a return address is looked up at addr - 1: the same function */
  again = fc_symbolizer_lookup (symbolizer, addr + 2, TRUE);
  g_assert_cmpstr (again->function, ==, "fc_test_symbolizer_marker");
  /* and cached */
  g_assert_true (fc_symbolizer_lookup (symbolizer, addr + 1, FALSE) == sym);

  libc = fc_symbolizer_lookup (symbolizer, GPOINTER_TO_SIZE (dlsym (RTLD_DEFAULT, "getpid")), FALSE);
  g_assert_true (strstr (libc->function, "getpid") != NULL);
  g_assert_false (libc->in_app);
  /* named by its symbol table: its lines are in a separate debug file whose compressed DWARF
   * is inflated only when asked for */
  if (g_strcmp0 (g_getenv ("FC_SYSTEM_LINES"), "1") != 0)
    {
      g_assert_null (libc->abs_path);
      g_assert_cmpint (libc->lineno, ==, -1);
    }

  /* never an empty frame: no module gives the address */
  unknown = fc_symbolizer_lookup (symbolizer, 0x10, FALSE);
  g_assert_cmpstr (unknown->function, ==, "0x10");
  g_assert_null (unknown->module);
  g_assert_false (unknown->in_app);
}

static void
test_lookup_no_symbol (void)
{
  g_autoptr(FcProcMaps) maps = fc_proc_maps_new (getpid ());
  g_autoptr(FcSymbolizer) symbolizer = NULL;
  const FcModule *m;
  const FcSymbol *sym;
  g_autofree char *base = NULL;
  g_autofree char *expected = NULL;

  g_assert_true (fc_proc_maps_reload (maps, NULL));
  symbolizer = fc_symbolizer_new (maps);
  m = fc_proc_maps_find (maps, GPOINTER_TO_SIZE (fc_test_symbolizer_marker));
  g_assert_nonnull (m);

  /* the ELF header is mapped but no symbol covers it: "module+0xoffset" */
  sym = fc_symbolizer_lookup (symbolizer, m->start + 0x10, FALSE);
  base = g_path_get_basename (m->path);
  expected = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base, m->start + 0x10 - m->bias);
  g_assert_cmpstr (sym->function, ==, expected);
  g_assert_true (sym->in_app);
}

/* A PLT stub is named after the function it jumps to, as objdump names it. */
static void
test_lookup_plt (void)
{
  g_autoptr(FcProcMaps) maps = fc_proc_maps_new (getpid ());
  g_autoptr(FcSymbolizer) symbolizer = NULL;
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *out = NULL;
  g_autoptr(GRegex) regex = g_regex_new ("^([0-9a-f]+) <([A-Za-z_][A-Za-z0-9_]*@plt)>:$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *addr_text = NULL;
  g_autofree char *name = NULL;
  const FcModule *m;
  const FcSymbol *sym;
  const char *argv[] = { "objdump", "-d", "-j", ".plt.sec", exe, NULL };
  guint64 vaddr;

  g_assert_true (fc_proc_maps_reload (maps, NULL));
  symbolizer = fc_symbolizer_new (maps);
  m = fc_proc_maps_find (maps, GPOINTER_TO_SIZE (fc_test_symbolizer_marker));
  g_assert_nonnull (m);

  /* without .plt.sec (no IBT), the stubs are in .plt */
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, NULL, NULL));
  if (!g_regex_match (regex, out, 0, &match))
    {
      argv[3] = ".plt";
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&match, g_match_info_unref);
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                                   NULL, NULL, &out, NULL, NULL, NULL));
      g_assert_true (g_regex_match (regex, out, 0, &match));
    }
  addr_text = g_match_info_fetch (match, 1);
  name = g_match_info_fetch (match, 2);
  vaddr = g_ascii_strtoull (addr_text, NULL, 16);

  sym = fc_symbolizer_lookup (symbolizer, m->bias + vaddr + 4, FALSE);
  g_assert_cmpstr (sym->function, ==, name);
  g_assert_false (sym->unnamed);
}

static void
test_inlined (void)
{
  g_autoptr(FcProcMaps) maps = fc_proc_maps_new (getpid ());
  g_autoptr(FcSymbolizer) symbolizer = NULL;
  guint64 ret = (fc_test_inline_outer () / 3) - 1;
  const FcSymbol *sym;

  g_assert_true (fc_proc_maps_reload (maps, NULL));
  symbolizer = fc_symbolizer_new (maps);

  /* the return address lies in fc_test_inline_outer's code, inside the inlined helper */
  sym = fc_symbolizer_lookup (symbolizer, ret, TRUE);
  g_assert_cmpstr (sym->function, ==, "fc_test_inlined_helper");
  g_assert_cmpstr (sym->filename, ==, "test-symbolizer.c");
  g_assert_cmpint (sym->lineno, ==, line_of ("LINE_HELPER"));
  g_assert_nonnull (sym->caller);
  g_assert_cmpstr (sym->caller->function, ==, "fc_test_inline_outer");
  g_assert_cmpstr (sym->caller->filename, ==, "test-symbolizer.c");
  g_assert_cmpint (sym->caller->lineno, ==, line_of ("LINE_OUTER"));
  g_assert_true (sym->caller->in_app);
  g_assert_null (sym->caller->caller);
}

/* The test library mapped as the dynamic loader starts to map it: its whole extent read-only
 * (the first segment's rights), nothing executable yet. finish_mapping() maps its code over it. */
typedef struct {
  char    *path;
  int      fd;
  guint8  *base;
  gsize    extent;
  guint64  text_vaddr, text_offset, text_size;
} HalfMapped;

static void
half_map_plugin (HalfMapped *h)
{
  g_autofree char *contents = NULL;
  gsize len;
  const Elf64_Ehdr *ehdr;

  h->path = g_build_filename (g_getenv ("FC_TARGETS_DIR"), "libfcplugin.so", NULL);
  g_assert_true (g_file_get_contents (h->path, &contents, &len, NULL));
  g_assert_cmpuint (len, >=, sizeof (Elf64_Ehdr));
  ehdr = (const Elf64_Ehdr *) (gpointer) contents;
  h->extent = 0;
  h->text_size = 0;
  for (guint i = 0; i < ehdr->e_phnum; i++)
    {
      const Elf64_Phdr *ph = (const Elf64_Phdr *) (gpointer) (contents + ehdr->e_phoff + i * ehdr->e_phentsize);

      if (ph->p_type != PT_LOAD)
        continue;
      h->extent = MAX (h->extent, (ph->p_vaddr + ph->p_memsz + 0xfff) & ~(guint64) 0xfff);
      if (ph->p_flags & PF_X)
        {
          h->text_vaddr = ph->p_vaddr;
          h->text_offset = ph->p_offset;
          h->text_size = ph->p_filesz;
        }
    }
  /* linked with separate code (Debian's default): its code is not in the first segment */
  g_assert_cmpuint (h->text_size, >, 0);
  g_assert_cmpuint (h->text_offset, >, 0);
  h->fd = open (h->path, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (h->fd, >=, 0);
  h->base = mmap (NULL, h->extent, PROT_READ, MAP_PRIVATE, h->fd, 0);
  g_assert_true (h->base != MAP_FAILED);
}

static void
finish_mapping (HalfMapped *h)
{
  guint64 page = h->text_vaddr & ~(guint64) 0xfff;
  void *text = mmap (h->base + page, h->text_vaddr + h->text_size - page, PROT_READ | PROT_EXEC,
                     MAP_PRIVATE | MAP_FIXED, h->fd, h->text_offset & ~(guint64) 0xfff);

  g_assert_true (text == h->base + page);
}

static void
half_mapped_clear (HalfMapped *h)
{
  munmap (h->base, h->extent);
  close (h->fd);
  g_free (h->path);
}

/* Maps read while the dynamic loader maps a library (just after exec, at dlopen()) show it without
 * its code: an address there is looked up again once the code may be mapped, not taken for data
 * for good. A launched program's threads lost their whole stacks to such a view under load. */
static void
test_maps_mid_mapping (void)
{
  g_autoptr(FcProcMaps) maps = fc_proc_maps_new (getpid ());
  HalfMapped h = { 0 };
  guint64 addr;
  const FcModule *m;

  half_map_plugin (&h);
  addr = GPOINTER_TO_SIZE (h.base) + h.text_vaddr + 16;
  g_assert_true (fc_proc_maps_reload (maps, NULL));
  m = fc_proc_maps_find (maps, addr);
  g_assert_nonnull (m);
  g_assert_cmpstr (m->path, ==, h.path);
  g_assert_false (fc_proc_maps_is_code (maps, addr));

  /* its code mapped since: asked whether the address is code, the maps are read again */
  finish_mapping (&h);
  g_assert_true (fc_proc_maps_is_code_or_reload (maps, addr));
  m = fc_proc_maps_find (maps, addr);
  g_assert_nonnull (m);
  g_assert_cmpstr (m->path, ==, h.path);
  half_mapped_clear (&h);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/core/symbolizer/debug-id", test_debug_id);
  g_test_add_func ("/core/symbolizer/system-dirs", test_system_dirs);
  g_test_add_func ("/core/symbolizer/maps-self", test_maps_self);
  g_test_add_func ("/core/symbolizer/lookup-self", test_lookup_self);
  g_test_add_func ("/core/symbolizer/lookup-no-symbol", test_lookup_no_symbol);
  g_test_add_func ("/core/symbolizer/lookup-plt", test_lookup_plt);
  g_test_add_func ("/core/symbolizer/inlined", test_inlined);
  g_test_add_func ("/core/symbolizer/maps-mid-mapping", test_maps_mid_mapping);

  return g_test_run ();
}
