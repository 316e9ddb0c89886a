#!/bin/bash
# Session 84: the QR stages' resident grids held to a fraction of each SM (docs/results/geev-resident-fraction-s84.py),
# so that another stream's reduction launch shares the SMs; timed with bench/experiments/geev_overlap_probe.cpp.
set -u
R=$PWD
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b84/bundle.tar.xz -C $B   # device-bundle of batcheig_geev_overlap_probe
S=$OUT/resident.txt
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >> $S
mkdir -p /tmp/libA && cp -a $B/lib/libbatcheig.so* /tmp/libA/
d=/tmp/srcR; mkdir -p $d; cp -a CMakeLists.txt CMakePresets.json cmake include src pkgconfig bench tests demo examples $d/ 2>/dev/null
python3 docs/results/geev-resident-fraction-s84.py $d/src/cuda/geev/geev_team.cuh
(cd $d && cmake -S . -B bld -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DBATCHEIG_BUILD_TESTS=OFF -DBATCHEIG_BUILD_BENCH=OFF -DBATCHEIG_BUILD_DEMO=OFF -DBATCHEIG_BUILD_FORTRAN=OFF > $OUT/cfg.log 2>&1
 ninja -C bld -j16 batcheig > $OUT/build.log 2>&1; echo "build rc=$? $(el)s" >> $S)
mkdir -p /tmp/libR && cp -a $d/bld/src/libbatcheig.so* /tmp/libR/
P=$B/bin/batcheig_geev_overlap_probe
run() { local lib=$1 f=$2; shift 2; echo -n "lib=$lib resident=$f: " >> $S; BATCHEIG_PROBE_RESIDENT=$f LD_LIBRARY_PATH=/tmp/lib$lib:$B/lib $P "$@" 5 d >> $S 2>&1; }
for round in 1 2; do
  run A 1 30 500000 1 1
  run R 1 30 500000 1 1
  for f in 0.5 0.65 0.8; do
    for cfg in "1 1" "2 2" "4 2" "4 4" "8 4"; do run R $f 30 500000 $cfg; done
  done
  echo "round $round $(el)s" >> $S
done
