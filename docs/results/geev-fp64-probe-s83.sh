#!/bin/bash
# Session 83: the marginal cost of FP64 work in the chase step. A = main (bundle); P40 / P80 = main with
# BATCHEIG_PROBE_FP64 = 40 / 80 extra DFMAs (four independent chains) in every middle step of the
# eigenvalues-only QR (docs/results/geev-fp64-probe-s83.py), built here (library only). Results must stay bitwise A's.
set -u
R=$PWD
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b83/bundle.tar.xz -C $B
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >> $S; nproc >> $S
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
build() { local k=$1
  ( d=/tmp/src$k; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
    python3 docs/results/geev-fp64-probe-s83.py $d/src/core/hqr.hpp
    cd $d && cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS=-DBATCHEIG_PROBE_FP64=$k -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > $OUT/cfg_$k.log 2>&1
    ninja -C bld -j8 batcheig > $OUT/build_$k.log 2>&1; echo "build P$k rc=$? $(el)s" >> $S
    mkdir -p /tmp/libP$k && cp -a bld/src/libbatcheig.so* /tmp/libP$k/ ) ; }
build 40 & b1=$!
build 80 & b2=$!
cd $B/bin
run() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/lib$v:$B/lib "$@"; }
bits() { local v=$1
  run $v ./batcheig_geev_bitcheck --n 5:64 --batch 300 > $OUT/bit_$v.txt 2>&1; echo "bit $v rc=$? $(md5sum < $OUT/bit_$v.txt) $(el)s" >> $S; }
big() { local v=$1
  run $v ./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz > $OUT/big_$v.txt 2>&1; echo "big $v rc=$? $(md5sum < $OUT/big_$v.txt) $(el)s" >> $S; }
bits A; big A
wait $b1 $b2
bits P40; bits P80; big P40
for v in A P40; do
  f=$(ls /tmp/lib$v/libbatcheig.so.0.1.0)
  for k in 16 8 4; do
    m="_ZN8batcheig4cuda16geev_team_detail19geev_band_qr_kernelIdLi${k}ELb0EEEvNS_11GeevProblemIT_EENS1_9GeevSplitIS4_EEiPyllj"
    cuobjdump -sass -fun $m $f > /tmp/sass_${v}_$k.txt 2>&1
    echo "sass $v lanes $k: $(grep -c '^ */\*[0-9a-f]*\*/' /tmp/sass_${v}_$k.txt) instr, DFMA $(grep -c DFMA /tmp/sass_${v}_$k.txt), DMUL $(grep -c DMUL /tmp/sass_${v}_$k.txt), DADD $(grep -c DADD /tmp/sass_${v}_$k.txt)" >> $S
  done
done
echo "checks done $(el)s" >> $S
for r in 1 2; do for v in A P40 P80; do
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch 200000 --n 20,25,30 --csv $OUT/d_${v}_$r.csv > /dev/null 2>&1
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch 200000 --precision s --n 30 --csv $OUT/s_${v}_$r.csv > /dev/null 2>&1
done; echo "round $r $(el)s" >> $S; done
(cd $OUT && for f in [ds]_*_*.csv; do grep batcheig-device $f | awk -F, -v f=$f '{printf "%s n=%s batch=%s median=%.4f min=%.4f acc=%s\n", f, $3, $4, $9*1000, $10*1000, $14}'; done > ab.txt)
for v in A P40; do
  run $v timeout 100 ncu --csv --clock-control none -k regex:geev_band_qr_kernel --launch-skip 3 --launch-count 3 \
    --metrics gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed_pipe_fp64.sum \
    ./batcheig_bench geev --memory device --reps 1 --warmup 1 --cusolver-subset 0 --lapacke-subset 1 --check 0 --n 30 --batch 100000 > $OUT/ncu_$v.txt 2>&1
  echo "ncu $v rc=$? $(el)s" >> $S
done
cd $OUT && tar -czf logs.tgz *.txt *.csv *.log 2>/dev/null
cat $S; cat $OUT/ab.txt
