#!/bin/bash
# Session 81: (1) the large-n accuracy cases on the GPU (global-memory path) beside the build of B on the device
# and A's bitchecks; (2) A (main 9deb994) against B (the QR stages' counter off: cuda_geev_band_counter_min_lanes
# = 64) at small batches, alternated, two rounds; (3) the issue-4 workload with A.
set -u
R=$PWD
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b81/bundle.tar.xz -C $B
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >> $S; nproc >> $S; grep -m1 "model name" /proc/cpuinfo >> $S
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
# B: main with the counter off, built here (library only)
( d=/tmp/srcB; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
  sed -i 's/cuda_geev_band_counter_min_lanes = 4;/cuda_geev_band_counter_min_lanes = 64;/' $d/src/plan/tuning.hpp
  grep -h "counter_min_lanes =" $d/src/plan/tuning.hpp >> $S
  cd $d && cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > $OUT/cfg_B.log 2>&1
  ninja -C bld -j10 batcheig > $OUT/build_B.log 2>&1; echo "build B rc=$? $(el)s" >> $S
  mkdir -p /tmp/libB && cp -a bld/src/libbatcheig.so* /tmp/libB/ ) &
BUILD=$!
cd $B/bin
run() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/lib$v:$B/lib "$@"; }
# the large-n accuracy cases (AUTO takes the global-memory path), one process per precision
for p in "double" "std::complex<float>" "std::complex<double>"; do
  ( f=$OUT/acc_large_$(echo $p | tr -cd 'a-z').txt
    BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=280 run A timeout 290 ./test_geev_accuracy "*under AUTO - $p" > $f 2>&1
    echo "test_geev_accuracy large n $p rc=$? $(grep -E 'test cases|All tests passed' $f | tail -1) $(el)s" >> $S ) &
done
bits() { local v=$1
  run $v ./batcheig_geev_bitcheck --n 5:64 --batch 300 > $OUT/bit_$v.txt 2>&1; echo "bit $v rc=$? $(md5sum < $OUT/bit_$v.txt) $(el)s" >> $S
  run $v ./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz > $OUT/big_$v.txt 2>&1; echo "big $v rc=$? $(md5sum < $OUT/big_$v.txt) $(el)s" >> $S; }
bits A
wait $BUILD
bits B
wait
echo "tests and build done $(el)s" >> $S
for r in 1 2; do for v in A B; do
  for b in 1000 4096 16384 65536; do
    run $v ./batcheig_bench geev --memory device --reps 20 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch $b --n 10,20,30 --csv $OUT/d_${v}_${b}_$r.csv > /dev/null 2>&1
  done
  for b in 1000 4096 16384; do
    run $v ./batcheig_bench geev --memory device --reps 20 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch $b --precision z --n 15,25 --csv $OUT/z_${v}_${b}_$r.csv > /dev/null 2>&1
  done
done; echo "round $r $(el)s" >> $S; done
(cd $OUT && for f in [dz]_*_*_*.csv; do grep batcheig-device $f | awk -F, -v f=$f '{printf "%s n=%s batch=%s median=%.4f min=%.4f acc=%s\n", f, $3, $4, $9*1000, $10*1000, $14}'; done > ab.txt)
unset OPENBLAS_NUM_THREADS
L=$(( 585 - $(el) ))
run A timeout $L bash -c "./batcheig_bench geev --memory device --reps 3 --cusolver-subset 100 --n 5:30:5 --batch 500000 --csv $OUT/w_d.csv > $OUT/w_d.txt 2>&1; ./batcheig_bench geev --memory device --reps 3 --precision s --n 15:30:5 --cusolver-subset 0 --lapacke-subset 1 --batch 500000 --csv $OUT/w_s.csv > $OUT/w_s.txt 2>&1; ./batcheig_bench geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 --csv $OUT/w_v.csv > $OUT/w_v.txt 2>&1"
echo "workload rc=$? $(el)s" >> $S
cd $OUT && tar -czf logs.tgz *.txt *.csv *.log 2>/dev/null
cat $S; cat $OUT/ab.txt | head -5
