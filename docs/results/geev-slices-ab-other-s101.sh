# Session 101, call 3: the same library as call 1 (temporary switches
# BATCHEIG_EXP_UNEVEN / BATCHEIG_EXP_OLD_SLICE give the old choices): the
# other precisions A/B, test_geev_batch, sanitizers on the vector launch
# in blocks of two teams (batch 600).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nb4 && mkdir -p /tmp/nb4 && tar -xJf devrun/b3/bundle.tar.xz -C /tmp/nb4
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/nb4/bin
export LD_LIBRARY_PATH=/tmp/nb4/lib OPENBLAS_NUM_THREADS=1
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 0"
row() { grep -E '^ +[0-9]+ +[0-9]+ +batcheig' /tmp/ab.txt | awk '{printf "n=%s %s ms; ", $1, $5}'; }
for round in 1 2; do
  for mode in new old; do
    if [ $mode = old ]; then E="env BATCHEIG_EXP_UNEVEN=1"; else E="env"; fi
    { $E $B --batch 200000 --precision s --n 30,40; $E $B --batch 100000 --n 40 ; $E $B --batch 100000 --precision z --n 20,30; $E $B --batch 100000 --precision c --n 25,30; } > /tmp/ab.txt 2>&1
    echo "$mode round $round eigenvalues s30,40 d40 z20,30 c25,30 rc=$? $(el)s: $(row)" >> $S
    if [ $mode = old ]; then E="env BATCHEIG_EXP_OLD_SLICE=1"; else E="env"; fi
    { $E $B --batch 100000 --vectors --precision s --n 20,30; $E $B --batch 50000 --vectors --precision z --n 20,30; } > /tmp/ab.txt 2>&1
    echo "$mode round $round vectors s20,30 z20,30 rc=$? $(el)s: $(row)" >> $S
  done
done
BATCHEIG_TEST_BACKENDS=cuda timeout 300 ./test_geev_batch > /tmp/tb.txt 2>&1; echo "test_geev_batch rc=$? $(tail -2 /tmp/tb.txt | tr '\n' ' ') $(el)s" >> $S
CS="compute-sanitizer --print-limit 20"
for tool in racecheck memcheck; do
  for a in "--precision d --n 30 --batch 600" "--precision s --n 30 --batch 600" "--precision z --n 24 --batch 600"; do
    timeout 90 $CS --tool $tool ./batcheig_geev_bitcheck --vectors $a > /tmp/cs.txt 2>&1
    echo "$tool $a rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
  done
done
cat $S
