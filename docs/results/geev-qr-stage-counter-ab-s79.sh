#!/bin/bash
# Session 79: A (main, the bundle's library) vs F (counter on stages of >= 8 lanes) vs G (>= 4 lanes, every stage);
# F and G built on the device from docs/results/geev-qr-stage-counter-s78.patch.
set -u
R=$PWD
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b79/bundle.tar.xz -C $B
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader >> $S; nproc >> $S
for v in F G; do
  d=/tmp/src$v; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
  (cd $d && git apply $R/docs/results/geev-qr-stage-counter-s78.patch)
done
sed -i 's/__maxnreg__((Logged ? plan::tuning::cuda_geev_replay_stage_registers : 80))/__maxnreg__((Logged ? plan::tuning::cuda_geev_replay_stage_registers : core::is_complex<T> ? 255 : 80))/' /tmp/srcF/src/cuda/geev/geev_team.cuh /tmp/srcG/src/cuda/geev/geev_team.cuh
grep -c "is_complex<T> ? 255" /tmp/srcF/src/cuda/geev/geev_team.cuh /tmp/srcG/src/cuda/geev/geev_team.cuh >> $S
sed -i 's/cuda_geev_band_counter_min_lanes = 8;/cuda_geev_band_counter_min_lanes = 4;/' /tmp/srcG/src/plan/tuning.hpp
grep -h "counter_min_lanes =" /tmp/srcF/src/plan/tuning.hpp /tmp/srcG/src/plan/tuning.hpp >> $S
for v in F G; do
  ( cd /tmp/src$v && cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > $OUT/cfg_$v.log 2>&1
    ninja -C bld -j8 batcheig > $OUT/build_$v.log 2>&1; echo "build $v rc=$? $(el)s" >> $S
    mkdir -p /tmp/lib$v && cp -a bld/src/libbatcheig.so* /tmp/lib$v/ ) &
done
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
cd $B/bin
run() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/lib$v:$B/lib "$@"; }
bits() { local v=$1
  run $v ./batcheig_geev_bitcheck --n 5:64 --batch 300 > $OUT/bit_$v.txt 2>&1; echo "bit $v rc=$? $(md5sum < $OUT/bit_$v.txt) $(el)s" >> $S
  run $v ./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz > $OUT/big_$v.txt 2>&1; echo "big $v rc=$? $(md5sum < $OUT/big_$v.txt) $(el)s" >> $S; }
bits A
wait
bits F; bits G
for r in 1 2; do for v in A F G; do
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 200000 --n 20,25,30,40 --csv $OUT/e_${v}_$r.csv > /dev/null 2>&1
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 200000 --precision s --n 30,40 --csv $OUT/s_${v}_$r.csv > /dev/null 2>&1
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 100000 --precision z --n 20,30 --csv $OUT/z_${v}_$r.csv > /dev/null 2>&1
done; echo "round $r $(el)s" >> $S; done
(cd $OUT && for f in [esz]_*_*.csv; do grep batcheig-device $f | awk -F, -v f=$f '{printf "%s %s n=%s median=%.3f min=%.3f acc=%s\n", f, $2, $3, $9*1000, $10*1000, $14}'; done > all.txt)
export BATCHEIG_TEST_BACKENDS=cuda
run F timeout 120 ./test_geev_cuda "*stages*" > $OUT/test_stages_F.txt 2>&1; echo "test stages F rc=$? $(tail -2 $OUT/test_stages_F.txt | tr '\n' ' ') $(el)s" >> $S
L=$(( 560 - $(el) )); [ $L -gt 20 ] && { run F timeout $(( L/2 )) compute-sanitizer --tool memcheck ./batcheig_geev_bitcheck --precision sdcz --n 20,30 --batch 16500 > $OUT/memcheck_F.txt 2>&1; echo "memcheck F rc=$? $(grep 'ERROR SUMMARY' $OUT/memcheck_F.txt) $(el)s" >> $S; }
L=$(( 580 - $(el) )); [ $L -gt 20 ] && { run F timeout $L compute-sanitizer --tool racecheck ./batcheig_geev_bitcheck --precision d --n 30 --batch 16500 > $OUT/racecheck_F.txt 2>&1; echo "racecheck F rc=$? $(grep -i 'hazard\|ERROR SUMMARY' $OUT/racecheck_F.txt | tail -1) $(el)s" >> $S; }
cat $S; cat $OUT/all.txt
