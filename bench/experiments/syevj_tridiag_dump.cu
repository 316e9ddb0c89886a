// syevj_tridiag_dump.cu: the tridiagonal first stage of
// BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG (src/cuda/syevj/syevj_tridiag.cuh)
// on one of the tests' matrices, its intermediate results written to a file
// for bench/experiments/syevj_refine_model.cpp to examine on the host.
// The matrix (tests/support/herm_generators.hpp, unit magnitude, complex
// double) is rounded to single precision, full, as the library's working
// copy; the stage runs once on the GPU; the file holds, in this order:
//   int n; float d[n], e[n] (T, e[n-1] unused); complex<float> a32[n*n]
//   (the reflectors below the subdiagonal, column-major) and tau[n];
//   float z[n*n] (T's eigenvectors, z(k, j) at z[k n + j]);
//   complex<double> x[n*n] (X = Q Z, column-major);
//   complex<double> a[n*n] (the test matrix in double).
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_syevj_tridiag_dump
//   batcheig_syevj_tridiag_dump FAMILY N SEED FILE
// FAMILY: the HermFamily index (8: orth-similar-cluster).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "core/types.hpp"
#include "cuda/syevj/syevj_tridiag.cuh"
#include "cuda_util.hpp"
#include "support/herm_generators.hpp"

namespace {

struct Done {
    int done;
};

}  // namespace

int main(int argc, char **argv) try {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s FAMILY N SEED FILE\n", argv[0]);
        return 2;
    }
    using T = batcheig::core::complex<double>;
    using F = batcheig::core::complex<float>;
    using bench::cuda::check;
    const auto fam = static_cast<bt::HermFamily>(std::atoi(argv[1]));
    const int n = std::atoi(argv[2]);
    const std::uint64_t seed = std::strtoull(argv[3], nullptr, 10);
    const auto m = bt::make_herm_matrix<std::complex<double>>(fam, bt::Magnitude::Unit, n, seed);
    std::printf("%s\n", m.describe().c_str());
    const std::size_t nn = std::size_t(n) * n;
    std::vector<F> a32(nn);
    for (std::size_t i = 0; i < nn; ++i) a32[i] = F{float(m.a[i].real()), float(m.a[i].imag())};

    bench::cuda::DeviceArray<F> da(nn);
    bench::cuda::DeviceArray<T> dy(2 * nn);
    bench::cuda::DeviceArray<Done> ddone(1);
    bench::cuda::DeviceArray<unsigned char> work(batcheig::cuda::syevj_tridiag_workspace<F>(n, 1));
    check(cudaMemset(ddone.get(), 0, ddone.bytes()), "cudaMemset");
    check(cudaMemset(work.get(), 0, work.bytes()), "cudaMemset");
    check(cudaMemcpy(da.get(), a32.data(), da.bytes(), cudaMemcpyHostToDevice), "copy in");
    const batcheigStatus_t st =
        batcheig::cuda::syevj_tridiag<F, T, Done>(nullptr, n, 1, da.get(), work.get(), dy.get(), ddone.get());
    check(cudaDeviceSynchronize(), "the stage");
    std::printf("stage status %d\n", int(st));

    const batcheig::cuda::syevj_tridiag_detail::TridiagLayout<F> L(n, 1);
    const unsigned char *base = work.get();
    std::vector<float> de(2 * std::size_t(n)), z(nn);
    std::vector<F> tau(n);
    std::vector<T> x(nn);
    check(cudaMemcpy(de.data(), base + L.de, de.size() * sizeof(float), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(tau.data(), base + L.tau, tau.size() * sizeof(F), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(z.data(), base + L.z, nn * sizeof(float), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(a32.data(), da.get(), da.bytes(), cudaMemcpyDeviceToHost), "copy out");
    check(cudaMemcpy(x.data(), dy.get(), nn * sizeof(T), cudaMemcpyDeviceToHost), "copy out");

    std::FILE *f = std::fopen(argv[4], "wb");
    if (!f) return 1;
    std::fwrite(&n, sizeof n, 1, f);
    std::fwrite(de.data(), sizeof(float), de.size(), f);
    std::fwrite(a32.data(), sizeof(F), nn, f);
    std::fwrite(tau.data(), sizeof(F), tau.size(), f);
    std::fwrite(z.data(), sizeof(float), nn, f);
    std::fwrite(x.data(), sizeof(T), nn, f);
    std::fwrite(m.a.data(), sizeof(T), nn, f);
    std::fclose(f);
    std::printf("wrote %s\n", argv[4]);
    return 0;
} catch (const std::exception &e) {
    std::fprintf(stderr, "batcheig_syevj_tridiag_dump: %s\n", e.what());
    return 1;
}
