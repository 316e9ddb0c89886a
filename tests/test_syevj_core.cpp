// The header-only Jacobi core (src/core/jacobi*.hpp) on the element-
// interleaved layout the GPU kernels use (matrix b at p + b, ld n, element
// stride = batch): every code path that the host backend only runs with
// stride 1 (rotations, block GEMMs, Gram products, sorting) must give
// bitwise the results of the column-major run. Also checks the round-robin
// ordering: every pair exactly once per sweep, disjoint pairs in a step,
// and its keep-one schedule (core/jacobi_keep_one.hpp).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "catch_compat.hpp"
#include "core/jacobi_keep_one.hpp"
#include "core/jacobi_syevj.hpp"
#include "support/herm_generators.hpp"

using namespace bt;
namespace core = batcheig::core;

#define BT_SYEVJ_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

template <class T> struct core_type { using type = T; };
template <class R> struct core_type<std::complex<R>> { using type = core::complex<R>; };

}  // namespace

TEST_CASE("jacobi core: round-robin steps pair every index with every other exactly once", "[syevj][core]") {
  for (int n = 1; n <= 24; ++n) {
    const core::index_t m = core::jacobi::players(n);
    std::set<std::pair<core::index_t, core::index_t>> seen;
    for (core::index_t step = 0; step + 1 < m; ++step) {
      std::set<core::index_t> used;
      for (core::index_t k = 0; k < m / 2; ++k) {
        core::index_t p, q;
        core::jacobi::round_robin_pair(m, step, k, p, q);
        REQUIRE(p < q);
        REQUIRE(q < m);
        CHECK(used.insert(p).second);  // disjoint within the step
        CHECK(used.insert(q).second);
        if (q < n) CHECK(seen.insert({p, q}).second);
      }
    }
    CHECK(seen.size() == static_cast<size_t>(n) * (n - 1) / 2);
  }
}

namespace {

// Every table of schedule S (the pair kernel's moves, see the test case below).
template <class S>
void check_keep_one_schedule(const S &sched) {
  const int none = S::kNone;
  for (int m = S::kMinPlayers; m <= S::kMaxPlayers; m += 2) {
    INFO("m = " << m);
    const int slots = m / 2, period = 2 * (m - 1);
    // The registers of every slot as the pair kernel holds them: the player
    // to keep (first) and the other one.
    std::vector<std::pair<int, int>> reg(S::kMaxSlots, {none, none}), start;
    for (int k = 0; k < slots; ++k) reg[k] = {core::jacobi::keep_one_first(m, k), core::jacobi::keep_one_second(m, k)};
    start = reg;
    std::vector<std::set<std::pair<int, int>>> met;  // the pairs of every step
    for (int t = 0; t < 2 * period; ++t) {
      INFO("step " << t);
      const int r = t % (m - 1);
      // The step's pairs are those of round_robin_pair's step r, disjoint.
      std::set<std::pair<int, int>> pairs, expect;
      std::set<int> used;
      for (int k = 0; k < slots; ++k) {
        const auto [a, b] = reg[k];
        REQUIRE(a < m);
        REQUIRE(b < m);
        CHECK(used.insert(a).second);
        CHECK(used.insert(b).second);
        pairs.insert({std::min(a, b), std::max(a, b)});
        core::index_t p, q;
        core::jacobi::round_robin_pair(m, r, k, p, q);
        expect.insert({int(p), int(q)});
      }
      CHECK(pairs == expect);
      met.push_back(pairs);
      // The move: every slot keeps one of its players and receives the
      // other one of exactly one slot; idle slots keep nothing, receive
      // from themselves.
      std::vector<std::pair<int, int>> next(reg);
      std::vector<int> senders(S::kMaxSlots, 0);
      for (int k = 0; k < S::kMaxSlots; ++k) {
        const int e = sched.e[S::table(m)][t % period][k];
        const int src = e & 0xff, keep = e >> 8;
        REQUIRE(src < S::kMaxSlots);
        if (k >= slots) {
          CHECK(src == k);
          CHECK(keep == none);
          continue;
        }
        REQUIRE(src < slots);
        CHECK((keep == reg[k].first || keep == reg[k].second));
        const int se = sched.e[S::table(m)][t % period][src];
        const int src_keep = se >> 8;
        const int sent = src_keep == reg[src].first ? reg[src].second : reg[src].first;
        next[k] = {keep, sent};
        ++senders[src];
      }
      for (int k = 0; k < slots; ++k) CHECK(senders[k] == 1);
      reg = next;
      if ((t + 1) % period == 0) {
        // After two sweeps the slots hold their first pairs again (the
        // table repeats).
        for (int k = 0; k < slots; ++k) {
          CHECK(std::min(reg[k].first, reg[k].second) == std::min(start[k].first, start[k].second));
          CHECK(std::max(reg[k].first, reg[k].second) == std::max(start[k].first, start[k].second));
        }
      }
    }
    // Any m-1 consecutive steps are a sweep: every pair exactly once.
    for (std::size_t t0 = 0; t0 + (m - 1) <= met.size(); ++t0) {
      std::set<std::pair<int, int>> all;
      std::size_t count = 0;
      for (int i = 0; i < m - 1; ++i) {
        all.insert(met[t0 + i].begin(), met[t0 + i].end());
        count += met[t0 + i].size();
      }
      CHECK(count == std::size_t(m) * (m - 1) / 2);
      CHECK(all.size() == count);
    }
  }
}

}  // namespace

