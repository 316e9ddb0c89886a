# Session 101, call 5: the replay's QR stages (with the log) on the stage
# counters; A/B inside one library (BATCHEIG_EXP_NOLOGCOUNTER gives the
# old launches: one matrix per team, `uneven` blocks). Real types with
# right vectors, alternated, two rounds; then the bitcheck with vectors.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nb4 && mkdir -p /tmp/nb4 && tar -xJf devrun/b5/bundle.tar.xz -C /tmp/nb4
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/nb4/bin
export LD_LIBRARY_PATH=/tmp/nb4/lib OPENBLAS_NUM_THREADS=1
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 0 --vectors"
row() { grep -E '^ +[0-9]+ +[0-9]+ +batcheig' /tmp/ab.txt | awk '{printf "n=%s %s ms; ", $1, $5}'; }
for round in 1 2; do
  for mode in new old; do
    if [ $mode = old ]; then E="env BATCHEIG_EXP_NOLOGCOUNTER=1"; else E="env"; fi
    { $E $B --batch 200000 --n 20,25,30,40; $E $B --batch 200000 --precision s --n 20,30,40; } > /tmp/ab.txt 2>&1
    echo "$mode round $round vectors d20,25,30,40 s20,30,40 rc=$? $(el)s: $(row)" >> $S
  done
done
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged /' >> $S
BATCHEIG_EXP_NOLOGCOUNTER=1 ./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged old /' >> $S
echo "done $(el)s" >> $S
cat $S
