// The team code paths of the geev core (src/core, core/team.hpp) on the CPU:
// core::geev run by an OmpTeam of P OpenMP threads (support/omp_team.hpp)
// cooperating on one matrix, as p lanes of a warp or a thread block do on
// the GPU, compared with the same routine run by core::SerialTeam (what the
// host backend runs) and with LAPACKE. CI has no GPU; this is where it
// checks the split loops, leader writes, barriers and reductions.
//
// For P in {2, 3, 4} (3: ownership that is not a power of two; n < P: idle
// members), the four precisions, the families random dense, zeroed
// rows/columns, Jordan block, companion of x^n + 1, random dense scaled
// near overflow and near underflow, graded, upper triangular and zero, and
// the jobs (V,V) (N,N) (V,N) (N,V) -- every combination for n <= 8, above
// that (V,V) and (N,N) with one P rotating with n (level full: all) -- on
// a column-major copy with padded leading dimensions, viewed as core::MatView
// (global-memory kernels) or core::SharedView (shared-memory kernels),
// outputs pre-filled with a sentinel NaN:
//  - no member diverged (every collective reached by all members: OmpTeam
//    checks it), every member returns the same info, and it is the serial
//    run's info;
//  - every check of test_geev_accuracy against LAPACKE (check_geev_matrix:
//    eigenvalues after pairing, trace, Jordan radius, ||A V - V Lambda|| /
//    (n ||A|| u) <= 20 for VR and VL, | ||v|| - 1 | / u <= 20, largest
//    component real, every entry written, padding and unwanted arrays
//    untouched);
//  - eigenvalues agree with the serial run's after pairing, within
//    20 n u ||A|| kappa_j (kappa_j from the serial run's own unit left and
//    right vectors, or the generator's known basis condition);
//  - with the same P, eigenvalues are bitwise identical whatever the job.
// (Team and serial runs are not bitwise equal in general: team_nrm2 sums
// the members' partial sums of squares, in another order than nrm2.)
// Plus: forced non-convergence (max_iterations = 1, 2) gives the serial
// info, NaN in the invalid eigenvalues and all vectors, and valid
// eigenvalues that are LAPACKE's; NaN / Inf input gives
// BATCHEIG_INFO_NONFINITE and NaN outputs in every member.
//
// BATCHEIG_TEST_LEVEL=quick|default|full scales sizes, P and families;
// BATCHEIG_TEST_VERBOSE=1 prints the worst ratios per family, how many team
// runs were bitwise equal to the serial run, barrier counts and times;
// BATCHEIG_TEST_TEAM_BARRIER=omp makes OmpTeam use `#pragma omp barrier`.
#include <omp.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "catch_compat.hpp"
#include "core/geev.hpp"
#include "host/host_team.hpp"
#include "support/generators.hpp"
#include "support/geev_checks.hpp"
#include "support/geev_runner.hpp"
#include "support/lapacke_oracle.hpp"
#include "support/omp_team.hpp"
#include "support/ratios.hpp"
#include "support/test_config.hpp"
#include "support/watchdog.hpp"

using namespace bt;
namespace core = batcheig::core;

#define BT_GEEV_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

template <class T> struct core_type { using type = T; };
template <class R> struct core_type<std::complex<R>> { using type = core::complex<R>; };

// ---------------------------------------------------------------------------
// Test sizes per BATCHEIG_TEST_LEVEL. P threads on 2 CI cores oversubscribe
// and a QR sweep has O(n) barriers, so the sizes stay modest.

std::vector<int> team_sizes() {
  switch (test_level()) {
    case TestLevel::Quick: return {1, 2, 3, 5, 8, 13, 17};
    case TestLevel::Default: return {1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 32};
    case TestLevel::Full: {
      std::vector<int> v = range_sizes(1, 33);
      v.push_back(48);
      v.push_back(64);
      return v;
    }
  }
  return {};
}

std::vector<int> team_widths() {
  switch (test_level()) {
    case TestLevel::Quick: return {2, 3};
    case TestLevel::Default: return {2, 3, 4};
    case TestLevel::Full: return {2, 3, 4, 5, 8};
  }
  return {};
}

/// Up to this n every team width runs every job.
constexpr int kAllCombinationsUpTo = 8;

struct FamilyCase {
  Family family;
  Magnitude magnitude;
};

std::string case_name(const FamilyCase &fc) {
  return std::string(family_name(fc.family)) + "/" + magnitude_name(fc.magnitude);
}

// ---------------------------------------------------------------------------
// One core::geev call on a column-major copy.

struct Job {
  bool vl, vr;
};
const Job kJobs[4] = {{true, true}, {false, false}, {true, false}, {false, true}};  // (V,V) first
std::string job_str(const Job &j) { return std::string("jobvl=") + (j.vl ? "V" : "N") + " jobvr=" + (j.vr ? "V" : "N"); }

template <class T>
struct CoreCall {
  GeevRun<T> run;                   ///< outputs, in the layout the accuracy checks read
  std::vector<int> member_info;     ///< what every member returned
  std::vector<std::uint64_t> collectives;  ///< per member (team runs)
  std::string error;                ///< divergence, wrong thread count, exception
  int info() const { return run.info[0]; }
};

/// Runs core::geev on the views (M: core::MatView, or core::SharedView as
/// the GPU kernels use for matrices in shared memory). p == 0: SerialTeam;
/// p >= 1: an OmpTeam of p threads. Fills member_info, collectives, error.
template <class C, class M>
void solve_core(int p, Job job, int n, M a, core::VecView<C> w, core::VecView<core::real_t<C>> wi, M vl, M vr,
                const core::GeevWork<C> &ws, core::index_t max_iterations, std::vector<int> &member_info,
                std::vector<std::uint64_t> &collectives, std::string &error) {
  if (p == 0) {
    member_info.assign(1, core::geev<C>(core::SerialTeam{}, job.vl, job.vr, n, a, w, wi, vl, vr, ws, max_iterations));
    return;
  }
  OmpTeamShared shared(p);
  member_info.assign(static_cast<size_t>(p), kInfoSentinel);
  std::vector<std::string> errors(static_cast<size_t>(p));
  omp_set_dynamic(0);
#pragma omp parallel num_threads(p)
  {
    const int rank = omp_get_thread_num();
    if (omp_get_num_threads() != p) {
      // Every thread sees the same count, so all of them skip.
      if (rank == 0)
        errors[0] = "the parallel region got " + std::to_string(omp_get_num_threads()) + " threads instead of " +
                    std::to_string(p) + " (OMP_THREAD_LIMIT?)";
    } else {
      try {
        OmpTeam tm(shared);
        member_info[static_cast<size_t>(rank)] =
            core::geev<C>(tm, job.vl, job.vr, n, a, w, wi, vl, vr, ws, max_iterations);
      } catch (const std::exception &e) {
        errors[static_cast<size_t>(rank)] = e.what();
      } catch (...) {
        errors[static_cast<size_t>(rank)] = "unknown exception";
      }
    }
  }
  for (int q = 0; q < p; ++q) {
    if (!errors[static_cast<size_t>(q)].empty() && error.empty())
      error = "member " + std::to_string(q) + ": " + errors[static_cast<size_t>(q)];
    collectives.push_back(shared.collectives(q));
  }
}

/// core::geev on a copy of `a` (n x n, ld n) with lda = ldv = n + pad, on
/// MatView or (shared_view) SharedView views. p == 0: SerialTeam; p >= 1:
/// an OmpTeam of p threads. Outputs are pre-filled with the sentinel NaN;
/// A's padding too. Unwanted vector arrays are passed (sentinel-filled,
/// must stay untouched) when pass_unwanted, else as null views.
template <class T>
CoreCall<T> call_core(const std::vector<T> &a, int n, Job job, bool pass_unwanted, int p, int pad, bool shared_view,
                      core::index_t max_iterations, const std::string &what, int panel_nb = 0) {
  using C = typename core_type<T>::type;
  using R = real_t<T>;
  CoreCall<T> c;
  GeevRun<T> &r = c.run;
  r.n = n;
  r.batch = 1;
  r.jobvl = job.vl ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
  r.jobvr = job.vr ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
  r.lda = n + pad;
  r.vl_passed = job.vl || pass_unwanted;
  r.vr_passed = job.vr || pass_unwanted;
  r.ldvl = r.vl_passed ? n + pad : 1;
  r.ldvr = r.vr_passed ? n + pad : 1;
  const size_t nn = static_cast<size_t>(n);
  r.A.assign(static_cast<size_t>(r.lda) * nn, sentinel_value<T>());
  copy_into(a, n, r.A.data(), r.lda);
  if constexpr (is_complex_v<T>) {
    r.W.assign(nn, sentinel_value<T>());
  } else {
    r.wr.assign(nn, sentinel_value<R>());
    r.wi.assign(nn, sentinel_value<R>());
  }
  if (r.vl_passed) r.VL.assign(static_cast<size_t>(r.ldvl) * nn, sentinel_value<T>());
  if (r.vr_passed) r.VR.assign(static_cast<size_t>(r.ldvr) * nn, sentinel_value<T>());
  r.info.assign(1, kInfoSentinel);
  r.status = BATCHEIG_STATUS_SUCCESS;

  const bool want_v = job.vl || job.vr;
  // Exactly the bytes GeevWork asks for (operator new aligns to 16, enough
  // for every T): an overrun is a heap-buffer-overflow under ASan. A team
  // gets gehd2's two-sided scratch where it takes that form, as the GPU's
  // 32-lane teams do.
  static_assert(core::team_two_sided<OmpTeam>, "the tests' OpenMP team checks gehd2's two-sided form");
  const bool two_sided = p >= 1 && core::two_sided_gehd2<OmpTeam, C>;
  std::vector<unsigned char> mem(std::max<size_t>(1, core::GeevWork<C>::bytes(n, want_v, two_sided)));
  core::GeevWork<C> ws = core::GeevWork<C>::carve(mem.data(), n, want_v, two_sided);
  // The blocked reduction's panel scratch (the CUDA global variant's; a
  // team on a MatView takes it), exactly its size.
  std::vector<C> panel(panel_nb >= 2 ? core::GehrdPanel<C>::elements(n, panel_nb) : 0);
  if (panel_nb >= 2) ws.panel = core::GehrdPanel<C>::carve(panel.data(), n, panel_nb);

  C *A = reinterpret_cast<C *>(r.A.data());
  C *VL = r.VL.empty() ? nullptr : reinterpret_cast<C *>(r.VL.data());
  C *VR = r.VR.empty() ? nullptr : reinterpret_cast<C *>(r.VR.data());
  core::VecView<C> w{};
  core::VecView<R> wi{nullptr, 1};
  if constexpr (is_complex_v<T>) {
    w = core::VecView<C>{reinterpret_cast<C *>(r.W.data()), 1};
  } else {
    w = core::VecView<C>{r.wr.data(), 1};
    wi = core::VecView<R>{r.wi.data(), 1};
  }

  CallWatchdog wd(what);
  if (shared_view)
    solve_core<C>(p, job, n, core::SharedView<C>{A, r.lda}, w, wi, core::SharedView<C>{VL, r.ldvl},
                  core::SharedView<C>{VR, r.ldvr}, ws, max_iterations, c.member_info, c.collectives, c.error);
  else
    solve_core<C>(p, job, n, core::MatView<C>{A, r.lda, 1}, w, wi, core::MatView<C>{VL, r.ldvl, 1},
                  core::MatView<C>{VR, r.ldvr, 1}, ws, max_iterations, c.member_info, c.collectives, c.error);
  r.info[0] = c.member_info[0];
  return c;
}

