// Catch2 v2 only: the translation unit that holds Catch's main(). With
// Catch2 v3 the tests link Catch2::Catch2WithMain instead and this file is
// not compiled.
#define CATCH_CONFIG_MAIN
#include "catch_compat.hpp"
