#!/bin/bash
# Session 84: the eigenvalue batch cut into pieces on several streams (bench/experiments/geev_overlap_probe.cpp).
set -u
B=/tmp/b; mkdir -p $B && tar -xJf devrun/b84/bundle.tar.xz -C $B   # device-bundle of batcheig_geev_overlap_probe
export LD_LIBRARY_PATH=$B/lib:${LD_LIBRARY_PATH:-}
S=$OUT/overlap.txt
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader >> $S
P=$B/bin/batcheig_geev_overlap_probe
for round in 1 2; do
  for n in 30 25 20; do
    for cfg in "1 1" "4 1" "2 2" "4 2" "8 2" "4 4" "16 4"; do
      $P $n 500000 $cfg 5 d >> $S 2>&1
    done
  done
  $P 30 500000 1 1 5 s >> $S 2>&1
  $P 30 500000 4 2 5 s >> $S 2>&1
done