/// Per-eigenvalue units n u ||A|| max(kappa_j, 1) in the sigma-scaled frame,
/// indexed like the reference run's eigenvalues: kappa_j = the generator's
/// basis condition where known, else 1 / |y_j^H x_j| from the reference
/// run's own unit left and right vectors.
template <class T>
std::vector<acc_t<T>> units_from_run(const ScaledMatrix<T> &S, const MatrixInfo &mi, const GeevRun<T> &ref) {
  using W = acc_t<T>;
  const int n = S.n;
  const W base = static_cast<W>(n) * static_cast<W>(unit_roundoff<real_t<T>>()) *
                 std::max(S.norm_max(), std::numeric_limits<W>::min());
  std::vector<W> unit(static_cast<size_t>(n), base);
  const bool vectors = ref.want_vl() && ref.want_vr() && ref.info[0] == 0;
  const auto VL = vectors ? ref.unpacked_vl(0) : std::vector<std::complex<real_t<T>>>();
  const auto VR = vectors ? ref.unpacked_vr(0) : std::vector<std::complex<real_t<T>>>();
  for (int j = 0; j < n; ++j) {
    W kappa = std::numeric_limits<W>::infinity();
    if (mi.kappa_basis > 0) {
      kappa = static_cast<W>(mi.kappa_basis);
    } else if (vectors) {
      std::complex<W> s = 0;
      for (int i = 0; i < n; ++i)
        s += std::conj(to_wide<W>(VL[static_cast<size_t>(j) * n + i])) * to_wide<W>(VR[static_cast<size_t>(j) * n + i]);
      if (std::abs(s) > 0) kappa = W(1) / std::abs(s);
    }
    unit[static_cast<size_t>(j)] = base * std::max(kappa, W(1));
  }
  return unit;
}

/// Eigenvalues of run entries [lo, n) in the sigma frame.
template <class T>
std::vector<std::complex<acc_t<T>>> scaled_eigs(const ScaledMatrix<T> &S, const GeevRun<T> &r, int lo = 0) {
  std::vector<std::complex<acc_t<T>>> out;
  for (int j = lo; j < r.n; ++j) out.push_back(S.scale(r.eig(0, j)));
  return out;
}

// ---------------------------------------------------------------------------
// Reporting (BATCHEIG_TEST_VERBOSE=1).

struct TeamStats {
  int runs = 0;
  int bitwise_eigs = 0;     ///< eigenvalues bitwise equal to the serial run's
  int bitwise_outputs = 0;  ///< all outputs bitwise equal to the serial run's
  double worst_vs_serial = 0;
  std::uint64_t collectives = 0;  ///< barriers (syncs + reductions) per member, summed over runs
  double seconds = 0;             ///< wall time of the team runs
  GeevRatios worst;
};

struct TeamTable {
  std::map<std::string, TeamStats> rows;
  void print(const std::string &title) const {
    if (!verbose_tests()) return;
    std::printf("\n%s\n%-30s %5s %9s %9s %9s %9s %9s %9s %9s %9s %9s %7s\n", title.c_str(), "family/magnitude",
                "runs", "eig=ser", "all=ser", "vs-ser", "right", "left", "|v|-1", "eig", "jordan", "barriers", "s");
    for (const auto &kv : rows) {
      const TeamStats &s = kv.second;
      std::printf("%-30s %5d %9d %9d %9.3g %9.3g %9.3g %9.3g %9.3g %9.3g %9llu %7.2f\n", kv.first.c_str(), s.runs,
                  s.bitwise_eigs, s.bitwise_outputs, s.worst_vs_serial, s.worst.right, s.worst.left,
                  std::max(s.worst.vr_norm, s.worst.vl_norm), s.worst.eig, s.worst.jordan,
                  static_cast<unsigned long long>(s.collectives), s.seconds);
    }
    std::fflush(stdout);
  }
};

// ---------------------------------------------------------------------------
// The comparison for one matrix: serial runs (every job), the oracle, then
// every team width and job.

template <class T>
void team_case(const TestMatrix<T> &tm, const std::vector<int> &widths, TeamStats &stats) {
  const int n = tm.n();
  using W = acc_t<T>;
  const W thr = static_cast<W>(kGeevThreshold);
  const std::string desc = precision_name<T>() + " | " + tm.info.describe();
  INFO(desc);

  const OracleGeev<T> o = oracle_geev(tm.a, n);
  check_oracle_self_consistency(tm, o);
  const ScaledMatrix<T> S = scale_matrix(tm.a, n);

  std::vector<CoreCall<T>> serial;
  for (int k = 0; k < 4; ++k)
    serial.push_back(call_core(tm.a, n, kJobs[k], false, 0, 0, false, 0, "serial core::geev " + desc));
  REQUIRE(serial[0].info() == 0);
  const std::vector<W> unit = units_from_run(S, tm.info, serial[0].run);
  const std::vector<std::complex<W>> ref_eigs = scaled_eigs(S, serial[0].run);

  // Every (P, job) for small n. Above that (a run costs O(n^2) barriers,
  // each some 20 us with more threads than cores), except at level full:
  // (V,V) and (N,N) with one width, rotating with n; the one-sided jobs,
  // whose differences are size-independent logic, only at the small n.
  const bool every_combination = n <= kAllCombinationsUpTo || test_level() == TestLevel::Full;
  for (size_t pi = 0; pi < widths.size(); ++pi) {
    const int p = widths[pi];
    std::vector<unsigned char> first_eigs;  // of this width's first job
    for (int k = 0; k < 4; ++k) {
      if (!every_combination && (k >= 2 || static_cast<size_t>(n) % widths.size() != pi)) continue;
      const Job job = kJobs[k];
      const bool pass_unwanted = ((n + k + p) % 2 == 0);
      const bool shared_view = ((n / 2 + k + p) % 2 == 1);
      const int pad = 1 + (n + p) % 3;
      const std::string what = "OmpTeam(" + std::to_string(p) + ") core::geev " + desc + " " + job_str(job);
      INFO("team of P = " << p << " OpenMP threads, " << job_str(job) << ", "
                          << (shared_view ? "SharedView" : "MatView") << ", lda = ldv = n + " << pad
                          << (pass_unwanted ? ", unwanted vector arrays passed" : ""));
      const double t0 = omp_get_wtime();
      const CoreCall<T> t = call_core(tm.a, n, job, pass_unwanted, p, pad, shared_view, 0, what);
      stats.seconds += omp_get_wtime() - t0;
      ++stats.runs;
      if (!t.collectives.empty()) stats.collectives += t.collectives[0];
      INFO("team error: " << t.error);
      REQUIRE(t.error.empty());
      const bool same_info = std::all_of(t.member_info.begin(), t.member_info.end(),
                                         [&](int v) { return v == t.member_info[0]; });
      const bool same_count = std::all_of(t.collectives.begin(), t.collectives.end(),
                                          [&](std::uint64_t v) { return v == t.collectives[0]; });
      CHECK(same_info);
      CHECK(same_count);
      CHECK(t.info() == serial[k].info());

      // Everything test_geev_accuracy checks, against LAPACKE.
      stats.worst.merge_max(check_geev_matrix(tm, t.run, 0, o));

      // Eigenvalues: bitwise identical whatever the job; close to the serial run's.
      if (first_eigs.empty()) first_eigs = t.run.eig_bytes(0);
      INFO("eigenvalues must be bitwise identical whatever the job (same P)");
      CHECK(same_bytes(t.run.eig_bytes(0), first_eigs));
      const std::vector<std::complex<W>> got = scaled_eigs(S, t.run);
      const W em = match_eigenvalues(got, ref_eigs, unit, thr);
      INFO("team vs serial eigenvalues: bottleneck ratio (units n u ||A|| kappa_j) = " << em);
      CHECK(em <= thr);
      stats.worst_vs_serial = std::max(stats.worst_vs_serial, static_cast<double>(em));
      if (same_bytes(t.run.eig_bytes(0), serial[k].run.eig_bytes(0))) ++stats.bitwise_eigs;
      if (same_bytes(output_bytes(t.run, 0), output_bytes(serial[k].run, 0))) ++stats.bitwise_outputs;
    }
  }
}

// The blocked reduction (core::gehrd_panels, the CUDA global variant's):
// core::geev run by OmpTeams on a MatView with panels of nb reflectors,
// every job, against LAPACKE (everything test_geev_accuracy checks) and
// against the serial run with gehd2 (eigenvalues within the ratio
// threshold); the eigenvalues bitwise the same whatever the job.
template <class T>
void panel_case(const TestMatrix<T> &tm, const std::vector<int> &widths, const std::vector<int> &panels,
                TeamStats &stats) {
  const int n = tm.n();
  using W = acc_t<T>;
  const W thr = static_cast<W>(kGeevThreshold);
  const std::string desc = precision_name<T>() + " | " + tm.info.describe();
  INFO(desc);
  const OracleGeev<T> o = oracle_geev(tm.a, n);
  const ScaledMatrix<T> S = scale_matrix(tm.a, n);
  const CoreCall<T> serial = call_core(tm.a, n, kJobs[0], false, 0, 0, false, 0, "serial core::geev " + desc);
  REQUIRE(serial.info() == 0);
  const std::vector<W> unit = units_from_run(S, tm.info, serial.run);
  const std::vector<std::complex<W>> ref_eigs = scaled_eigs(S, serial.run);
  for (const int p : widths)
    for (const int nb : panels) {
      std::vector<unsigned char> first_eigs;
      for (int k = 0; k < 4; ++k) {
        if (n > kAllCombinationsUpTo && k >= 2) continue;
        const Job job = kJobs[k];
        const int pad = (n + p + nb) % 3;
        INFO("team of P = " << p << ", panels of " << nb << " reflectors, " << job_str(job) << ", lda = n + " << pad);
        const std::string what = "OmpTeam(" + std::to_string(p) + ") core::geev, panels of " + std::to_string(nb) +
                                 ", " + desc + " " + job_str(job);
        const double t0 = omp_get_wtime();
        const CoreCall<T> t = call_core(tm.a, n, job, (n + k) % 2 == 0, p, pad, false, 0, what, nb);
        stats.seconds += omp_get_wtime() - t0;
        ++stats.runs;
        INFO("team error: " << t.error);
        REQUIRE(t.error.empty());
        CHECK(std::all_of(t.member_info.begin(), t.member_info.end(), [&](int v) { return v == t.member_info[0]; }));
        CHECK(t.info() == 0);
        stats.worst.merge_max(check_geev_matrix(tm, t.run, 0, o));
        if (first_eigs.empty()) first_eigs = t.run.eig_bytes(0);
        INFO("eigenvalues must be bitwise identical whatever the job (same P and panel)");
        CHECK(same_bytes(t.run.eig_bytes(0), first_eigs));
        const W em = match_eigenvalues(scaled_eigs(S, t.run), ref_eigs, unit, thr);
        INFO("panels vs serial gehd2 eigenvalues: bottleneck ratio (units n u ||A|| kappa_j) = " << em);
        CHECK(em <= thr);
        stats.worst_vs_serial = std::max(stats.worst_vs_serial, static_cast<double>(em));
      }
    }
}

