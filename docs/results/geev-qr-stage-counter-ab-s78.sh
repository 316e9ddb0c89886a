#!/bin/bash
# Session 78: A (main: the bundle's own library) vs F (docs/results/geev-qr-stage-counter-s78.patch: QR stages of at least 8 lanes take their matrices from a counter), F built on the device; bitcheck; A/F bench alternated, two rounds.
set -u
R=$PWD
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b78t/bundle.tar.xz -C $B
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s)
d=/tmp/srcF; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
cd $d && git apply $R/docs/results/geev-qr-stage-counter-s78.patch && echo "patch applied" >> $OUT/summary.txt
cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > $OUT/cfg_F.log 2>&1
ninja -C bld -j16 batcheig > $OUT/build_F.log 2>&1; echo "build F rc=$? $(( $(date +%s)-T0 ))s" >> $OUT/summary.txt
mkdir -p /tmp/libF && cp -a bld/src/libbatcheig.so* /tmp/libF/
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
cd $B/bin
run() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/lib$v:$B/lib "$@"; }
for v in A F; do run $v ./batcheig_geev_bitcheck --n 5:64 --batch 300 > $OUT/bit_$v.txt 2>&1; echo "bit $v rc=$? $(md5sum < $OUT/bit_$v.txt)" >> $OUT/summary.txt; done
run F ./batcheig_geev_bitcheck --n 18:40 --batch 20000 --precision d > $OUT/big_F.txt 2>&1; echo "big F rc=$? $(md5sum < $OUT/big_F.txt) $(( $(date +%s)-T0 ))s" >> $OUT/summary.txt
for r in 1 2; do for v in A F; do
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 200000 --n 20,25,30,40 --csv $OUT/e_${v}_$r.csv > /dev/null 2>&1
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 200000 --precision s --n 30 --csv $OUT/s_${v}_$r.csv > /dev/null 2>&1
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 100000 --precision z --n 20,30 --csv $OUT/z_${v}_$r.csv > /dev/null 2>&1
done; echo "round $r $(( $(date +%s)-T0 ))s" >> $OUT/summary.txt; done
cd $OUT && for f in [esz]_*_*.csv; do grep batcheig-device $f | awk -F, -v f=$f '{printf "%s %s n=%s median=%.3f min=%.3f acc=%s\n", f, $2, $3, $9*1000, $10*1000, $14}'; done > all.txt
cat summary.txt; cat all.txt
