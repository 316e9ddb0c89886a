# Session 100 (second A/B, the three-pass normalization): A/B of the eigenvector changes on one machine, right after
# geev-vectors-short-s100-tests.sh (whose /tmp/nb4 holds the new library,
# the bench and the LAPACK libraries): old = main 0734b86's library
# (devrun/old, the session's first bundle), new = /tmp/nb4's. Double,
# device arrays, 500 000 matrices, alternating runs.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
[ -x /tmp/nb4/bin/batcheig_bench ] || { echo "no /tmp/nb4: a fresh machine" >> $S; cat $S; exit 1; }
mkdir -p /tmp/old && xz -dc devrun/old/libbatcheig.so.0.1.xz > /tmp/old/libbatcheig.so.0.1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/nb4/bin
export OPENBLAS_NUM_THREADS=1
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 16 --check 0 --batch 500000"
for round in 1 2; do
  for lib in old new; do
    [ $lib = old ] && L=/tmp/old:/tmp/nb4/lib || L=/tmp/nb4/lib
    LD_LIBRARY_PATH=$L $B --vectors --n 20,25,30 > /tmp/ab.txt 2>&1
    echo "$lib round $round vectors rc=$? $(el)s: $(grep -E '^ +[0-9]+ +500000 +batcheig' /tmp/ab.txt | awk '{printf "n=%s %s ms; ", $1, $5}')" >> $S
  done
done
for lib in old new; do
  [ $lib = old ] && L=/tmp/old:/tmp/nb4/lib || L=/tmp/nb4/lib
  LD_LIBRARY_PATH=$L $B --n 30 > /tmp/ab.txt 2>&1
  echo "$lib eigenvalues rc=$? $(el)s: $(grep -E '^ +[0-9]+ +500000 +batcheig' /tmp/ab.txt | awk '{printf "n=%s %s ms; ", $1, $5}')" >> $S
done
cat $S
