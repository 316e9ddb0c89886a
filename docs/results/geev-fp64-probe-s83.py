# Inserts the FP64 probe (BATCHEIG_PROBE_FP64 extra DFMAs per middle chase step) into core/hqr.hpp.
import sys
p = sys.argv[1]
s = open(p).read()
anchor = "            const R v3 = nr == 3 ? v[2] : R(0), t3 = t1 * v3;\n"
assert s.count(anchor) == 1
probe = anchor + r'''#if defined(BATCHEIG_PROBE_FP64) && defined(__CUDA_ARCH__)
            if constexpr (nr == 3 && !first) {
                if (!wantt && !wantz) {
                    R p0 = v2, p1 = v3, p2 = t1, p3 = t2;
#pragma unroll
                    for (int q = 0; q < BATCHEIG_PROBE_FP64 / 4; ++q) {
                        p0 = fma(p0, t3, v3);
                        p1 = fma(p1, t2, v2);
                        p2 = fma(p2, t1, t3);
                        p3 = fma(p3, v2, t1);
                    }
                    if (__double_as_longlong(double((p0 + p1) + (p2 + p3))) == 0x7ff0dead0000beefLL) cp[kk] = R(0);
                }
            }
#endif
'''
s = s.replace(anchor, probe)
open(p, 'w').write(s)
