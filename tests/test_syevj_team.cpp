// The two-sided Jacobi core with a team on the CPU: jacobi::syevj_scalar run
// by an OmpTeam of P OpenMP threads (support/omp_team.hpp) in the parallel
// step form the GPU kernels use (step_rotations / step_update: one rotation
// slot per round-robin pair, independent 2x2 blocks of J^H A J), checked
// against LAPACKE with the scaled ratios of DESIGN.md section 5 (<= 60),
// on every Hermitian family, both uplo, with and without vectors, sorted and
// unsorted. Also: every member returns the same info, sweeps and residual;
// P = 1 runs the parallel steps with a single member (the serial team's
// parallel form).
#include <omp.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "catch_compat.hpp"
#include "core/jacobi_syevj.hpp"
#include "support/herm_generators.hpp"
#include "support/omp_team.hpp"
#include "support/rng.hpp"
#include "support/scalar.hpp"
#include "support/syevj_checks.hpp"
#include "support/test_config.hpp"

using namespace batcheig;
using namespace bt;

#define BT_SYEVJ_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

template <class T> struct core_type { using type = T; };
template <class R> struct core_type<std::complex<R>> { using type = core::complex<R>; };

struct TeamOutcome {
  std::vector<int> info, sweeps;
  std::vector<double> residual;
  std::string error;
};

/// One matrix (run.A, lda run.lda) solved by an OmpTeam of p threads.
template <class T>
TeamOutcome solve_team(int p, SyevjRun<T> &run, bool sort, int max_sweeps) {
  using C = typename core_type<T>::type;
  using R = real_t<T>;
  const int n = run.n, ld = n | 1;
  const bool want_v = run.opt.jobz == BATCHEIG_EIG_MODE_VECTOR;
  std::vector<C> it(static_cast<size_t>(ld) * n), v(static_cast<size_t>(n) * n);
  std::vector<R> b(static_cast<size_t>(n)), z(static_cast<size_t>(n));
  std::vector<core::jacobi::Rotation<C>> rot(static_cast<size_t>(core::jacobi::players(n) / 2));
  core::JacobiOptions opt;
  opt.sort = sort;
  if (max_sweeps > 0) opt.max_sweeps = max_sweeps;
  const core::MatView<C> a{reinterpret_cast<C *>(run.A.data()), run.lda, 1};
  const core::VecView<R> w{run.W.data(), 1};
  const core::MatView<C> itv{it.data(), ld, 1}, vv{v.data(), n, 1};
  TeamOutcome out;
  out.info.assign(static_cast<size_t>(p), kInfoSentinel);
  out.sweeps.assign(static_cast<size_t>(p), -1);
  out.residual.assign(static_cast<size_t>(p), -1.0);
  OmpTeamShared shared(p);
  omp_set_dynamic(0);
#pragma omp parallel num_threads(p)
  {
    const int rank = omp_get_thread_num();
    if (omp_get_num_threads() != p) {
      if (rank == 0) out.error = "the parallel region got fewer threads than asked";
    } else {
      OmpTeam tm(shared);
      core::JacobiStats st;
      // The GPU kernels' arrangement: vectors accumulated in scratch, F in the
      // iterate, the refined and sorted vectors written straight to a.
      const int info = core::jacobi::syevj_scalar(tm, want_v, run.opt.uplo == BATCHEIG_FILL_MODE_LOWER, n, a, w,
                                                  itv, vv, itv, a, /*copy_out=*/false, core::VecView<R>{b.data(), 1},
                                                  core::VecView<R>{z.data(), 1}, rot.data(), /*parallel=*/true, opt, st);
      out.info[static_cast<size_t>(rank)] = info;
      out.sweeps[static_cast<size_t>(rank)] = st.sweeps;
      out.residual[static_cast<size_t>(rank)] = st.residual;
    }
  }
  run.info.assign(1, out.info[0]);
  return out;
}

template <class T>
SyevjRun<T> make_run(const std::vector<T> &a, int n, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int pad) {
  SyevjRun<T> r;
  r.n = n;
  r.lda = std::max(1, n) + pad;
  r.batch = 1;
  r.backend = BATCHEIG_BACKEND_CUDA;  // the kernels' contract: A is scratch without vectors
  r.opt.jobz = jobz;
  r.opt.uplo = uplo;
  r.input.assign(static_cast<size_t>(r.lda) * n, sentinel_value<T>());
  herm_input(a, n, uplo, r.input.data(), r.lda, make_seed(91, n));
  r.A = r.input;
  r.W.assign(static_cast<size_t>(n), sentinel_nan<real_t<T>>());
  return r;
}

std::vector<int> team_sizes_syevj() { return {1, 2, 3, 4}; }

std::vector<int> orders() {
  if (test_level() != TestLevel::Full) return {1, 2, 3, 5, 8, 16, 17};
  return {1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 32, 33};
}

}  // namespace

TEMPLATE_TEST_CASE("syevj team (OmpTeam, parallel steps) vs LAPACKE: every family, both uplo, with and without vectors",
                   "[syevj][team]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const int n : orders())
    for (const HermFamily fam : all_herm_families())
      for (const int p : team_sizes_syevj()) {
        const HermMatrix<T> hm = make_herm_matrix<T>(fam, Magnitude::Unit, n, make_seed(5, n, static_cast<int>(fam), p));
        const std::vector<real_t<T>> oracle = oracle_heev(hm.a, n);
        for (const auto jobz : {BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_EIG_MODE_NOVECTOR}) {
          const auto uplo = (n + p) % 2 ? BATCHEIG_FILL_MODE_LOWER : BATCHEIG_FILL_MODE_UPPER;
          INFO(hm.describe() << ", OmpTeam P=" << p);
          SyevjRun<T> run = make_run(hm.a, n, jobz, uplo, p == 3 ? 2 : 0);
          const TeamOutcome o = solve_team(p, run, /*sort=*/true, 0);
          REQUIRE(o.error.empty());
          for (int r = 1; r < p; ++r) {
            CHECK(o.info[static_cast<size_t>(r)] == o.info[0]);
            CHECK(o.sweeps[static_cast<size_t>(r)] == o.sweeps[0]);
            CHECK(o.residual[static_cast<size_t>(r)] == o.residual[0]);
          }
          check_syevj_matrix(hm.a, run, 0, oracle);
        }
      }
}

TEMPLATE_TEST_CASE("syevj team: unsorted eigenvalues, and a sweep cap that stops the iteration", "[syevj][team]",
                   BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const int p : {2, 3}) {
    const int n = 12;
    const HermMatrix<T> hm = make_herm_matrix<T>(HermFamily::Random, Magnitude::Unit, n, make_seed(6, p));
    const std::vector<real_t<T>> oracle = oracle_heev(hm.a, n);
    SyevjRun<T> run = make_run(hm.a, n, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, 0);
    REQUIRE(solve_team(p, run, /*sort=*/false, 0).error.empty());
    check_syevj_matrix(hm.a, run, 0, oracle, true, /*sorted=*/false);

    SyevjRun<T> capped = make_run(hm.a, n, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_UPPER, 0);
    const TeamOutcome o = solve_team(p, capped, true, 1);
    REQUIRE(o.error.empty());
    CHECK(o.info[0] == BATCHEIG_INFO_JACOBI_NOT_CONVERGED);
    CHECK(o.sweeps[0] == 1);
    CHECK(o.residual[0] > 0.0);
  }
}