template <class T>
void run_team_families(const std::vector<FamilyCase> &cases, const std::vector<int> &sizes, const char *title) {
  TeamTable table;
  const std::vector<int> widths = team_widths();
  for (const FamilyCase &fc : cases)
    for (const int n : sizes) {
      const auto seed = make_seed(static_cast<std::uint64_t>(fc.family), static_cast<std::uint64_t>(fc.magnitude),
                                  static_cast<std::uint64_t>(n), 7117);
      const TestMatrix<T> tm = make_matrix<T>(fc.family, fc.magnitude, n, seed);
      team_case(tm, widths, table.rows[case_name(fc)]);
    }
  table.print(std::string(title) + " | " + precision_name<T>() + " | OmpTeam P in {" + [&] {
    std::string s;
    for (int p : widths) s += (s.empty() ? "" : ",") + std::to_string(p);
    return s;
  }() + "}");
}

std::vector<FamilyCase> main_families() {
  return {{Family::RandomDense, Magnitude::Unit},
          {Family::ZeroRowsCols, Magnitude::Unit},
          {Family::Jordan, Magnitude::Unit},
          {Family::Companion, Magnitude::Unit}};
}

std::vector<FamilyCase> scaled_families() {
  std::vector<FamilyCase> v = {{Family::RandomDense, Magnitude::NearOverflow},
                               {Family::RandomDense, Magnitude::NearUnderflow}};
  if (test_level() == TestLevel::Full)
    for (const Family f : all_families())
      for (const Magnitude m : {Magnitude::NearOverflow, Magnitude::NearUnderflow})
        if (f != Family::RandomDense && f != Family::Zero) v.push_back({f, m});
  return v;
}

/// Balancing's scaling loop (graded), every eigenvalue isolated by its
/// permutations (upper triangular; lahqr's ilo == ihi path), the zero
/// matrix; at level full every other family too.
std::vector<FamilyCase> other_families() {
  std::vector<FamilyCase> v = {{Family::Graded, Magnitude::Unit},
                               {Family::UpperTriangular, Magnitude::Unit},
                               {Family::Zero, Magnitude::Unit}};
  if (test_level() == TestLevel::Full)
    for (const Family f : all_families()) {
      bool listed = false;
      for (const FamilyCase &fc : main_families()) listed = listed || fc.family == f;
      for (const FamilyCase &fc : v) listed = listed || fc.family == f;
      if (!listed) v.push_back({f, Magnitude::Unit});
    }
  return v;
}

/// Sizes for other_families(): small ones except at level full.
std::vector<int> other_sizes() {
  switch (test_level()) {
    case TestLevel::Quick: return {1, 2, 3, 5, 8};
    case TestLevel::Default: return {1, 2, 3, 4, 5, 7, 8, 13, 17};
    case TestLevel::Full: return team_sizes();
  }
  return {};
}

}  // namespace

// ---------------------------------------------------------------------------

TEST_CASE("OmpTeam: ownership, bitwise-identical reductions, divergence detection", "[geev][team]") {
  for (const OmpBarrier kind : {OmpBarrier::Blocking, OmpBarrier::OpenMP})
  for (const int p : {1, 2, 3, 4, 5}) {
    INFO("P = " << p << (kind == OmpBarrier::OpenMP ? ", #pragma omp barrier" : ", blocking barrier"));
    OmpTeamShared shared(p, kind);
    std::vector<std::string> bad(static_cast<size_t>(p));
    std::vector<double> dsum(static_cast<size_t>(p));
    std::vector<float> fmax(static_cast<size_t>(p));
    std::vector<core::index_t> imin(static_cast<size_t>(p));
    std::vector<int> owned_total(static_cast<size_t>(p));
    std::vector<std::string> diverged(static_cast<size_t>(p));
    omp_set_dynamic(0);
    {
      CallWatchdog wd("OmpTeam self-test P=" + std::to_string(p));
#pragma omp parallel num_threads(p)
      {
        const int rank = omp_get_thread_num();
        try {
          OmpTeam tm(shared);
          if (tm.size() != p) bad[rank] += "size; ";
          if (tm.leader() != (rank == 0)) bad[rank] += "leader; ";
          // first(lo): smallest index >= lo congruent to rank mod p.
          for (core::index_t lo = -7; lo <= 9; ++lo) {
            const core::index_t f = tm.first(lo);
            if (f < lo || f >= lo + p || ((f - rank) % p + p) % p != 0) bad[rank] += "first(" + std::to_string(lo) + "); ";
          }
          int owned = 0;
          for (core::index_t i = tm.first(3); i < 20; i += tm.size()) ++owned;
          owned_total[rank] = owned;
          // Values whose sum depends on the order of addition.
          const double v = rank == 0 ? 1.0 : (rank % 2 ? 1e-16 * rank : -3e-17);
          dsum[rank] = tm.sum(v);
          fmax[rank] = tm.max(rank == p - 1 ? 2.5f : -static_cast<float>(rank));
          imin[rank] = tm.min(static_cast<core::index_t>(100 - rank));
          if (tm.sum(1) != p) bad[rank] += "int sum; ";
          tm.sync();
          // Deliberate divergence: the leader syncs where the others reduce.
          if (p > 1) {
            try {
              if (tm.leader()) tm.sync();
              else (void)tm.max(1.0);
              bad[rank] += "divergence not detected; ";
            } catch (const TeamDivergence &e) {
              diverged[rank] = e.what();
            }
          }
        } catch (const std::exception &e) {
          bad[rank] += std::string("exception: ") + e.what();
        }
      }
    }
    int total = 0;
    for (int r = 0; r < p; ++r) {
      INFO("member " << r << ": " << bad[r]);
      CHECK(bad[r].empty());
      total += owned_total[r];
      CHECK(bits_equal(dsum[r], dsum[0]));
      CHECK(fmax[r] == 2.5f);
      CHECK(imin[r] == 100 - (p - 1));
      if (p > 1) CHECK(!diverged[r].empty());
    }
    CHECK(total == 17);  // 3..19, each index owned exactly once
  }
}

TEMPLATE_TEST_CASE("geev team (OmpTeam) vs serial and LAPACKE: random dense, zeroed rows/columns, Jordan, companion",
                   "[geev][team]", BT_GEEV_TYPES) {
  run_team_families<TestType>(main_families(), team_sizes(), "geev team, main families");
}

TEMPLATE_TEST_CASE("geev team (OmpTeam) vs serial and LAPACKE: scaled near overflow and underflow", "[geev][team]",
                   BT_GEEV_TYPES) {
  run_team_families<TestType>(scaled_families(), team_sizes(), "geev team, scaled families");
}

TEMPLATE_TEST_CASE("geev team (OmpTeam) vs serial and LAPACKE: graded (balancing scaling), upper triangular, zero",
                   "[geev][team]", BT_GEEV_TYPES) {
  run_team_families<TestType>(other_families(), other_sizes(), "geev team, balancing and trivial families");
}

TEMPLATE_TEST_CASE("geev team (OmpTeam) with the blocked reduction (gehrd_panels) vs serial and LAPACKE",
                   "[geev][team][panels]", BT_GEEV_TYPES) {
  // Panels of 2, 3 (ragged last panels) and kGehrdMaxPanel<T> reflectors;
  // every family that balancing leaves whole (random, Jordan, companion,
  // scaled) or cuts (zeroed rows and columns, graded, triangular).
  std::vector<FamilyCase> cases = main_families();
  for (const FamilyCase &fc : scaled_families()) cases.push_back(fc);
  for (const FamilyCase &fc : other_families()) cases.push_back(fc);
  const std::vector<int> sizes = test_level() == TestLevel::Quick ? std::vector<int>{1, 2, 3, 5, 13, 20}
                                                                  : std::vector<int>{1, 2, 3, 4, 5, 8, 13, 19, 24, 37};
  const std::vector<int> widths = test_level() == TestLevel::Full ? std::vector<int>{1, 2, 3, 4} : std::vector<int>{1, 3};
  const std::vector<int> panels = {2, 3, int(core::kGehrdMaxPanel<typename core_type<TestType>::type>)};
  TeamTable table;
  for (const FamilyCase &fc : cases)
    for (const int n : sizes) {
      const auto seed = make_seed(static_cast<std::uint64_t>(fc.family), static_cast<std::uint64_t>(fc.magnitude),
                                  static_cast<std::uint64_t>(n), 7121);
      const TestMatrix<TestType> tm = make_matrix<TestType>(fc.family, fc.magnitude, n, seed);
      panel_case(tm, widths, panels, table.rows[case_name(fc)]);
    }
  table.print(std::string("geev team with gehrd panels | ") + precision_name<TestType>());
}

TEMPLATE_TEST_CASE("geev team (OmpTeam): forced non-convergence gives the serial info and NaN outputs",
                   "[geev][team]", BT_GEEV_TYPES) {
  using T = TestType;
  using W = acc_t<T>;
  const W thr = static_cast<W>(kGeevThreshold);
  for (const int n : {6, 16}) {
    const TestMatrix<T> tm = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(7118, n));
    const OracleGeev<T> o = oracle_geev(tm.a, n);
    const ScaledMatrix<T> S = scale_matrix(tm.a, n);
    const std::vector<W> units = eigenvalue_units(S, tm.info, o);
    std::vector<std::complex<W>> oracle_eigs;
    for (const auto &z : o.w) oracle_eigs.push_back(S.scale(z));
    for (const core::index_t maxit : {core::index_t(1), core::index_t(2)}) {
      for (const Job job : kJobs) {
        const std::string desc = precision_name<T>() + " | " + tm.info.describe() + " | max_iterations = " +
                                 std::to_string(maxit) + " | " + job_str(job);
        INFO(desc);
        const CoreCall<T> s = call_core(tm.a, n, job, true, 0, 1, false, maxit, "serial core::geev " + desc);
        REQUIRE(s.info() > 0);
        REQUIRE(s.info() <= n);
        for (const int p : team_widths()) {
          const bool shared_view = (p % 2 == 1);
          INFO("team of P = " << p << (shared_view ? ", SharedView" : ", MatView"));
          const CoreCall<T> t = call_core(tm.a, n, job, true, p, 1, shared_view, maxit, "OmpTeam core::geev " + desc);
          INFO("team error: " << t.error);
          REQUIRE(t.error.empty());
          for (int v : t.member_info) CHECK(v == t.info());
          CHECK(t.info() == s.info());
          const int info = std::min(std::max(t.info(), 0), n);
          // Eigenvalues [0, info) and every wanted vector NaN (written, not sentinel).
          int bad = 0;
          for (int j = 0; j < info; ++j) {
            const std::complex<real_t<T>> z = t.run.eig(0, j);
            bad += !(std::isnan(z.real()) && std::isnan(z.imag())) || is_sentinel(z.real()) || is_sentinel(z.imag());
          }
          CHECK(bad == 0);
          auto all_nan = [&](const std::vector<T> &V, int ld) {
            int k = 0;
            for (int j = 0; j < n; ++j)
              for (int i = 0; i < n; ++i) {
                const T x = V[static_cast<size_t>(j) * ld + i];
                k += !std::isnan(std::real(x)) || is_sentinel(x);
              }
            return k;
          };
          if (job.vl) CHECK(all_nan(t.run.VL, t.run.ldvl) == 0);
          if (job.vr) CHECK(all_nan(t.run.VR, t.run.ldvr) == 0);
          if (!job.vl) CHECK(std::all_of(t.run.VL.begin(), t.run.VL.end(), [](const T &x) { return is_sentinel(x); }));
          if (!job.vr) CHECK(std::all_of(t.run.VR.begin(), t.run.VR.end(), [](const T &x) { return is_sentinel(x); }));
          // The valid eigenvalues [info, n) are eigenvalues of A (LAPACKE's, after pairing).
          const std::vector<std::complex<W>> valid = scaled_eigs(S, t.run, info);
          const W em = match_eigenvalues(valid, oracle_eigs, units, thr);
          INFO("valid eigenvalues " << info << ".." << n - 1 << " vs LAPACKE: ratio " << em);
          CHECK(em <= thr);
        }
      }
    }
  }
}

