// The round-robin ordering (core::jacobi::round_robin_pair) run on m/2
// "slots" that each hold one pair and, between two steps, keep one of their
// two players and receive the other from another slot. A parallel Jacobi
// whose slot holds both columns of its pair then moves one column per pair
// and step instead of two (the pair-per-lane kernel of the CUDA backend,
// cuda/syevj/syevj_pair.cuh).
//
// Such a move exists between any two consecutive steps: the pairs of step r
// and of step r+1 together form cycles that alternate between the two steps
// (no pair occurs twice in a sweep), and walking a cycle, each slot keeps
// one player and receives its new partner from the slot that holds that
// partner, which keeps the partner's old partner. The schedule fixes the
// walk: slot 0 keeps player m-1 (the fixed player of the circle), and every
// other cycle starts at its lowest slot, keeping the player whose offset
// from the step's pivot r is positive. With this choice the slots hold the
// same pairs (unordered) again after two sweeps, so the table has 2 (m-1)
// steps and repeats; every run of m-1 consecutive steps is a whole sweep
// (every pair meets once). tests/test_syevj_core.cpp checks all of this for
// every even m up to kMaxPlayers.
//
// KeepOneScheduleT<MaxPlayers, MinPlayers, Slots> holds the tables of every
// even m in [MinPlayers, MaxPlayers], each Slots wide (at least
// MaxPlayers / 2; the default); entry [table(m)][t][slot] for the move after
// step t (t < 2 (m-1)):
//   low byte   the slot to receive from,
//   high byte  the player to keep (0xff for the idle slots m/2..; they
//              hold no player, keep "0xff" and receive from themselves).
// KeepOneSchedule: every m <= 64 (32 slots, a warp); KeepOneSchedule128:
// m = 128 alone (64 slots), and KeepOneSchedule80, 96 and 112: m = 80, 96,
// 112 alone, 64 slots wide (slots m/2.. idle). The pair kernel runs
// 64 < n <= 128 with the first of these m >= n players, those >= n idle.
// (The tables of every m = 66..128 in one object exceed what the device
// compiler evaluates at compile time.)
// The slots of step 0 hold (m-1, 0) in slot 0 and (k, m-1-k) in slot k, the
// first named in the "kept" register (keep_one_first / keep_one_second).
#pragma once

#include <cstdint>

#include "core/jacobi.hpp"

namespace batcheig::core::jacobi {

template <int MaxPlayers, int MinPlayers = 2, int Slots = MaxPlayers / 2>
struct KeepOneScheduleT {
    static_assert(MinPlayers % 2 == 0 && MaxPlayers % 2 == 0 && MinPlayers <= MaxPlayers && MaxPlayers < 255,
                  "even player counts; players and slots fit in a byte");
    static_assert(Slots >= MaxPlayers / 2 && Slots < 255, "a slot per pair");
    static constexpr int kMaxPlayers = MaxPlayers;
    static constexpr int kMinPlayers = MinPlayers;
    static constexpr int kMaxSlots = Slots;
    static constexpr int kMaxSteps = 2 * (kMaxPlayers - 1);
    static constexpr int kTables = (MaxPlayers - MinPlayers) / 2 + 1;
    static constexpr std::uint8_t kNone = 0xff;
    // The table of m players.
    static BATCHEIG_HD constexpr int table(int m) { return (m - MinPlayers) / 2; }
    std::uint16_t e[kTables][kMaxSteps][kMaxSlots];
};
using KeepOneSchedule = KeepOneScheduleT<64>;
using KeepOneSchedule128 = KeepOneScheduleT<128, 128>;
using KeepOneSchedule80 = KeepOneScheduleT<80, 80, 64>;
using KeepOneSchedule96 = KeepOneScheduleT<96, 96, 64>;
using KeepOneSchedule112 = KeepOneScheduleT<112, 112, 64>;

// Players of slot k at step 0 (k < m/2).
BATCHEIG_HD constexpr int keep_one_first(int m, int k) { return k == 0 ? m - 1 : k; }
BATCHEIG_HD constexpr int keep_one_second(int m, int k) { return k == 0 ? 0 : m - 1 - k; }

namespace keep_one_detail {

// Partner of player x in step r of the circle (round_robin_pair).
constexpr int circle_partner(int m, int r, int x) {
    const int m1 = m - 1;
    if (x == m1) return r;
    if (x == r) return m1;
    const int y = (2 * r - x) % m1;
    return y < 0 ? y + m1 : y;
}

// Offset of player x (< m-1) from r on the circle, in (-(m-1)/2, (m-1)/2].
constexpr int circle_offset(int m, int r, int x) {
    const int m1 = m - 1;
    int o = (x - r) % m1;
    if (o < 0) o += m1;
    return o <= m1 / 2 ? o : o - m1;
}

template <class Sched>
constexpr void fill(Sched &s, int m) {
    constexpr int kS = Sched::kMaxSlots;
    const int slots = m / 2, m1 = m - 1;
    int a[kS] = {}, b[kS] = {};  // the pairs the slots hold (unordered)
    for (int k = 0; k < slots; ++k) {
        a[k] = keep_one_first(m, k);
        b[k] = keep_one_second(m, k);
    }
    for (int t = 0; t < 2 * m1; ++t) {
        const int r = t % m1, rn = (t + 1) % m1;
        int slot_of[Sched::kMaxPlayers] = {};
        for (int k = 0; k < slots; ++k) {
            slot_of[a[k]] = k;
            slot_of[b[k]] = k;
        }
        int keep[kS] = {};
        bool done[kS] = {};
        for (int k0 = 0; k0 < slots; ++k0) {
            if (done[k0]) continue;
            int x = 0;
            if (a[k0] == m1 || b[k0] == m1) x = m1;
            else x = circle_offset(m, r, a[k0]) > 0 ? a[k0] : b[k0];
            int k = k0;
            while (!done[k]) {
                done[k] = true;
                keep[k] = x;
                const int y = circle_partner(m, rn, x);  // received by k
                k = slot_of[y];                           // sent by the slot of y,
                x = circle_partner(m, r, y);              // which keeps y's partner
            }
        }
        int na[kS] = {}, nb[kS] = {};
        for (int k = 0; k < slots; ++k) {
            const int y = circle_partner(m, rn, keep[k]);
            s.e[Sched::table(m)][t][k] = std::uint16_t(slot_of[y] | (keep[k] << 8));
            na[k] = keep[k];
            nb[k] = y;
        }
        for (int k = slots; k < kS; ++k) s.e[Sched::table(m)][t][k] = std::uint16_t(k | (Sched::kNone << 8));
        for (int k = 0; k < slots; ++k) {
            a[k] = na[k];
            b[k] = nb[k];
        }
    }
}

}  // namespace keep_one_detail

template <class Sched = KeepOneSchedule>
constexpr Sched make_keep_one_schedule() {
    Sched s{};
    for (int m = Sched::kMinPlayers; m <= Sched::kMaxPlayers; m += 2) keep_one_detail::fill(s, m);
    return s;
}

}  // namespace batcheig::core::jacobi
