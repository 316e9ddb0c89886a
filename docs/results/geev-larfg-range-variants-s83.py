# Applies a variant of larfg's direct-formula range test to a copy of src/core/blas.hpp.
# R: a helper detail::larfg_direct_range (high words as unsigned integers in double on the GPU);
# W: the same comparisons written out at each use.
import sys
p, v = sys.argv[1], sys.argv[2]
s = open(p).read()
a = 'if (n > 1 && s2 < detail::larfg_big2<T> && xn2 >= detail::larfg_small2<T>) {'
b = 'if (s2 < detail::larfg_big2<T> && xn2 >= detail::larfg_small2<T>) {'
assert s.count(a) == 1 and s.count(b) == 1
if v == 'R':
    old = 'inline constexpr T larfg_small2 = sizeof(T) == 4 ? T(0x1p-120) : T(0x1p-1000);\n'
    s = s.replace(old, old + '''template <class T>
BATCHEIG_HD bool larfg_direct_range(T s2, T xn2) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 8)
        return unsigned(__double2hiint(s2)) < 0x7E700000u && unsigned(__double2hiint(xn2)) >= 0x01700000u;
#endif
    return s2 < larfg_big2<T> && xn2 >= larfg_small2<T>;
}
''')
    s = s.replace(a, 'if (n > 1 && detail::larfg_direct_range(s2, xn2)) {')
    s = s.replace(b, 'if (detail::larfg_direct_range(s2, xn2)) {')
elif v == 'W':
    pre = '''bool direct = s2 < detail::larfg_big2<T> && xn2 >= detail::larfg_small2<T>;
#if defined(__CUDA_ARCH__)
        if constexpr (sizeof(T) == 8)
            direct = unsigned(__double2hiint(s2)) < 0x7E700000u && unsigned(__double2hiint(xn2)) >= 0x01700000u;
#endif
        '''
    s = s.replace(a, pre + 'if (n > 1 && direct) {')
    s = s.replace(b, pre.replace('\n        ', '\n            ') + 'if (direct) {')
open(p, 'w').write(s)