TEST_CASE("jacobi core: the keep-one schedule moves one player per slot and step and runs the round-robin ordering",
          "[syevj][core]") {
  // Evaluated at compile time, as on the GPU.
  static constexpr auto sched = core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule>();
  check_keep_one_schedule(sched);
  static constexpr auto sched128 = core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule128>();
  check_keep_one_schedule(sched128);
  static constexpr auto sched80 = core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule80>();
  check_keep_one_schedule(sched80);
  static constexpr auto sched96 = core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule96>();
  check_keep_one_schedule(sched96);
  static constexpr auto sched112 = core::jacobi::make_keep_one_schedule<core::jacobi::KeepOneSchedule112>();
  check_keep_one_schedule(sched112);
}

TEMPLATE_TEST_CASE("jacobi core: interleaved (GPU) layout gives bitwise the column-major results", "[syevj][core]",
                   BT_SYEVJ_TYPES) {
  using T = TestType;
  using C = typename core_type<T>::type;
  using R = real_t<T>;
  for (const auto variant : {core::JacobiVariant::Scalar, core::JacobiVariant::Block})
    for (const int n : {1, 2, 7, 13, 33})
      for (const bool want_v : {true, false}) {
        const int batch = 3;
        INFO(precision_name<T>() << " n=" << n << (variant == core::JacobiVariant::Block ? " block" : " scalar")
                                 << (want_v ? " vectors" : ""));
        core::JacobiOptions opt;
        opt.variant = variant;
        opt.nb = core::jacobi_block_width(n, 16);
        const size_t ws_bytes = (core::SyevjWork<C>::bytes(n, want_v, variant, opt.nb) + 63) / 64 * 64;
        std::vector<std::vector<T>> mats;
        const HermFamily fams[batch] = {HermFamily::Random, HermFamily::Graded, HermFamily::Repeated};
        for (int b = 0; b < batch; ++b) mats.push_back(make_herm_matrix<T>(fams[b], Magnitude::Unit, n, make_seed(8, n, b)).a);

        // Column-major, one matrix at a time (lower triangle).
        std::vector<T> Acm(static_cast<size_t>(n) * n * batch);
        std::vector<R> Wcm(static_cast<size_t>(n) * batch);
        std::vector<int> infocm(batch);
        std::vector<unsigned char> mem(ws_bytes + 64);
        void *aligned = mem.data() + (64 - reinterpret_cast<std::uintptr_t>(mem.data()) % 64) % 64;
        for (int b = 0; b < batch; ++b) {
          std::memcpy(&Acm[static_cast<size_t>(b) * n * n], mats[b].data(), sizeof(T) * n * n);
          const auto ws = core::SyevjWork<C>::carve(aligned, n, want_v, variant, opt.nb);
          core::JacobiStats st;
          infocm[b] = core::syevj<C>(want_v, true, n,
                                     core::MatView<C>{reinterpret_cast<C *>(&Acm[static_cast<size_t>(b) * n * n]), n, 1},
                                     core::VecView<R>{&Wcm[static_cast<size_t>(b) * n], 1}, ws, opt, st);
        }
        // Interleaved: element (i, j) of matrix b at p[(i + j n) batch + b];
        // the workspace slices interleaved the same way are not needed: each
        // matrix has its own contiguous scratch, as in a one-thread-per-matrix kernel.
        std::vector<T> Ail(static_cast<size_t>(n) * n * batch);
        std::vector<R> Wil(static_cast<size_t>(n) * batch);
        for (int b = 0; b < batch; ++b)
          for (int k = 0; k < n * n; ++k) Ail[static_cast<size_t>(k) * batch + b] = mats[b][k];
        for (int b = 0; b < batch; ++b) {
          const auto ws = core::SyevjWork<C>::carve(aligned, n, want_v, variant, opt.nb);
          core::JacobiStats st;
          const int info = core::syevj<C>(want_v, true, n, core::MatView<C>{reinterpret_cast<C *>(Ail.data()) + b, n, batch},
                                          core::VecView<R>{Wil.data() + b, batch}, ws, opt, st);
          CHECK(info == infocm[b]);
          CHECK(info == 0);
          for (int i = 0; i < n; ++i) CHECK(bits_equal(Wil[static_cast<size_t>(i) * batch + b], Wcm[static_cast<size_t>(b) * n + i]));
          if (want_v) {
            bool same = true;
            for (int k = 0; k < n * n; ++k)
              same = same && bits_equal(Ail[static_cast<size_t>(k) * batch + b], Acm[static_cast<size_t>(b) * n * n + k]);
            CHECK(same);
          }
        }
      }
}