TEMPLATE_TEST_CASE("geev team (OmpTeam): NaN or Inf input gives BATCHEIG_INFO_NONFINITE and NaN outputs",
                   "[geev][team]", BT_GEEV_TYPES) {
  using T = TestType;
  using R = real_t<T>;
  for (const int n : {1, 5, 12}) {
    for (const int variant : {0, 1}) {
      TestMatrix<T> tm = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(7119, n));
      const R bad = variant == 0 ? std::numeric_limits<R>::quiet_NaN() : -std::numeric_limits<R>::infinity();
      tm.a[static_cast<size_t>(n / 2) * n + (n - 1) / 3] = T(bad);
      for (const Job job : kJobs) {
        const std::string desc = precision_name<T>() + " n=" + std::to_string(n) +
                                 (variant == 0 ? " NaN" : " -Inf") + " entry | " + job_str(job);
        INFO(desc);
        for (const int p : team_widths()) {
          const bool shared_view = (p % 2 == 0);
          INFO("team of P = " << p << (shared_view ? ", SharedView" : ", MatView"));
          const CoreCall<T> t = call_core(tm.a, n, job, false, p, 2, shared_view, 0, "OmpTeam core::geev " + desc);
          INFO("team error: " << t.error);
          REQUIRE(t.error.empty());
          for (int v : t.member_info) CHECK(v == BATCHEIG_INFO_NONFINITE);
          CHECK(count_non_nan_outputs(t.run, 0) == 0);
        }
      }
    }
  }
}

namespace {

// The n x n column-major a packed as core::HessBandView: only the elements
// a QR iteration may touch (the GPU kernels keep no more), so that
// AddressSanitizer catches any access beyond them.
template <class C>
std::vector<C> pack_band(const std::vector<C> &a, int n) {
  using Band = core::HessBandView<C>;
  std::vector<C> band(static_cast<size_t>(Band::used_elements(n)), C(0));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= std::min(j + 3, n - 1); ++i)
      band[static_cast<size_t>(Band::offset(j) + i)] = a[i + size_t(j) * n];
  return band;
}

// f(team) on every member of an OmpTeam of p; returns each member's int
// result, after REQUIREing that none threw.
template <class F>
std::vector<int> run_omp_team(int p, F &&f) {
  std::vector<int> infos(static_cast<size_t>(p), kInfoSentinel);
  std::vector<std::string> errors(static_cast<size_t>(p));
  OmpTeamShared shared(p);
  omp_set_dynamic(0);
#pragma omp parallel num_threads(p)
  {
    const int rank = omp_get_thread_num();
    try {
      if (omp_get_num_threads() != p) throw std::runtime_error("wrong thread count");
      OmpTeam tm(shared);
      infos[static_cast<size_t>(rank)] = f(tm);
    } catch (const std::exception &e) {
      errors[static_cast<size_t>(rank)] = e.what();
    }
  }
  for (int q = 0; q < p; ++q) {
    INFO("member " << q << ": " << errors[static_cast<size_t>(q)]);
    REQUIRE(errors[static_cast<size_t>(q)].empty());
  }
  return infos;
}

// One QR stage, run(team) returning the state it leaves: serially (p = 1)
// or by an OmpTeam of p, whose members must agree on the state (info,
// where the block ends, the log's length); returns member 0's.
template <class R, class F>
core::GeevState<R> run_stage(int p, F &&run) {
  if (p == 1) return run(core::SerialTeam{});
  std::vector<core::GeevState<R>> states(static_cast<size_t>(p));
  run_omp_team(p, [&](const OmpTeam &tm) {
    states[static_cast<size_t>(tm.rank())] = run(tm);
    return 0;
  });
  for (const auto &x : states)
    CHECK((x.info == states[0].info && x.qr_at == states[0].qr_at && x.qr_log == states[0].qr_log));
  return states[0];
}

// Test matrix f of order n reduced serially by core::geev_reduce for the
// QR tests below: H in a, the eigenvalues of isolated rows in (w, wi) (the
// others -7), the state, and H packed as the band (pack_band).
// With wantv, also the Schur vectors' start (the orthogonal factor) in z.
template <class T>
struct Reduced {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  std::vector<C> a, w, z;
  std::vector<R> wi;
  core::GeevState<R> st;
  std::vector<C> band;
};

template <class T>
Reduced<T> reduce_for_qr(Family f, int n, std::uint64_t seed, bool wantv = false) {
  using C = typename Reduced<T>::C;
  using R = typename Reduced<T>::R;
  const TestMatrix<T> m = make_matrix<T>(f, Magnitude::Unit, n, seed);
  const size_t nn = static_cast<size_t>(n) * n;
  Reduced<T> r;
  r.a.resize(nn);
  std::memcpy(static_cast<void *>(r.a.data()), m.a.data(), nn * sizeof(C));
  std::vector<C> work(core::GeevWork<C>::bytes(n, false) / sizeof(C) + 1);
  std::vector<R> scale(static_cast<size_t>(n));
  core::GeevWork<C> ws = core::GeevWork<C>::carve(work.data(), n, false);
  ws.scale = core::VecView<R>{scale.data(), 1};
  r.w.assign(static_cast<size_t>(n), C(-7));
  r.wi.assign(static_cast<size_t>(n), R(-7));
  if (wantv) r.z.assign(nn, C(0));
  const core::MatView<C> av{r.a.data(), n, 1}, zv{wantv ? r.z.data() : nullptr, n, 1};
  core::geev_reduce(core::SerialTeam{}, wantv, n, av, core::VecView<C>{r.w.data(), 1},
                    core::VecView<R>{r.wi.data(), 1}, zv, ws, r.st);
  REQUIRE(r.st.info == 0);
  r.band = pack_band(r.a, n);
  return r;
}

// The GPU warp variant runs an eigenvalue-only call in two launches: the
// reduction on the whole matrix, then the QR iteration on
// core::HessBandView (H and the two subdiagonals below it, packed by
// columns; cuda/geev/geev_team.cuh), with another team width. Here:
// core::geev_reduce, then core::geev_qr on the whole matrix (serially) and
// on the band copied out of it (serially and with OmpTeams of 2 and 3)
// give bitwise the same eigenvalues and info, also when the QR iteration
// stops early (max_iterations = 1, 2) and when balancing isolates rows.
template <class T>
void band_qr_matches_whole_matrix() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  using Band = core::HessBandView<C>;
  for (const int n : {7, 8, 12, 17, 30})
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Graded, Family::ZeroRowsCols})
      for (const int maxit : {0, 1, 2}) {
        INFO(precision_name<T>() << " n=" << n << " " << family_name(f) << " max_iterations=" << maxit);
        Reduced<T> r = reduce_for_qr<T>(f, n, make_seed(4242, n, static_cast<int>(f)));
        const std::vector<C> &w0 = r.w, &band = r.band;
        const std::vector<R> &wi0 = r.wi;
        const core::GeevState<R> st0 = r.st;
        const core::MatView<C> av{r.a.data(), n, 1};

        struct Out {
          std::vector<C> w;
          std::vector<R> wi;
          int info;
        };
        auto qr = [&](const auto &tm, auto h, Out &o) {
          core::GeevState<R> st = st0;
          core::geev_qr(tm, false, n, h, core::VecView<C>{o.w.data(), 1}, core::VecView<R>{o.wi.data(), 1},
                        decltype(h){}, maxit, st);
          return static_cast<int>(st.info);
        };
        Out whole{w0, wi0, 0}, serial{w0, wi0, 0};
        whole.info = qr(core::SerialTeam{}, av, whole);
        std::vector<C> b1 = band;
        serial.info = qr(core::SerialTeam{}, Band{b1.data()}, serial);
        CHECK(serial.info == whole.info);
        CHECK(std::memcmp(serial.w.data(), whole.w.data(), n * sizeof(C)) == 0);
        CHECK(std::memcmp(serial.wi.data(), whole.wi.data(), n * sizeof(R)) == 0);
        for (const int p : {2, 3}) {
          INFO("OmpTeam of " << p);
          Out team{w0, wi0, 0};
          std::vector<C> b2 = band;
          const std::vector<int> infos = run_omp_team(p, [&](const OmpTeam &tm) { return qr(tm, Band{b2.data()}, team); });
          for (const int info : infos) CHECK(info == serial.info);
          CHECK(std::memcmp(team.w.data(), serial.w.data(), n * sizeof(C)) == 0);
          CHECK(std::memcmp(team.wi.data(), serial.wi.data(), n * sizeof(R)) == 0);
          CHECK(std::memcmp(b2.data(), b1.data(), b1.size() * sizeof(C)) == 0);
        }
      }
}

// The GPU's QR launches on the band may run in stages (core::QrStage,
// cuda/geev/geev_team.cuh qr_in_band): a stage pauses after the first
// deflation that leaves the unfinished block ending below its pause row,
// stores the band's columns up to that row, and the next stage continues
// from a copy of those columns alone. Here: for pause schedules from one
// pause to a pause at every row, each stage on a fresh copy of exactly the
// columns the GPU keeps (AddressSanitizer catches any access beyond them),
// serially and with OmpTeams of 2 and 3, the eigenvalues and info are
// bitwise those of one core::geev_qr on the band, also when the iteration
// stops early (max_iterations = 1, 2) and when balancing isolates rows.
template <class T>
void staged_band_qr_matches_one_stage() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  using Band = core::HessBandView<C>;
  for (const int n : {7, 8, 12, 17, 30})
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Graded, Family::ZeroRowsCols,
                           Family::JordanOrth, Family::IllCluster})
      for (const int maxit : {0, 1, 2}) {
        INFO(precision_name<T>() << " n=" << n << " " << family_name(f) << " max_iterations=" << maxit);
        const Reduced<T> r = reduce_for_qr<T>(f, n, make_seed(4343, n, static_cast<int>(f)));
        const std::vector<C> &w0 = r.w, &band = r.band;
        const std::vector<R> &wi0 = r.wi;
        const core::GeevState<R> st0 = r.st;
        REQUIRE(st0.qr_at == st0.ihi);

        // One stage: the reference.
        std::vector<C> w1 = w0, b1 = band;
        std::vector<R> wi1 = wi0;
        core::GeevState<R> st1 = st0;
        core::geev_qr(core::SerialTeam{}, false, n, Band{b1.data()}, core::VecView<C>{w1.data(), 1},
                      core::VecView<R>{wi1.data(), 1}, Band{}, maxit, st1);

        std::vector<std::vector<int>> schedules = {{n / 2}, {n - 1}, {20, 12, 5}, {3}, {}};
        for (int k = n - 1; k > 0; --k) schedules.back().push_back(k);  // a pause at every row
        for (const auto &pauses : schedules)
          for (const int p : {1, 2, 3}) {
            std::string list;
            for (const int x : pauses) list += std::to_string(x) + " ";
            INFO("pauses " << list << "team of " << p);
            std::vector<C> global = band, w = w0;
            std::vector<R> wi = wi0;
            core::GeevState<R> st = st0;
            int stages = 0;
            for (size_t s = 0; s <= pauses.size(); ++s) {
              const int pause = s < pauses.size() ? pauses[s] : 0;
              if (s < pauses.size() && pause >= n) continue;
              if (st.info != 0 || st.qr_at < st.ilo || st.qr_at < pause) continue;
              ++stages;
              const int cols = st.qr_at + 1;
              const int count = cols < n ? Band::offset(cols) : Band::used_elements(n);
              std::vector<C> h(global.begin(), global.begin() + count);
              const core::GeevState<R> before = st;
              auto run = [&](const auto &tm) {
                core::GeevState<R> mine = before;
                core::geev_qr_stage(tm, n, Band{h.data()}, core::VecView<C>{w.data(), 1},
                                    core::VecView<R>{wi.data(), 1}, maxit, mine, pause);
                return mine;
              };
              st = run_stage<R>(p, run);
              if (st.info == 0 && pause > 0) {
                CHECK(st.qr_at < pause);
                CHECK(st.qr_at < before.qr_at);
              }
              std::copy(h.begin(), h.end(), global.begin());
            }
            CHECK(stages >= 1);
            CHECK(st.info == st1.info);
            if (st.info == 0) CHECK(st.qr_at < st.ilo);
            CHECK(std::memcmp(w.data(), w1.data(), n * sizeof(C)) == 0);
            CHECK(std::memcmp(wi.data(), wi1.data(), n * sizeof(R)) == 0);
          }
      }
}

