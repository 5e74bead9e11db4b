/* test-demangle.c - C++, Rust legacy and Rust v0 names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-demangle.h"

static void
check (const char *mangled,
       const char *expected)
{
  g_autofree char *out = fc_demangle (mangled);

  g_assert_cmpstr (out, ==, expected);
}

static void
test_plain (void)
{
  check ("main", "main");
  check ("_start", "_start");
  check ("runtime.goexit", "runtime.goexit");
  g_assert_null (fc_demangle (NULL));
}

static void
test_cxx (void)
{
  check ("_ZN3foo3barEi", "foo::bar(int)");
  check ("_ZNSt6vectorIiSaIiEE9push_backERKi", "std::vector<int, std::allocator<int> >::push_back(int const&)");
  /* not a valid mangling: kept as it is, never lost */
  check ("_Znotmangled", "_Znotmangled");
}

/* What rustc 1.63 (Debian 12) writes by default, and what the issue saw half undone */
static void
test_rust_legacy (void)
{
  check ("_ZN4core3ptr13drop_in_place17h0123456789abcdefE", "core::ptr::drop_in_place");
  check ("_ZN6burner15Worker$LT$T$GT$4work17h0123456789abcdefE", "burner::Worker<T>::work");
  check ("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE",
         "std::rt::lang_start::{{closure}}");
}

/* -C symbol-mangling-version=v0, and the standard library of newer toolchains */
static void
test_rust_v0 (void)
{
  check ("_RNvNtCs1234_3std2rt19lang_start_internal", "std::rt::lang_start_internal");
  check ("_RNvCs1234_6burner4main", "burner::main");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/core/demangle/plain", test_plain);
  g_test_add_func ("/core/demangle/cxx", test_cxx);
  g_test_add_func ("/core/demangle/rust-legacy", test_rust_legacy);
  g_test_add_func ("/core/demangle/rust-v0", test_rust_v0);
  return g_test_run ();
}
