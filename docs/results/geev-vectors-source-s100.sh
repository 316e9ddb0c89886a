# Session 100: Nsight Compute source counters (per CUDA line: warp
# instructions, thread instructions, stall samples) of the two last launches
# of double geev with right vectors, n = 30, batch 50 000: the replay of the
# QR log and the eigenvector launch (Phase::Vectors). Main 0734b86, built
# here for sm_90 with -lineinfo (Release), device-bundle devrun/b1.
# (Ran twice on one machine: the first form printed the CUDA source view,
# which carries no metrics; the second, this one before -f was added,
# found the first report and kept it: "collect rc=1". Record:
# docs/results/geev-vectors-h100-2026-12-06-s100.txt, part 1.)
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && [ -x /tmp/n/bin/batcheig_bench ] || tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n
# the sources at the path the line table names
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
ncu --version | tail -1 >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1
B="./batcheig_bench geev --memory device --reps 1 --cusolver-subset 0 --lapacke-subset 1 --check 0 --vectors --n 30 --batch 50000"
K='regex:geev_replay_kernel|Phase\)1'
ncu --clock-control none --kernel-name-base demangled --kernel-name "$K" --launch-skip 2 --launch-count 2 \
    --section SourceCounters --section LaunchStats --section WarpStateStats --import-source yes -f -o /tmp/vsrc $B > $OUT/collect.txt 2>&1
echo "collect rc=$? $(el)s" >> $S
for i in 0 1; do
  for v in sass cuda,sass; do
    f=/tmp/src$i-${v/,/-}.csv
    ncu -i /tmp/vsrc.ncu-rep --page source --csv --print-source $v --launch-skip $i --launch-count 1 > $f 2>> $OUT/err.txt
    echo "source $i $v rc=$? lines $(wc -l < $f) $(el)s" >> $S
    gzip -c $f > $OUT/src$i-${v/,/-}.csv.gz
  done
done
ncu -i /tmp/vsrc.ncu-rep --page details --csv > $OUT/details.csv 2>&1
cat $S