// With vectors, the warp variant's Schur phase may also run in two launches
// (cuda/geev/geev_team.cuh, schur_qr_in_band): core::geev_reduce with the
// Schur vectors' start, then core::geev_qr with the Schur form and vectors
// on the band, the Schur vectors a whole matrix of their own. Here: that
// gives bitwise the Schur form (on the band's entries), the Schur vectors,
// the eigenvalues and info of core::geev_qr on the whole matrix, serially
// and with OmpTeams of 2 and 3 (whose passes over the rows read h and z
// together), also when the QR iteration stops early.
template <class T>
void band_schur_matches_whole_matrix() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  using Band = core::HessBandView<C>;
  for (const int n : {7, 8, 12, 17, 30})
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Graded, Family::ZeroRowsCols})
      for (const int maxit : {0, 2}) {
        INFO(precision_name<T>() << " n=" << n << " " << family_name(f) << " max_iterations=" << maxit);
        const size_t nn = static_cast<size_t>(n) * n;
        const Reduced<T> r = reduce_for_qr<T>(f, n, make_seed(4343, n, static_cast<int>(f)), true);
        const std::vector<C> &a = r.a, &z0 = r.z, &w0 = r.w, &band = r.band;
        const std::vector<R> &wi0 = r.wi;
        const core::GeevState<R> st0 = r.st;

        struct Out {
          std::vector<C> w;
          std::vector<R> wi;
          std::vector<C> z;
          int info;
        };
        auto qr = [&](const auto &tm, auto h, Out &o) {
          core::GeevState<R> st = st0;
          core::geev_qr(tm, true, n, h, core::VecView<C>{o.w.data(), 1}, core::VecView<R>{o.wi.data(), 1},
                        core::MatView<C>{o.z.data(), n, 1}, maxit, st);
          return static_cast<int>(st.info);
        };
        Out whole{w0, wi0, z0, 0};
        std::vector<C> aw = a;
        whole.info = qr(core::SerialTeam{}, core::MatView<C>{aw.data(), n, 1}, whole);
        const std::vector<C> tband = pack_band(aw, n);  // the whole matrix's Schur form on the band
        auto same = [&](const Out &o, const std::vector<C> &b, int info) {
          CHECK(info == whole.info);
          CHECK(std::memcmp(o.w.data(), whole.w.data(), n * sizeof(C)) == 0);
          CHECK(std::memcmp(o.wi.data(), whole.wi.data(), n * sizeof(R)) == 0);
          CHECK(std::memcmp(o.z.data(), whole.z.data(), nn * sizeof(C)) == 0);
          CHECK(std::memcmp(b.data(), tband.data(), b.size() * sizeof(C)) == 0);
        };
        {
          Out serial{w0, wi0, z0, 0};
          std::vector<C> b1 = band;
          const int info = qr(core::SerialTeam{}, Band{b1.data()}, serial);
          INFO("serial");
          same(serial, b1, info);
        }
        for (const int p : {2, 3}) {
          INFO("OmpTeam of " << p);
          Out team{w0, wi0, z0, 0};
          std::vector<C> b2 = band;
          const std::vector<int> infos = run_omp_team(p, [&](const OmpTeam &tm) { return qr(tm, Band{b2.data()}, team); });
          for (const int info : infos) CHECK(info == infos[0]);
          same(team, b2, infos[0]);
        }
      }
}


// With vectors, the real types' warp variant may make the Schur form by
// replay (cuda/geev/geev_team.cuh, replay_in_band): the eigenvalues' QR
// stages on the band keep the QR's log (core::geev_qr_stage_logged), then
// core::qr_replay applies it to the band they leave and to the reduction's
// orthogonal factor. Here: that gives bitwise the Schur form (the band's
// entries down to the subdiagonal; the reference is zero two and three
// rows below it), the Schur vectors, the eigenvalues and info of
// core::geev_qr with the Schur form and vectors on the band, for stages
// from one to a pause at every row (each on a copy of the columns it
// keeps, as the GPU's), logs and replays run serially and by OmpTeams of
// 2 and 3 (a replay's members own rows and columns; 3: owners not a power
// of two), also when the QR iteration stops early and when balancing
// isolates rows. A log without room marks itself overflowed and leaves
// the eigenvalues as they were.
template <class T>
void replay_matches_schur_qr() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  using Band = core::HessBandView<C>;
  int replays = 0;
  for (const int n : {1, 2, 3, 7, 8, 12, 17, 30})
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Graded, Family::ZeroRowsCols,
                           Family::JordanOrth, Family::IllCluster, Family::UpperTriangular, Family::Zero,
                           Family::Jordan, Family::DiagGeom})
      for (const int maxit : {0, 2}) {
        INFO(precision_name<T>() << " n=" << n << " " << family_name(f) << " max_iterations=" << maxit);
        const size_t nn = static_cast<size_t>(n) * n;
        const Reduced<T> r = reduce_for_qr<T>(f, n, make_seed(4545, n, static_cast<int>(f)), true);
        const std::vector<C> &z0 = r.z, &w0 = r.w, &band = r.band;
        const std::vector<R> &wi0 = r.wi;
        const core::GeevState<R> st0 = r.st;

        // The reference: the Schur form and vectors on the band.
        std::vector<C> tband = band, z1 = z0, w1 = w0;
        std::vector<R> wi1 = wi0;
        core::GeevState<R> st1 = st0;
        core::geev_qr(core::SerialTeam{}, true, n, Band{tband.data()}, core::VecView<C>{w1.data(), 1},
                      core::VecView<R>{wi1.data(), 1}, core::MatView<C>{z1.data(), n, 1}, maxit, st1);
        for (int j = 0; j < n; ++j)
          for (int i = j + 2; i <= std::min(j + 3, n - 1); ++i) CHECK(tband[size_t(Band::offset(j) + i)] == C(0));

        std::vector<std::vector<int>> schedules = {{}, {n / 2}, {}};
        for (int k = n - 1; k > 0; --k) schedules.back().push_back(k);  // a pause at every row
        const core::index_t room = core::qr_log_slots(n, 4 * n * n + 40, 40 * n + 40);
        for (const auto &pauses : schedules)
          for (const int p : {1, 2, 3})
            for (const bool tight : {false, true}) {
              std::string list;
              for (const int x : pauses) list += std::to_string(x) + " ";
              INFO("pauses " << list << "team of " << p << (tight ? ", a log without room" : ""));
              // As the GPU's launches: H's band stays in A (`band`); the
              // stages read it from there at the start and then work on a
              // copy in the workspace (`global`, NaN until written), which
              // the first stage completes with the columns right of the
              // block; the replay reads the workspace, or A where no stage
              // ran.
              std::vector<C> global(band.size(), C(std::numeric_limits<R>::quiet_NaN())), w = w0;
              std::vector<R> wi = wi0;
              const core::index_t cap = tight ? 9 : room;
              std::vector<C> log(static_cast<size_t>(cap) + 1, C(-9));
              core::GeevState<R> st = st0;
              for (size_t s = 0; s <= pauses.size(); ++s) {
                const int pause = s < pauses.size() ? pauses[s] : 0;
                if (st.info != 0 || st.qr_at < st.ilo || st.qr_at < pause) continue;
                const int cols = st.qr_at + 1;
                const int count = cols < n ? Band::offset(cols) : Band::used_elements(n);
                const bool fresh = st.qr_at == st.ihi;
                const std::vector<C> &from = fresh ? band : global;
                std::vector<C> h(from.begin(), from.begin() + count);
                if (fresh) std::copy(band.begin() + count, band.end(), global.begin() + count);
                const core::GeevState<R> before = st;
                auto run = [&](const auto &tm) {
                  core::GeevState<R> mine = before;
                  core::geev_qr_stage_logged(tm, n, Band{h.data()}, core::VecView<C>{w.data(), 1},
                                             core::VecView<R>{wi.data(), 1}, maxit, mine, pause, log.data(), cap);
                  return mine;
                };
                st = run_stage<R>(p, run);
                std::copy(h.begin(), h.end(), global.begin());
              }
              CHECK(st.info == st1.info);
              CHECK(std::memcmp(w.data(), w1.data(), n * sizeof(C)) == 0);
              CHECK(std::memcmp(wi.data(), wi1.data(), n * sizeof(R)) == 0);
              CHECK(log[static_cast<size_t>(cap)] == C(-9));  // nothing beyond the room
              if (st.qr_log < 0) {
                CHECK(tight);
                continue;
              }
              CHECK(st.qr_log <= cap);
              // No stage ran (a stage that stops early leaves qr_at as it
              // found it, but the GPU's replay skips such a matrix).
              if (st.info == 0 && st.qr_at == st.ihi) global = band;
              // Consecutive sweeps one at a time, and two at a time where
              // they can (tandem).
              for (const bool tandem : {false, true}) {
                std::vector<C> z = z0, scratch(static_cast<size_t>(p)), g = global;
                auto replay = [&](const auto &tm, auto lines) {
                  core::qr_replay<decltype(lines)::value>(tm, n, st.ilo, st.ihi, log.data(), st.qr_log, Band{g.data()},
                                                          core::MatView<C>{z.data(), n, 1},
                                                          &scratch[static_cast<size_t>(tm.rank())], tandem);
                  return 0;
                };
                // Lines per member: one, or (teams of 2) three at a time, as
                // the GPU's teams take several.
                if (p == 1) replay(core::SerialTeam{}, std::integral_constant<int, 1>{});
                else if (p == 2) run_omp_team(p, [&](const OmpTeam &tm) { return replay(tm, std::integral_constant<int, 3>{}); });
                else run_omp_team(p, [&](const OmpTeam &tm) { return replay(tm, std::integral_constant<int, 1>{}); });
                ++replays;
                CHECK(std::memcmp(z.data(), z1.data(), nn * sizeof(C)) == 0);
                bool same_t = true;
                for (int j = 0; j < n; ++j)
                  for (int i = 0; i <= std::min(j + 1, n - 1); ++i)
                    same_t = same_t && std::memcmp(&g[size_t(Band::offset(j) + i)],
                                                   &tband[size_t(Band::offset(j) + i)], sizeof(C)) == 0;
                CHECK(same_t);
              }
            }
      }
  CHECK(replays > 800);
}

