#!/bin/bash
# Session 83, third call: A = main (bundle) against B = the working tree (larfg's range test on the high words as
# unsigned integers in double on the GPU), built here (library only); bitchecks, then two rounds alternated.
set -u
B=/tmp/b; [ -d $B/bin ] || { mkdir -p $B && tar -xJf devrun/b83/bundle.tar.xz -C $B; }
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary3.txt
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >> $S
d=/tmp/srcR; rm -rf $d; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
grep -c "larfg_direct_range" $d/src/core/blas.hpp >> $S
(cd $d && cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > $OUT/cfg_R.log 2>&1
 ninja -C bld -j16 batcheig > $OUT/build_R.log 2>&1; echo "build R rc=$? $(el)s" >> $S)
mkdir -p /tmp/libR && cp -a $d/bld/src/libbatcheig.so* /tmp/libR/
cd $B/bin
run() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/lib$v:$B/lib "$@"; }
for v in A R; do
  run $v ./batcheig_geev_bitcheck --n 5:64 --batch 300 > /tmp/bit_$v.txt 2>&1; echo "bit $v rc=$? $(md5sum < /tmp/bit_$v.txt) $(el)s" >> $S
  run $v ./batcheig_geev_bitcheck --vectors --n 5:64 --batch 100 > /tmp/bitv_$v.txt 2>&1; echo "bitv $v rc=$? $(md5sum < /tmp/bitv_$v.txt) $(el)s" >> $S
done
run R ./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz > /tmp/big_R.txt 2>&1; echo "big R rc=$? $(md5sum < /tmp/big_R.txt) $(el)s" >> $S
for r in 1 2 3; do for v in A R; do
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch 200000 --n 12,20,25,30 --csv $OUT/d_${v}_$r.csv > /dev/null 2>&1
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch 100000 --vectors --n 20,30 --csv $OUT/v_${v}_$r.csv > /dev/null 2>&1
done; echo "round $r $(el)s" >> $S; done
(cd $OUT && for f in [dv]_*_*.csv; do grep batcheig-device $f | awk -F, -v f=$f '{printf "%s n=%s batch=%s median=%.4f min=%.4f acc=%s\n", f, $3, $4, $9*1000, $10*1000, $14}'; done > ab3.txt)
cat $S; sort -t' ' -k2,2 -k1,1 $OUT/ab3.txt
