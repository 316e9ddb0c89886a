// One calling convention for batcheig{S,D,C,Z}geevBatched[_bufferSize].
//
// GeevArgs<T> holds every argument of the C call by value (pointers
// included), so argument tests can take a valid set of arguments, corrupt
// exactly one field, and call. For real T the eigenvalues go to wr/wi; for
// complex T to W (wr/wi are ignored), matching the two C signatures.
// jobvl/jobvr are ints and the calls go through the C shims (c_shims.h), so
// that deliberately invalid enum values are not undefined behaviour in C++.
#ifndef BATCHEIG_TESTS_SUPPORT_GEEV_API_HPP
#define BATCHEIG_TESTS_SUPPORT_GEEV_API_HPP

#include <cstddef>

#include "batcheig.h"
#include "c_shims.h"
#include "scalar.hpp"

namespace bt {

template <class T>
struct GeevArgs {
  using R = real_t<T>;
  batcheigHandle_t handle = nullptr;
  int jobvl = BATCHEIG_EIG_MODE_VECTOR;  ///< a batcheigEigMode_t value (or an invalid one)
  int jobvr = BATCHEIG_EIG_MODE_VECTOR;
  int n = 0;
  T *A = nullptr;
  int lda = 1;
  R *wr = nullptr;  // real T only
  R *wi = nullptr;  // real T only
  T *W = nullptr;   // complex T only
  T *VL = nullptr;
  int ldvl = 1;
  T *VR = nullptr;
  int ldvr = 1;
  void *work = nullptr;
  size_t lwork = 0;
  int *info = nullptr;
  batcheigParams_t params = nullptr;
  int batch = 1;
};

/// The arguments of geevBatched, by name; arg_position() maps them to the
/// 1-based positions documented in batcheig.h.
enum class GeevArg { handle, jobvl, jobvr, n, A, lda, wr, wi, W, VL, ldvl, VR, ldvr, work, lwork, info, params, batch };

inline const char *geev_arg_name(GeevArg a) {
  switch (a) {
    case GeevArg::handle: return "handle";
    case GeevArg::jobvl: return "jobvl";
    case GeevArg::jobvr: return "jobvr";
    case GeevArg::n: return "n";
    case GeevArg::A: return "A";
    case GeevArg::lda: return "lda";
    case GeevArg::wr: return "wr";
    case GeevArg::wi: return "wi";
    case GeevArg::W: return "W";
    case GeevArg::VL: return "VL";
    case GeevArg::ldvl: return "ldvl";
    case GeevArg::VR: return "VR";
    case GeevArg::ldvr: return "ldvr";
    case GeevArg::work: return "work";
    case GeevArg::lwork: return "lwork";
    case GeevArg::info: return "info";
    case GeevArg::params: return "params";
    case GeevArg::batch: return "batch";
  }
  return "?";
}

/// Position of an argument of batcheig?geevBatched (batcheig.h):
/// real:    1 handle, 2 jobvl, 3 jobvr, 4 n, 5 A, 6 lda, 7 wr, 8 wi, 9 VL,
///          10 ldvl, 11 VR, 12 ldvr, 13 work, 14 lwork, 15 info, 16 params, 17 batch
/// complex: 1 handle, 2 jobvl, 3 jobvr, 4 n, 5 A, 6 lda, 7 W, 8 VL, 9 ldvl,
///          10 VR, 11 ldvr, 12 work, 13 lwork, 14 info, 15 params, 16 batch
template <class T>
int geev_arg_position(GeevArg a) {
  const int base = static_cast<int>(a) + 1;  // enum order is the real order with W inserted
  if constexpr (!is_complex_v<T>) {
    // handle..wi are 1..8, W does not exist, VL.. are shifted by one (W's slot).
    return (a <= GeevArg::wi) ? base : base - 1;
  } else {
    // handle..lda are 1..6, wr/wi do not exist, W is 7, VL.. follow.
    return (a <= GeevArg::lda) ? base : base - 2;
  }
}

/// Position of an argument of batcheig?geevBatched_bufferSize: the same up
/// to ldvr, then the lwork output pointer, params, batch.
template <class T>
int geev_buffersize_arg_position(GeevArg a) {
  const int ldvr_pos = geev_arg_position<T>(GeevArg::ldvr);
  switch (a) {
    case GeevArg::lwork: return ldvr_pos + 1;
    case GeevArg::params: return ldvr_pos + 2;
    case GeevArg::batch: return ldvr_pos + 3;
    default: return geev_arg_position<T>(a);
  }
}

inline batcheigStatus_t geev_dispatch(const GeevArgs<float> &g) {
  return bt_c_sgeev(g.handle, g.jobvl, g.jobvr, g.n, g.A, g.lda, g.wr, g.wi, g.VL, g.ldvl, g.VR, g.ldvr, g.work,
                    g.lwork, g.info, g.params, g.batch);
}
inline batcheigStatus_t geev_dispatch(const GeevArgs<double> &g) {
  return bt_c_dgeev(g.handle, g.jobvl, g.jobvr, g.n, g.A, g.lda, g.wr, g.wi, g.VL, g.ldvl, g.VR, g.ldvr, g.work,
                    g.lwork, g.info, g.params, g.batch);
}
inline batcheigStatus_t geev_dispatch(const GeevArgs<std::complex<float>> &g) {
  using C = batcheigComplex;
  return bt_c_cgeev(g.handle, g.jobvl, g.jobvr, g.n, reinterpret_cast<C *>(g.A), g.lda, reinterpret_cast<C *>(g.W),
                    reinterpret_cast<C *>(g.VL), g.ldvl, reinterpret_cast<C *>(g.VR), g.ldvr, g.work, g.lwork, g.info,
                    g.params, g.batch);
}
inline batcheigStatus_t geev_dispatch(const GeevArgs<std::complex<double>> &g) {
  using C = batcheigDoubleComplex;
  return bt_c_zgeev(g.handle, g.jobvl, g.jobvr, g.n, reinterpret_cast<C *>(g.A), g.lda, reinterpret_cast<C *>(g.W),
                    reinterpret_cast<C *>(g.VL), g.ldvl, reinterpret_cast<C *>(g.VR), g.ldvr, g.work, g.lwork, g.info,
                    g.params, g.batch);
}

inline batcheigStatus_t geev_buffersize_dispatch(const GeevArgs<float> &g, size_t *lwork) {
  return bt_c_sgeev_buffersize(g.handle, g.jobvl, g.jobvr, g.n, g.A, g.lda, g.wr, g.wi, g.VL, g.ldvl, g.VR, g.ldvr,
                               lwork, g.params, g.batch);
}
inline batcheigStatus_t geev_buffersize_dispatch(const GeevArgs<double> &g, size_t *lwork) {
  return bt_c_dgeev_buffersize(g.handle, g.jobvl, g.jobvr, g.n, g.A, g.lda, g.wr, g.wi, g.VL, g.ldvl, g.VR, g.ldvr,
                               lwork, g.params, g.batch);
}
inline batcheigStatus_t geev_buffersize_dispatch(const GeevArgs<std::complex<float>> &g, size_t *lwork) {
  using C = const batcheigComplex;
  return bt_c_cgeev_buffersize(g.handle, g.jobvl, g.jobvr, g.n, reinterpret_cast<C *>(g.A), g.lda,
                               reinterpret_cast<C *>(g.W), reinterpret_cast<C *>(g.VL), g.ldvl,
                               reinterpret_cast<C *>(g.VR), g.ldvr, lwork, g.params, g.batch);
}
inline batcheigStatus_t geev_buffersize_dispatch(const GeevArgs<std::complex<double>> &g, size_t *lwork) {
  using C = const batcheigDoubleComplex;
  return bt_c_zgeev_buffersize(g.handle, g.jobvl, g.jobvr, g.n, reinterpret_cast<C *>(g.A), g.lda,
                               reinterpret_cast<C *>(g.W), reinterpret_cast<C *>(g.VL), g.ldvl,
                               reinterpret_cast<C *>(g.VR), g.ldvr, lwork, g.params, g.batch);
}

/// Call geevBatched with the given arguments.
template <class T>
batcheigStatus_t call_geev(const GeevArgs<T> &g) {
  return geev_dispatch(g);
}
/// Call geevBatched_bufferSize with the given arguments (g.work/g.lwork/g.info are not arguments of the query).
template <class T>
batcheigStatus_t call_geev_buffersize(const GeevArgs<T> &g, size_t *lwork) {
  return geev_buffersize_dispatch(g, lwork);
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_GEEV_API_HPP
