#!/bin/bash
# Session 104 (no GPU): where session 103's form B (968bfb1: every view of
# trevc's solutions X marked as shared memory) loses code, read from the
# PTX of the eigenvector launch (geev_warp_phase_kernel<T, L,
# Phase::Vectors>). Run from the repository root on a machine with nvcc and
# a configured build dir ($BUILD, for batcheig_export.h): each variant is
# 968bfb1's tree with one edit, compiled with nvcc -O3 -arch=compute_90
# -ptx; printed: div.rn / rcp.rn / sqrt.rn / ld.shared / st.shared /
# generic ld in the float kernels (8 and 16 lanes) or the double one (32).
#   main: 0d83a1b as it is;  B: 968bfb1;  V1: B without the mark at the
#   per-pivot call site (trevc_real, after vector_at);  V2: B without
#   laln2's marks;  B0: B with assume_shared's __builtin_assume removed.
# With LINES=1 also the float 8-lane kernel's .loc counts per line of
# trevc.hpp and laln2.hpp (-lineinfo), to compare B and V1 with B0.
set -eu
BUILD=${BUILD:-/tmp/nb4}; W=${W:-/tmp/ptx-s104}; mkdir -p $W
R=$(pwd)
mk() {  # mk NAME REV PYTHON-EDIT
  rm -rf $W/$1 && mkdir -p $W/$1 && git -C $R archive $2 src include | tar -x -C $W/$1
  [ -n "$3" ] && (cd $W/$1 && python3 -c "$3")
  true
}
E1='p="src/core/trevc.hpp";s=open(p).read();o="detail::right_pivot(v, j, two, t, cn, same_space(t, xr), same_space(t, xi), lim);\n                });\n            }\n            detail::back";assert s.count(o)==1;open(p,"w").write(s.replace(o,"detail::right_pivot(v, j, two, t, cn, xr, xi, lim);\n                });\n            }\n            detail::back"))'
E2='import re;p="src/core/trevc.hpp";s=open(p).read();open(p,"w").write(re.sub(r"same_space\(t, (&t\([^()]*\))\)",r"\1",s))'
E0='p="src/core/types.hpp";s=open(p).read();o="    __builtin_assume(__isShared(p));\n";assert s.count(o)==1;open(p,"w").write(s.replace(o,""))'
mk main 0d83a1b ""; mk B 968bfb1 ""; mk V1 968bfb1 "$E1"; mk V2 968bfb1 "$E2"; mk B0 968bfb1 "$E0"
count() {  # count DIR TU PATTERN
  (cd $W/$1 && nvcc -std=c++17 -O3 ${LINES:+-lineinfo} -arch=compute_90 -ptx -I include -I $BUILD/include -I src src/cuda/geev/$2 -o out.ptx)
  python3 - $W/$1 "$3" "$2" <<'PY'
import re, sys, collections
d, pat, tu = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(f'{d}/out.ptx').read()
files = {m.group(1): m.group(2) for m in re.finditer(r'\.file\s+(\d+)\s+"([^"]+)"', s)}
for f in re.split(r'\n(?=\.visible \.entry|\.entry|\.func|\.weak \.entry)', s):
    m = re.match(r'\S.*?(_Z\S+?)\(', f)
    if not m or not re.search(pat, m.group(1)): continue
    c = lambda p: len(re.findall(p, f))
    print(d.split('/')[-1], m.group(1)[45:80], 'div', c(r'\bdiv\.rn'), 'rcp', c(r'\brcp\.rn'), 'sqrt', c(r'\bsqrt\.rn'),
          'ld.shared', c(r'ld\.shared'), 'st.shared', c(r'st\.shared'), 'ld.generic', c(r'\bld\.(?!shared|global|local|param|const)'))
    if files:
        cnt = collections.Counter()
        for mm in re.finditer(r'\.loc\s+(\d+)\s+(\d+)', f):
            fn = files.get(mm.group(1), '?').split('/')[-1]
            if fn in ('trevc.hpp', 'laln2.hpp'): cnt[f'{fn}:{mm.group(2)}'] += 1
        with open(f'{d}/loc_{tu}.txt', 'w') as o:
            for k in sorted(cnt): o.write(f'{k} {cnt[k]}\n')
        break
PY
}
for v in main B V1 V2 B0; do count $v geev_cuda_s.cu 'warp_phase_kernelIfLi(8|16)ELNS1_5PhaseE1'; done
for v in main B V1; do count $v geev_cuda_d.cu 'warp_phase_kernelIdLi32ELNS1_5PhaseE1'; done
if [ -n "${LINES:-}" ]; then
  for v in B V1; do echo "lines whose .loc count differs, B0 against $v:"
    join -a1 -a2 -e0 -o 0,1.2,2.2 <(sort $W/B0/loc_geev_cuda_s.cu.txt) <(sort $W/$v/loc_geev_cuda_s.cu.txt) | awk '$2 != $3'; done
fi
