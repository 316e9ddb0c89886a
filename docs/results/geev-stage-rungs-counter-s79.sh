#!/bin/bash
# Session 79: with the counter, double's QR stage lanes: A = main (bundle b79c's library, 16 lanes from m = 30),
# R1 = rungs {14, 22, 26, 32, ...}, R2 = {14, 18, 22, 26, 32, ...} (cuda_geev_band_stage real_d); built on the device.
set -u
R=$PWD
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b79c/bundle.tar.xz -C $B
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
for v in R1 R2; do
  d=/tmp/src$v; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
done
sed -i 's/real_d\[\] = {14, 22, 32, 44, 60, 80, 110, 150, 200}/real_d[] = {14, 22, 26, 32, 44, 60, 80, 110, 150}/' /tmp/srcR1/src/plan/tuning.hpp
sed -i 's/real_d\[\] = {14, 22, 32, 44, 60, 80, 110, 150, 200}/real_d[] = {14, 18, 22, 26, 32, 44, 60, 80, 110}/' /tmp/srcR2/src/plan/tuning.hpp
grep -h "static constexpr int real_d\[\] = {14" /tmp/srcR1/src/plan/tuning.hpp /tmp/srcR2/src/plan/tuning.hpp >> $S
for v in R1 R2; do
  ( cd /tmp/src$v && cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > $OUT/cfg_$v.log 2>&1
    ninja -C bld -j8 batcheig > $OUT/build_$v.log 2>&1; echo "build $v rc=$? $(el)s" >> $S
    mkdir -p /tmp/lib$v && cp -a bld/src/libbatcheig.so* /tmp/lib$v/ ) &
done
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
cd $B/bin
run() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/lib$v:$B/lib "$@"; }
run A ./batcheig_geev_bitcheck --n 20:40:2 --batch 17000 --precision d > $OUT/big_A.txt 2>&1; echo "big A rc=$? $(md5sum < $OUT/big_A.txt) $(el)s" >> $S
wait
for v in R1 R2; do run $v ./batcheig_geev_bitcheck --n 20:40:2 --batch 17000 --precision d > $OUT/big_$v.txt 2>&1; echo "big $v rc=$? $(md5sum < $OUT/big_$v.txt) $(el)s" >> $S; done
for r in 1 2; do for v in A R1 R2; do
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 200000 --n 20,24,27,30,33,40 --csv $OUT/e_${v}_$r.csv > /dev/null 2>&1
done; echo "round $r $(el)s" >> $S; done
(cd $OUT && for f in e_*_*.csv; do grep batcheig-device $f | awk -F, -v f=$f '{printf "%s %s n=%s median=%.4f min=%.4f acc=%s\n", f, $2, $3, $9*1000, $10*1000, $14}'; done > all.txt)
cat $S; cat $OUT/all.txt
