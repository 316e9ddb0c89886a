// Catch2 v2 only: the translation unit that holds main(). With Catch2 v3 the
// tests link Catch2::Catch2WithMain instead and this file is not compiled.
//
// Exit status: 0 all passed, 1 any failure, 4 nothing failed but a test
// skipped itself (BT_SKIP) -- so ctest can report skips, and no number of
// failed assertions can be mistaken for a skip.
#define CATCH_CONFIG_RUNNER
#include "catch_compat.hpp"

int main(int argc, char *argv[]) {
  const int failures = Catch::Session().run(argc, argv);
  if (failures != 0) return 1;
  return bt_skipped_flag() ? 4 : 0;
}