// gehd2 with the reflectors in arrays of compile-time length
// (core::team_gehd2_register_len, which the GPU's warp teams take) must
// give bitwise the H and tau of the general loops, serially and in teams,
// for reflectors within the length and beyond it (the general loops then
// take the first, longer ones), after balancing (ilo > 0, ihi < n - 1 for
// the zeroed rows and columns).
template <int L>
struct FixedLengthSerialTeam : core::SerialTeam {};
template <int L>
struct FixedLengthOmpTeam : OmpTeam {
  explicit FixedLengthOmpTeam(const OmpTeam &tm) : OmpTeam(tm) {}
};
}  // namespace

namespace batcheig::core {
template <int L, class T>
inline constexpr int team_gehd2_register_len<FixedLengthSerialTeam<L>, T> = L;
template <int L, class T>
inline constexpr int team_gehd2_register_len<FixedLengthOmpTeam<L>, T> = L;
}  // namespace batcheig::core

namespace {

// gebal skips its scaling loop when detail::bal_unscaled says that the
// loop would scale nothing (core/balance.hpp), which keeps its results
// bitwise only if that is so. For every matrix where bal_unscaled holds,
// the loop's own test (norms by nrm2, as the serial gebal) must leave every
// index unscaled; teams must give the serial answer. The matrices: every
// family and magnitude, and random ones with one index's column and row
// norms placed within 2^-40..2^-4 of the loop's thresholds (a factor of 2
// either way), so that the check's margin is what decides.
template <class T>
void balance_check_is_safe() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  int held = 0, declined = 0;
  auto check = [&](std::vector<C> a, int n, const std::string &what) {
    INFO(precision_name<T>() << " n=" << n << " " << what);
    const core::MatView<C> av{a.data(), n, 1};
    const bool unscaled = core::detail::bal_unscaled(core::SerialTeam{}, av, 0, n - 1);
    for (const int p : {2, 3}) {
      const std::vector<int> team =
          run_omp_team(p, [&](const OmpTeam &tm) { return int(core::detail::bal_unscaled(tm, av, 0, n - 1)); });
      for (const int t : team) CHECK(t == int(unscaled));
    }
    if (!unscaled) {
      ++declined;
      return;
    }
    ++held;
    for (int i = 0; i < n; ++i) {
      const R c = core::nrm2(n, core::VecView<C>{&av(0, i), 1});
      const R r = core::nrm2(n, core::VecView<C>{&av(i, 0), n});
      INFO("index " << i << " c=" << c << " r=" << r);
      CHECK((c == R(0) || r == R(0) || (!(c < r / R(2)) && !(c / R(2) >= r))));
    }
  };
  for (const int n : {1, 2, 3, 7, 16, 30})
    for (const Family f : all_families())
      for (const Magnitude mg : all_magnitudes()) {
        const TestMatrix<T> m = make_matrix<T>(f, mg, n, make_seed(6161, n, static_cast<int>(f), static_cast<int>(mg)));
        std::vector<C> a(static_cast<size_t>(n) * n);
        std::memcpy(static_cast<void *>(a.data()), m.a.data(), a.size() * sizeof(C));
        check(a, n, std::string(family_name(f)) + " " + magnitude_name(mg));
      }
  for (const int n : {3, 7, 16, 30})
    for (const int e : {4, 9, 11, 14, 20, 40})
      for (const int side : {-1, 1})
        for (const bool up : {false, true}) {
          const TestMatrix<T> m = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(6262, n, e));
          std::vector<C> a(static_cast<size_t>(n) * n);
          std::memcpy(static_cast<void *>(a.data()), m.a.data(), a.size() * sizeof(C));
          const int i = n / 2;
          a[static_cast<size_t>(i) * n + i] = C(0);
          const core::MatView<C> av{a.data(), n, 1};
          const R c0 = core::nrm2(n, core::VecView<C>{&av(0, i), 1});
          const R r0 = core::nrm2(n, core::VecView<C>{&av(i, 0), n});
          // c / r = rho: 2 (1 +- 2^-e) or (1 +- 2^-e) / 2.
          const R rho = (up ? R(2) : R(0.5)) * (R(1) + R(side) * std::ldexp(R(1), -e));
          const R beta = c0 / (rho * r0);
          for (int j = 0; j < n; ++j) av(i, j) = av(i, j) * beta;
          check(a, n, "ratio " + std::string(up ? "2" : "1/2") + " (1 " + (side > 0 ? "+" : "-") + " 2^-" +
                          std::to_string(e) + ")");
        }
  // The check must hold on most matrices and decline near the thresholds.
  CHECK(held > 100);
  CHECK(declined > 20);
}

template <class T>
void gehd2_fixed_length_matches_loops() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  for (const int n : {1, 2, 3, 5, 8, 13, 17, 24, 30, 41})
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Graded, Family::ZeroRowsCols}) {
      INFO(precision_name<T>() << " n=" << n << " " << family_name(f));
      const TestMatrix<T> m = make_matrix<T>(f, Magnitude::Unit, n, make_seed(5151, n, static_cast<int>(f)));
      const size_t nn = static_cast<size_t>(n) * n;
      std::vector<C> a0(nn);
      std::memcpy(static_cast<void *>(a0.data()), m.a.data(), nn * sizeof(C));
      std::vector<R> scale(static_cast<size_t>(n));
      core::index_t ilo = 0, ihi = -1;
      core::gebal(core::SerialTeam{}, n, core::MatView<C>{a0.data(), n, 1}, ilo, ihi, core::VecView<R>{scale.data(), 1});
      struct Out {
        std::vector<C> a, tau;
      };
      auto reduce = [&](const auto &tm, Out &o) {
        core::gehd2(tm, n, ilo, ihi, core::SharedView<C>{o.a.data(), n}, core::VecView<C>{o.tau.data(), 1});
      };
      const Out init{a0, std::vector<C>(static_cast<size_t>(n), C(-7))};
      Out ref = init;
      reduce(core::SerialTeam{}, ref);
      auto same_as = [&](const Out &o, const Out &r) {
        CHECK(std::memcmp(o.a.data(), r.a.data(), nn * sizeof(C)) == 0);
        CHECK(std::memcmp(o.tau.data(), r.tau.data(), static_cast<size_t>(n) * sizeof(C)) == 0);
      };
      auto same = [&](const Out &o) { same_as(o, ref); };
      {
        INFO("serial, lengths to 40");
        Out o = init;
        reduce(FixedLengthSerialTeam<40>{}, o);
        same(o);
      }
      {
        INFO("serial, lengths to 6");
        Out o = init;
        reduce(FixedLengthSerialTeam<6>{}, o);
        same(o);
      }
      // (A team's reflectors differ from the serial run's in the last bits:
      // team_nrm2 sums in another order. So the team's general loops are
      // the reference here.)
      for (const int p : {2, 3}) {
        INFO("OmpTeam of " << p << ", lengths to 9");
        Out loops = init, o = init;
        run_omp_team(p, [&](const OmpTeam &tm) {
          reduce(tm, loops);
          return 0;
        });
        run_omp_team(p, [&](const OmpTeam &tm) {
          reduce(FixedLengthOmpTeam<9>{tm}, o);
          return 0;
        });
        same_as(o, loops);
      }
    }
}

// The host backend's team (batcheig::host::HostTeam) runs gehd2's and orghr's
// updates and trevc's back-transformation over blocks of rows and columns
// (core::team_cpu_blocked); every
// output of core::geev must be bitwise the serial team's, for every job, on
// a padded leading dimension, at sizes around and well beyond the block
// (remainder rows and columns), after balancing (ilo > 0, ihi < n - 1).
template <class T>
void host_team_matches_serial() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  const bool full = test_level() == TestLevel::Full;
  std::vector<int> sizes = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 23, 33, 41, 64};
  if (full) sizes.insert(sizes.end(), {100, 130});
  int compared = 0;
  for (const int n : sizes)
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Graded, Family::ZeroRowsCols,
                           Family::IllCluster, Family::UpperTriangular})
      for (const Magnitude mg : all_magnitudes())
        for (const Job job : kJobs) {
          INFO(precision_name<T>() << " n=" << n << " " << family_name(f) << " " << magnitude_name(mg) << " "
                                   << job_str(job));
          const TestMatrix<T> m = make_matrix<T>(f, mg, n, make_seed(7373, n, static_cast<int>(f), static_cast<int>(mg)));
          const int ld = n + 3;
          const size_t nn = static_cast<size_t>(n), mat = static_cast<size_t>(ld) * nn;
          struct Out {
            std::vector<C> a, w, vl, vr;
            std::vector<R> wi;
            std::vector<unsigned char> work;
            int info = 0;
          };
          auto solve = [&](const auto &tm) {
            Out o;
            o.a.assign(mat, C(-3));
            for (int j = 0; j < n; ++j)
              std::memcpy(static_cast<void *>(&o.a[static_cast<size_t>(j) * ld]), &m.a[static_cast<size_t>(j) * nn],
                          nn * sizeof(C));
            o.w.assign(nn, C(-5));
            o.wi.assign(nn, R(-5));
            o.vl.assign(mat, C(-7));
            o.vr.assign(mat, C(-7));
            const bool wantv = job.vl || job.vr;
            o.work.assign(core::GeevWork<C>::bytes(n, wantv) + 64, 0);
            const core::GeevWork<C> ws = core::GeevWork<C>::carve(o.work.data(), n, wantv);
            o.info = core::geev<C>(tm, job.vl, job.vr, n, core::MatView<C>{o.a.data(), ld, 1},
                                   core::VecView<C>{o.w.data(), 1}, core::VecView<R>{o.wi.data(), 1},
                                   core::MatView<C>{o.vl.data(), ld, 1}, core::MatView<C>{o.vr.data(), ld, 1}, ws,
                                   0);
            return o;
          };
          const Out ref = solve(core::SerialTeam{}), got = solve(batcheig::host::HostTeam{});
          CHECK(got.info == ref.info);
          CHECK(std::memcmp(got.a.data(), ref.a.data(), mat * sizeof(C)) == 0);
          CHECK(std::memcmp(got.w.data(), ref.w.data(), nn * sizeof(C)) == 0);
          CHECK(std::memcmp(got.wi.data(), ref.wi.data(), nn * sizeof(R)) == 0);
          CHECK(std::memcmp(got.vl.data(), ref.vl.data(), mat * sizeof(C)) == 0);
          CHECK(std::memcmp(got.vr.data(), ref.vr.data(), mat * sizeof(C)) == 0);
          ++compared;
        }
  CHECK(compared > 0);
}

