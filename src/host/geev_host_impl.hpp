// Definition of the host geev backend; included once per precision by the
// explicit-instantiation files geev_host_{s,d,c,z}.cpp.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "core/geev.hpp"
#include "host/geev_host.hpp"
#include "host/host_team.hpp"
#include "plan/tuning.hpp"

namespace batcheig::host {

namespace detail {
// Per-matrix workspace in bytes, rounded to a cache line so that threads
// never share one.
template <class T>
std::size_t slice_bytes(int n, bool want_vectors) {
    std::size_t b = core::GeevWork<T>::bytes(n, want_vectors);
    return (b + 63) / 64 * 64;
}
}  // namespace detail

template <class T>
std::size_t geev_workspace_bytes(int n, bool want_vectors, int batch) {
    const int threads = std::max(1, std::min(omp_get_max_threads(), batch));
    // + 64: slack to align a caller's workspace pointer to a cache line.
    return detail::slice_bytes<T>(n, want_vectors) * static_cast<std::size_t>(threads) + 64;
}

template <class T>
batcheigStatus_t geev(Context &, const GeevProblem<T> &p, void *work, std::size_t lwork) {
    using core::index_t;
    const bool want_v = p.want_vl || p.want_vr;
    const std::size_t slice = detail::slice_bytes<T>(p.n, want_v);
    // Align the caller's workspace to a cache line (geev_workspace_bytes
    // includes the slack).
    const std::size_t pad = (64 - reinterpret_cast<std::uintptr_t>(work) % 64) % 64;
    if (lwork < pad) return BATCHEIG_STATUS_INVALID_VALUE;  // unreachable: checked by the api layer
    work = static_cast<char *>(work) + pad;
    lwork -= pad;
    const std::int64_t fit = static_cast<std::int64_t>(lwork / slice);
    if (fit < 1) return BATCHEIG_STATUS_INVALID_VALUE;  // unreachable: checked by the api layer
    const int threads =
        static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>({omp_get_max_threads(), fit, p.batch})));
    const index_t n = p.n;

#pragma omp parallel num_threads(threads)
    {
        char *mine = static_cast<char *>(work) + slice * static_cast<std::size_t>(omp_get_thread_num());
        core::GeevWork<T> ws = core::GeevWork<T>::carve(mine, p.n, want_v);
#pragma omp for schedule(dynamic, plan::tuning::host_chunk)
        for (index_t b = 0; b < p.batch; ++b) {
            core::MatView<T> A{p.A + b * p.lda * n, p.lda, 1};
            core::VecView<T> w{p.w + b * n, 1};
            core::VecView<core::real_t<T>> wi{p.wi ? p.wi + b * n : nullptr, 1};
            core::MatView<T> VL{p.VL ? p.VL + b * p.ldvl * n : nullptr, p.ldvl, 1};
            core::MatView<T> VR{p.VR ? p.VR + b * p.ldvr * n : nullptr, p.ldvr, 1};
            p.info[b] = core::geev<T>(HostTeam{}, p.want_vl, p.want_vr, p.n, A, w, wi, VL, VR, ws, p.max_iterations);
        }
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace batcheig::host

#define BATCHEIG_INSTANTIATE_HOST_GEEV(T)                                                              \
    template std::size_t batcheig::host::geev_workspace_bytes<T>(int, bool, int);                      \
    template batcheigStatus_t batcheig::host::geev<T>(batcheig::Context &,                             \
                                                      const batcheig::GeevProblem<T> &, void *,        \
                                                      std::size_t);
