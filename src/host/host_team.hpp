// The host backend's team: one OpenMP thread per matrix.
#pragma once

#include "core/team.hpp"

namespace batcheig::host {

// The serial team (core::SerialTeam) with the CPU's blocked loops
// (core::team_cpu_blocked): gehd2's and orghr's updates and trevc's
// back-transformation over blocks of rows or columns, bitwise the plain
// loops' results.
struct HostTeam : core::SerialTeam {};

}  // namespace batcheig::host

namespace batcheig::core {
template <>
inline constexpr bool team_cpu_blocked<host::HostTeam> = true;
}  // namespace batcheig::core