// trevc's back-transformation (core/trevc.hpp) forms each entry of an
// eigenvector as q(r, col) x[col] plus the sum of q(r, c) x[c] over c in
// [c0, c0 + len): transformed adds two terms per loop trip, and
// transformed_pair sums a complex pair's two columns in one pass over the
// row of q. Both must give the plain sums in order, bitwise, for every
// length and for the strides x_column produces (forward or backward along
// a row of T's lower part, or unit in xt), on both matrix view types.
template <class T>
void back_transform_sums_are_plain() {
  using C = typename core_type<T>::type;
  const int n = 40, ld = 43;
  std::vector<C> q(static_cast<size_t>(ld) * n), x(static_cast<size_t>(ld) * n);
  const TestMatrix<T> qm = make_matrix<T>(Family::RandomDense, Magnitude::Unit, ld, make_seed(7676, ld, 1));
  const TestMatrix<T> xm = make_matrix<T>(Family::RandomDense, Magnitude::Unit, ld, make_seed(7676, ld, 2));
  std::memcpy(static_cast<void *>(q.data()), qm.a.data(), q.size() * sizeof(C));
  std::memcpy(static_cast<void *>(x.data()), xm.a.data(), x.size() * sizeof(C));
  auto plain = [](auto qv, core::index_t r, core::index_t col, core::index_t c0, core::index_t len,
                  core::VecView<C> xv) {
    C y = qv(r, col) * xv[col];
    for (core::index_t c = c0; c < c0 + len; ++c) y += qv(r, c) * xv[c];
    return y;
  };
  auto same = [](const C &a, const C &b) { return std::memcmp(&a, &b, sizeof(C)) == 0; };
  int checked = 0;
  auto run = [&](auto qv) {
    // x views as x_column makes them: a row of an n x n array read forward
    // or backward (step ld), or a unit-stride column.
    const core::VecView<C> xs[] = {{&x[3], ld}, {&x[3 + static_cast<size_t>(n - 1) * ld], -ld}, {&x[5], 1}};
    for (const auto &xa : xs)
      for (const auto &xb : xs)
        for (core::index_t len = 0; len <= n - 2; ++len)
          for (core::index_t c0 : {0, 1, 2}) {
            if (c0 + len > n - 2) continue;
            const core::index_t r = (len * 7 + c0) % n, ca = n - 2, cb = n - 1;
            INFO("len=" << len << " c0=" << c0 << " inc " << xa.inc << " / " << xb.inc);
            const C ya = plain(qv, r, ca, c0, len, xa), yb = plain(qv, r, cb, c0, len, xb);
            CHECK(same(core::detail::transformed(qv, r, ca, c0, len, xa), ya));
            C pa{}, pb{};
            core::detail::transformed_pair(qv, r, ca, cb, c0, len, xa, xb, pa, pb);
            CHECK(same(pa, ya));
            CHECK(same(pb, yb));
            ++checked;
          }
  };
  run(core::SharedView<C>{q.data(), ld});
  run(core::MatView<C>{q.data(), ld, 1});
  CHECK(checked > 0);
}

// orghr_in_place (the GPU's reduction launch with the orthogonal factor)
// must leave orghr's Q, bitwise, for every team; a's entries outside its
// rows and columns must stay as they were.
template <class T>
void orghr_in_place_matches_orghr() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  int cases = 0;
  for (const int n : {1, 2, 3, 5, 8, 13, 24, 30})
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Graded, Family::UpperTriangular,
                           Family::ZeroRowsCols, Family::Jordan}) {
      INFO(precision_name<T>() << " n=" << n << " " << family_name(f));
      const TestMatrix<T> m = make_matrix<T>(f, Magnitude::Unit, n, make_seed(6161, n, static_cast<int>(f)));
      const size_t nn = static_cast<size_t>(n) * n;
      std::vector<C> a(nn), tau(static_cast<size_t>(n), C(-7));
      std::memcpy(static_cast<void *>(a.data()), m.a.data(), nn * sizeof(C));
      std::vector<R> scale(static_cast<size_t>(n));
      core::index_t ilo = 0, ihi = -1;
      core::gebal(core::SerialTeam{}, n, core::MatView<C>{a.data(), n, 1}, ilo, ihi, core::VecView<R>{scale.data(), 1});
      // (Graded and triangular matrices let balancing isolate rows: ilo > 0
      // or ihi < n - 1.)
      core::gehd2(core::SerialTeam{}, n, ilo, ihi, core::SharedView<C>{a.data(), n}, core::VecView<C>{tau.data(), 1});
      std::vector<C> q(nn, C(-5));
      core::orghr(core::SerialTeam{}, n, ilo, ihi, core::SharedView<C>{a.data(), n}, core::VecView<C>{tau.data(), 1},
                  core::SharedView<C>{q.data(), n});
      auto check = [&](const std::vector<C> &b) {
        const core::SharedView<C> bv{const_cast<C *>(b.data()), n};
        bool same_q = true, kept = true;
        for (int c = 0; c < n; ++c)
          for (int r = 0; r < n; ++r) {
            const C e = core::orghr_in_place_entry(bv, ilo, ihi, r, c);
            same_q = same_q && std::memcmp(&e, &q[r + static_cast<size_t>(c) * n], sizeof(C)) == 0;
            const bool written = c >= ilo && c < ihi && r > ilo && r <= ihi;
            const size_t k = r + static_cast<size_t>(c) * n;
            kept = kept && (written || std::memcmp(&b[k], &a[k], sizeof(C)) == 0);
          }
        CHECK(same_q);
        CHECK(kept);
      };
      {
        INFO("serial");
        std::vector<C> b = a;
        core::orghr_in_place(core::SerialTeam{}, ilo, ihi, core::SharedView<C>{b.data(), n},
                             core::VecView<C>{tau.data(), 1});
        check(b);
      }
      for (const int p : {2, 3}) {
        INFO("OmpTeam of " << p);
        std::vector<C> b = a;
        run_omp_team(p, [&](const OmpTeam &tm) {
          core::orghr_in_place(tm, ilo, ihi, core::SharedView<C>{b.data(), n}, core::VecView<C>{tau.data(), 1});
          return 0;
        });
        check(b);
      }
      cases += ihi - ilo >= 2;
    }
  CHECK(cases > 20);  // most matrices have reflectors to form
}

// The Schur phase of geev (core::geev_schur, serial, with the Schur
// vectors) of the order-n column-major matrix at `a0`, for the tests that
// run the eigenvector phase on copies: T, Z, the eigenvalues, the
// balancing factors, the state, and the whole GeevWork's bytes.
template <class C>
struct SchurPhase {
  using R = core::real_t<C>;
  std::vector<C> a, z, w0;
  std::vector<R> wi0, scale0;
  core::GeevState<R> st0;
  size_t work_bytes = 0;
};
template <class C, class T0>
SchurPhase<C> serial_schur_phase(const T0 *a0, int n) {
  using R = core::real_t<C>;
  const size_t nn = static_cast<size_t>(n) * n;
  SchurPhase<C> sp;
  sp.a.resize(nn);
  std::memcpy(static_cast<void *>(sp.a.data()), a0, nn * sizeof(C));
  sp.z.assign(nn, C(0));
  sp.w0.assign(static_cast<size_t>(n), C(-7));
  sp.wi0.assign(static_cast<size_t>(n), R(-7));
  sp.work_bytes = core::GeevWork<C>::bytes(n, true);
  std::vector<unsigned char> full(sp.work_bytes);
  const core::GeevWork<C> ws0 = core::GeevWork<C>::carve(full.data(), n, true);
  core::geev_schur(core::SerialTeam{}, true, n, core::MatView<C>{sp.a.data(), n, 1},
                   core::VecView<C>{sp.w0.data(), 1}, core::VecView<R>{sp.wi0.data(), 1},
                   core::MatView<C>{sp.z.data(), n, 1}, ws0, core::index_t(0), sp.st0);
  sp.scale0.assign(ws0.scale.p, ws0.scale.p + n);
  return sp;
}

// The eigenvector phase's outputs, for those tests: eigenvalues, vectors
// and the info of a run.
template <class C>
struct VectorPhaseOut {
  std::vector<C> w, vl, vr;
  std::vector<core::real_t<C>> wi;
  int info = 0;
};

// body(n, job, phase) for each order in ns, four families (the matrix
// seeded by seed) and each job, after serial_schur_phase; the case in INFO.
template <class T, class Body>
void for_each_schur_case(std::initializer_list<int> ns, std::initializer_list<Job> jobs, int seed, Body &&body) {
  using C = typename core_type<T>::type;
  for (const int n : ns)
    for (const Family f : {Family::RandomDense, Family::Companion, Family::Jordan, Family::Graded})
      for (const Job job : jobs) {
        INFO(precision_name<T>() << " n=" << n << " " << family_name(f) << " " << job_str(job));
        const TestMatrix<T> m = make_matrix<T>(f, Magnitude::Unit, n, make_seed(seed, n, static_cast<int>(f)));
        body(n, job, serial_schur_phase<C>(m.a.data(), n));
      }
}

// The GPU's eigenvector launch (cuda/geev/geev_team.cuh, vectors_in_shared)
// runs core::geev_vectors and core::geev_finish with only the eigenvector
// phase's scratch (core::GeevWork::carve_vectors, bytes_vectors long) and
// the balancing factors elsewhere. Here: after core::geev_schur (serial),
// the vectors and eigenvalues from that scratch, in a buffer of exactly its
// size (an overrun is a heap-buffer-overflow under ASan), are bitwise those
// from the whole GeevWork, serially and with OmpTeams of 2 and 3.
template <class T>
void vectors_from_their_scratch_alone() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  const auto jobs = {Job{true, true}, Job{false, true}, Job{true, false}};
  for_each_schur_case<T>({1, 2, 5, 13, 30}, jobs, 4545, [&](int n, const Job &job, const SchurPhase<C> &sp) {
    const size_t nn = static_cast<size_t>(n) * n;
    const std::vector<C> &a = sp.a, &z = sp.z, &w0 = sp.w0;
    const std::vector<R> &wi0 = sp.wi0, &scale0 = sp.scale0;
    const core::GeevState<R> &st0 = sp.st0;

    using Out = VectorPhaseOut<C>;
    // Phases 2 and 3 on copies, with the whole scratch or the vector
    // phase's alone.
    auto vectors = [&](const auto &tm, bool alone, Out &o, std::vector<C> &at, std::vector<unsigned char> &mem,
                       std::vector<R> &scale) {
      core::GeevWork<C> ws = alone ? core::GeevWork<C>::carve_vectors(mem.data(), n)
                                   : core::GeevWork<C>::carve(mem.data(), n, true);
      ws.scale = core::VecView<R>{scale.data(), 1};
      const core::MatView<C> vl{job.vl ? o.vl.data() : nullptr, n, 1}, vr{job.vr ? o.vr.data() : nullptr, n, 1};
      core::geev_vectors(tm, job.vl, job.vr, n, core::MatView<C>{at.data(), n, 1},
                         core::VecView<R>{o.wi.data(), 1}, vl, vr, ws, st0);
      return core::geev_finish(tm, job.vl, job.vr, n, core::VecView<C>{o.w.data(), 1},
                               core::VecView<R>{o.wi.data(), 1}, vl, vr, st0);
    };
    auto run = [&](int p, bool alone, Out &o) {
      o.w = w0;
      o.wi = wi0;
      o.vl = job.vl ? z : std::vector<C>();
      o.vr = job.vr && !job.vl ? z : std::vector<C>(job.vr ? nn : 0, C(0));
      std::vector<C> at = a;
      std::vector<unsigned char> mem(alone ? core::GeevWork<C>::bytes_vectors(n) : sp.work_bytes);
      std::vector<R> scale = scale0;
      if (p == 0) return vectors(core::SerialTeam{}, alone, o, at, mem, scale);
      const std::vector<int> infos =
          run_omp_team(p, [&](const OmpTeam &tm) { return vectors(tm, alone, o, at, mem, scale); });
      for (const int info : infos) CHECK(info == infos[0]);
      return infos[0];
    };
    for (const int p : {0, 2, 3}) {
      INFO((p == 0 ? std::string("serial") : "OmpTeam of " + std::to_string(p)));
      Out whole, alone;
      const int info_whole = run(p, false, whole), info_alone = run(p, true, alone);
      CHECK(info_alone == info_whole);
      CHECK(std::memcmp(alone.w.data(), whole.w.data(), n * sizeof(C)) == 0);
      CHECK(std::memcmp(alone.wi.data(), whole.wi.data(), n * sizeof(R)) == 0);
      if (job.vl) CHECK(std::memcmp(alone.vl.data(), whole.vl.data(), nn * sizeof(C)) == 0);
      if (job.vr) CHECK(std::memcmp(alone.vr.data(), whole.vr.data(), nn * sizeof(C)) == 0);
    }
  });
}

