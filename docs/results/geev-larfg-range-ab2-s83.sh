#!/bin/bash
# Session 83, fourth call: larfg's range test, every library built here: D = main, R = helper, W = written out
# (docs/results/geev-larfg-range-variants-s83.py); A = main from the bundle (built on the development machine). Bitchecks, SASS counts,
# then three rounds alternated.
set -u
R0=$PWD
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b83/bundle.tar.xz -C $B
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
export OPENBLAS_NUM_THREADS=1
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary4.txt
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >> $S; nvcc --version | tail -2 >> $S
build() { local v=$1
  ( d=/tmp/src$v; rm -rf $d; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
    [ $v = D ] || python3 docs/results/geev-larfg-range-variants-s83.py $d/src/core/blas.hpp $v
    cd $d && cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > /tmp/cfg_$v.log 2>&1
    ninja -C bld -j6 batcheig > /tmp/build_$v.log 2>&1; echo "build $v rc=$? $(el)s" >> $S
    mkdir -p /tmp/lib$v && cp -a bld/src/libbatcheig.so* /tmp/lib$v/ ) ; }
build D & p1=$!; build R & p2=$!; build W & p3=$!
wait $p1 $p2 $p3
cd $B/bin
run() { local v=$1; shift; LD_LIBRARY_PATH=/tmp/lib$v:$B/lib "$@"; }
for v in D R W; do
  run $v ./batcheig_geev_bitcheck --n 5:64 --batch 300 > /tmp/bit_$v.txt 2>&1; echo "bit $v rc=$? $(md5sum < /tmp/bit_$v.txt) $(el)s" >> $S
  f=$(ls /tmp/lib$v/libbatcheig.so.0.1.0)
  m="_ZN8batcheig4cuda16geev_team_detail19geev_band_qr_kernelIdLi16ELb0EEEvNS_11GeevProblemIT_EENS1_9GeevSplitIS4_EEiPyllj"
  cuobjdump -sass -fun $m $f > /tmp/sass_$v.txt 2>&1
  echo "sass $v lanes 16: $(grep -c '^ */\*[0-9a-f]*\*/' /tmp/sass_$v.txt) instr, DSETP $(grep -c DSETP /tmp/sass_$v.txt), ISETP $(grep -c ISETP /tmp/sass_$v.txt)" >> $S
done
for r in 1 2 3; do for v in A D R W; do
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch 200000 --n 20,30 --csv $OUT/d_${v}_$r.csv > /dev/null 2>&1
  run $v ./batcheig_bench geev --memory device --reps 5 --cusolver-subset 0 --lapacke-subset 1 --check 2 --batch 100000 --vectors --n 30 --csv $OUT/v_${v}_$r.csv > /dev/null 2>&1
done; echo "round $r $(el)s" >> $S; done
(cd $OUT && for f in [dv]_*_*.csv; do grep batcheig-device $f | awk -F, -v f=$f '{printf "%s n=%s batch=%s median=%.4f min=%.4f acc=%s\n", f, $3, $4, $9*1000, $10*1000, $14}'; done > ab4.txt; rm -f [dv]_*_*.csv)
cat $S; sort -t' ' -k2,2 -k1,1 $OUT/ab4.txt
