// Definition of the host syevj backend; included once per precision by the
// explicit-instantiation files syevj_host_{s,d,c,z}.cpp.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "core/jacobi_syevj.hpp"
#include "host/syevj_host.hpp"
#include "plan/tuning.hpp"

namespace batcheig::host {

namespace detail {
inline core::JacobiVariant jacobi_variant(bool block) {
    return block ? core::JacobiVariant::Block : core::JacobiVariant::Scalar;
}
// Per-matrix workspace in bytes, rounded to a cache line so that threads
// never share one.
template <class T>
std::size_t syevj_slice_bytes(int n, bool want_vectors, bool block, int nb) {
    std::size_t b = core::SyevjWork<T>::bytes(n, want_vectors, jacobi_variant(block), nb);
    return (b + 63) / 64 * 64;
}
}  // namespace detail

// The slices start at a 64-byte boundary inside the caller's workspace,
// whatever its alignment: the query includes 64 bytes of slack for that.
inline constexpr std::size_t syevj_align = 64;

template <class T>
std::size_t syevj_workspace_bytes(int n, bool want_vectors, bool block, int nb, int batch) {
    const int threads = std::max(1, std::min(omp_get_max_threads(), batch));
    return detail::syevj_slice_bytes<T>(n, want_vectors, block, nb) * static_cast<std::size_t>(threads) + syevj_align;
}

template <class T>
batcheigStatus_t syevj(Context &, const SyevjProblem<T> &p, bool block, int nb, void *work, std::size_t lwork) {
    using core::index_t;
    const std::size_t slice = detail::syevj_slice_bytes<T>(p.n, p.want_v, block, nb);
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(work);
    const std::size_t skip = static_cast<std::size_t>((syevj_align - addr % syevj_align) % syevj_align);
    if (lwork < skip) return BATCHEIG_STATUS_INVALID_VALUE;  // unreachable: checked by the api layer
    work = static_cast<char *>(work) + skip;
    lwork -= skip;
    const std::int64_t fit = static_cast<std::int64_t>(lwork / slice);
    if (fit < 1) return BATCHEIG_STATUS_INVALID_VALUE;  // unreachable: checked by the api layer
    const int threads =
        static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>({omp_get_max_threads(), fit, p.batch})));
    const index_t n = p.n;

    core::JacobiOptions opt;
    opt.variant = detail::jacobi_variant(block);
    opt.tol = p.tolerance;
    if (p.max_sweeps > 0) opt.max_sweeps = p.max_sweeps;  // else the default, 100
    opt.sort = p.sort;
    opt.nb = block ? nb : 1;

#pragma omp parallel num_threads(threads)
    {
        char *mine = static_cast<char *>(work) + slice * static_cast<std::size_t>(omp_get_thread_num());
        const core::SyevjWork<T> ws = core::SyevjWork<T>::carve(mine, n, p.want_v, opt.variant, opt.nb);
#pragma omp for schedule(dynamic, plan::tuning::host_chunk)
        for (index_t b = 0; b < p.batch; ++b) {
            core::MatView<T> A{p.A + b * p.lda * n, p.lda, 1};
            core::VecView<core::real_t<T>> w{p.w + b * n, 1};
            core::JacobiStats st;
            p.info[b] = core::syevj<T>(p.want_v, p.lower, n, A, w, ws, opt, st);
            if (p.sweeps) p.sweeps[b] = st.sweeps;
            if (p.residual) p.residual[b] = st.residual;
        }
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace batcheig::host

#define BATCHEIG_INSTANTIATE_HOST_SYEVJ(T)                                                              \
    template std::size_t batcheig::host::syevj_workspace_bytes<T>(int, bool, bool, int, int);          \
    template batcheigStatus_t batcheig::host::syevj<T>(batcheig::Context &,                            \
                                                       const batcheig::SyevjProblem<T> &, bool, int,   \
                                                       void *, std::size_t);