// trevc's team wavefront for the right eigenvectors of a real Schur form
// (core::trevc_real: teams of kTrevcWavefrontMinTeam members or more, n >=
// kTrevcWavefrontMinN) forms each pivot's eigenvector (its shift and
// views) again at every block where a member owns several eigenvectors,
// and in double (core::kTrevcKeepOwn), where every member owns one at most
// (n <= team size), keeps it from the start. Here: after core::geev_schur
// (serial), the eigenvectors and eigenvalues from OmpTeams on both sides
// of that line are bitwise those of a team of one, which solves each
// eigenvector whole and normalizes as every team does (a serial team's
// double vectors are normalized as xGEEV, core::geev_vectors).
template <class T>
void wavefront_vectors_match_serial() {
  using C = typename core_type<T>::type;
  using R = core::real_t<C>;
  int kept = 0, formed = 0;
  const auto jobs = {Job{false, true}, Job{true, true}};
  const auto sizes = {int(core::kTrevcWavefrontMinN), 24, 30};
  for_each_schur_case<T>(sizes, jobs, 4646, [&](int n, const Job &job, const SchurPhase<C> &sp) {
    const size_t nn = static_cast<size_t>(n) * n;
    const std::vector<C> &a = sp.a, &z = sp.z, &w0 = sp.w0;
    const std::vector<R> &wi0 = sp.wi0, &scale0 = sp.scale0;
    const core::GeevState<R> &st0 = sp.st0;
    using Out = VectorPhaseOut<C>;
    auto run = [&](int p) {
      Out o;
      o.w = w0;
      o.wi = wi0;
      o.vl = job.vl ? z : std::vector<C>();
      o.vr = job.vr && !job.vl ? z : std::vector<C>(job.vr ? nn : 0, C(0));
      std::vector<C> at = a;
      std::vector<unsigned char> mem(sp.work_bytes);
      std::vector<R> scale = scale0;
      auto vectors = [&](const auto &tm) {
        core::GeevWork<C> ws = core::GeevWork<C>::carve(mem.data(), n, true);
        ws.scale = core::VecView<R>{scale.data(), 1};
        const core::MatView<C> vl{job.vl ? o.vl.data() : nullptr, n, 1},
            vr{job.vr ? o.vr.data() : nullptr, n, 1};
        core::geev_vectors(tm, job.vl, job.vr, n, core::MatView<C>{at.data(), n, 1},
                           core::VecView<R>{o.wi.data(), 1}, vl, vr, ws, st0);
        return core::geev_finish(tm, job.vl, job.vr, n, core::VecView<C>{o.w.data(), 1},
                                 core::VecView<R>{o.wi.data(), 1}, vl, vr, st0);
      };
      const std::vector<int> infos = run_omp_team(p, [&](const OmpTeam &tm) { return vectors(tm); });
      for (const int info : infos) CHECK(info == infos[0]);
      o.info = infos[0];
      return o;
    };
    const Out one = run(1);
    for (const int p : {int(core::kTrevcWavefrontMinTeam), 9, n, n + 3}) {
      INFO("OmpTeam of " << p << (n <= p ? " (n <= team size)" : " (n > team size)"));
      (n <= p ? kept : formed) += 1;
      const Out team = run(p);
      CHECK(team.info == one.info);
      CHECK(std::memcmp(team.w.data(), one.w.data(), n * sizeof(C)) == 0);
      CHECK(std::memcmp(team.wi.data(), one.wi.data(), n * sizeof(R)) == 0);
      if (job.vl) CHECK(std::memcmp(team.vl.data(), one.vl.data(), nn * sizeof(C)) == 0);
      CHECK(std::memcmp(team.vr.data(), one.vr.data(), nn * sizeof(C)) == 0);
    }
  });
  CHECK(kept > 0);
  CHECK(formed > 0);
}

}  // namespace

TEMPLATE_TEST_CASE("geev core: the eigenvector phase from its own scratch alone (GeevWork::carve_vectors) gives the "
                   "whole scratch's results, bitwise, whatever the team",
                   "[geev][team][trevc]", BT_GEEV_TYPES) {
  vectors_from_their_scratch_alone<TestType>();
}

TEMPLATE_TEST_CASE("geev core: the right eigenvectors in trevc's team wavefront, kept by their members or formed at "
                   "every pivot, are bitwise a team of one's",
                   "[geev][team][trevc]", BT_GEEV_TYPES) {
  wavefront_vectors_match_serial<TestType>();
}

TEMPLATE_TEST_CASE("geev core: the QR iteration on the packed band (HessBandView) gives the whole matrix's results, "
                   "bitwise, whatever the team",
                   "[geev][team][band]", BT_GEEV_TYPES) {
  band_qr_matches_whole_matrix<TestType>();
}

TEMPLATE_TEST_CASE("geev core: the QR iteration on the band in stages, each on a copy of the columns it keeps, "
                   "gives one stage's results, bitwise, whatever the team and the pauses",
                   "[geev][team][band]", BT_GEEV_TYPES) {
  staged_band_qr_matches_one_stage<TestType>();
}

TEMPLATE_TEST_CASE("geev core: the Schur form and vectors on the packed band (HessBandView) are the whole "
                   "matrix's, bitwise, whatever the team",
                   "[geev][team][band]", BT_GEEV_TYPES) {
  band_schur_matches_whole_matrix<TestType>();
}

TEMPLATE_TEST_CASE("geev core: the Schur form and vectors by replay of the eigenvalue QR's log, in stages, are "
                   "the Schur-form QR's, bitwise, whatever the team",
                   "[geev][team][band]", float, double) {
  replay_matches_schur_qr<TestType>();
}

TEMPLATE_TEST_CASE("geev core: gehd2 with its reflectors in fixed-length arrays gives the general loops' H and tau, "
                   "bitwise",
                   "[geev][team][gehd2]", BT_GEEV_TYPES) {
  gehd2_fixed_length_matches_loops<TestType>();
}

TEMPLATE_TEST_CASE("geev core: the host team's blocked reflector loops (core::team_cpu_blocked) give the serial team's "
                   "results, bitwise",
                   "[geev][team][gehd2]", BT_GEEV_TYPES) {
  host_team_matches_serial<TestType>();
}

TEMPLATE_TEST_CASE("geev core: orghr_in_place leaves orghr's Q in the reflectors' storage, bitwise, whatever the team",
                   "[geev][team][gehd2]", BT_GEEV_TYPES) {
  orghr_in_place_matches_orghr<TestType>();
}

TEMPLATE_TEST_CASE("geev core: gebal skips its scaling loop only where the loop would scale nothing",
                   "[geev][team][balance]", BT_GEEV_TYPES) {
  balance_check_is_safe<TestType>();
}

TEMPLATE_TEST_CASE("geev core: the back-transformation's sums (transformed, transformed_pair) are the plain sums in "
                   "order, bitwise",
                   "[geev][team][trevc]", BT_GEEV_TYPES) {
  back_transform_sums_are_plain<TestType>();
}

// A team's double real eigenvectors are normalized in three passes
// (core::detail::normalize_real_short, the GPU teams'); whatever the scale
// of the vectors it must give what xGEEV's steps (normalize_real, the
// serial team's) give to within a few ulps: unit 2-norm within the tests'
// bound, and a pair's component of largest modulus real, with its
// imaginary entry exactly zero. The scales reach the range where the sum
// of squares overflows or loses accuracy to underflow, so the exact
// power-of-two scaling runs too.
TEST_CASE("geev core: the three-pass normalization of double real eigenvectors gives xGEEV's at any scale",
          "[geev][team][trevc]") {
  const int n = 9;
  // Columns: real, pair (1, 2), real, pair (4, 5), pair (6, 7), real.
  const std::vector<double> wi = {0, 1, -1, 0, 2, -2, 0.5, -0.5, 0};
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto uniform = [&]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return double(std::int64_t(state >> 11) - (std::int64_t(1) << 52)) * 0x1p-52;  // [-1, 1)
  };
  int cases = 0;
  for (const int e : {-1000, -700, -450, -100, 0, 100, 450, 700, 1000})
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<double> v(size_t(n) * n);
      for (double &x : v) x = std::ldexp(uniform(), e);
      std::vector<double> ref = v, got = v;
      core::detail::normalize_real(core::SerialTeam{}, n, core::MatView<double>{ref.data(), n, 1},
                                   core::VecView<double>{const_cast<double *>(wi.data()), 1});
      core::detail::normalize_real_short(core::SerialTeam{}, n, core::MatView<double>{got.data(), n, 1},
                                         core::VecView<double>{const_cast<double *>(wi.data()), 1});
      INFO("scale 2^" << e << ", draw " << rep);
      for (int j = 0; j < n; ++j) {
        const bool pair = wi[size_t(j)] > 0;
        if (wi[size_t(j)] < 0) continue;
        long double s = 0, top = -1;
        for (int r = 0; r < n; ++r) {
          const long double a = got[size_t(j) * n + r], b = pair ? got[size_t(j + 1) * n + r] : 0.0L;
          s += a * a + b * b;
          top = std::max(top, a * a + b * b);
          CHECK(std::fabs(double(a - ref[size_t(j) * n + r])) <= 1e-14);
          if (pair) CHECK(std::fabs(double(b - ref[size_t(j + 1) * n + r])) <= 1e-14);
        }
        CHECK(std::fabs(double(std::sqrt(s) - 1.0L)) / unit_roundoff<double>() <= kGeevUnitNormThreshold);
        if (pair) {
          // The row the rotation made real: its imaginary entry is zero,
          // and no other entry is larger in modulus by more than rounding.
          int zeros = 0;
          for (int r = 0; r < n; ++r) {
            if (got[size_t(j + 1) * n + r] != 0.0) continue;
            ++zeros;
            CHECK(got[size_t(j) * n + r] * got[size_t(j) * n + r] >= double(top) * (1 - 1e-14));
          }
          CHECK(zeros >= 1);
        }
      }
      ++cases;
    }
  CHECK(cases == 9 * 20);
}

// The GPU's QR step on the band carries a member's address from column j to
// column j + s by core::cols_apart instead of forming the band's offset
// (core/hqr.hpp); it must be the distance between the two entries for every
// view type, row, column and stride a team can use.
TEST_CASE("geev core: cols_apart is the distance from h(i, j) to h(i, j + s) in every view", "[geev][team][band]") {
  std::vector<double> buf(64 * 64 * 3, 0.0);
  const core::HessBandView<double> band{buf.data()};
  const core::SharedView<double> shared{buf.data(), 65};
  const core::MatView<double> mat{buf.data(), 64, 3};
  int checked = 0;
  for (int n = 1; n <= 64; ++n)
    for (int s : {1, 2, 4, 8, 16, 32})
      for (int j = 0; j + s < n; ++j)
        for (int i = 0; i <= std::min(j + 3, n - 1); ++i) {
          INFO("n=" << n << " s=" << s << " i=" << i << " j=" << j);
          REQUIRE(&band(i, j + s) - &band(i, j) == core::cols_apart(band, j, s));
          REQUIRE(&shared(i, j + s) - &shared(i, j) == core::cols_apart(shared, j, s));
          REQUIRE(&mat(i, j + s) - &mat(i, j) == core::cols_apart(mat, j, s));
          ++checked;
        }
  CHECK(checked > 0);
}
