# Session 101, call 10 (same machine as call 9): main 0734b86's library (before session 100; devrun/old) against call 9's, alternated.
set -u
S=$OUT/summary.txt
[ -x /tmp/nb7/bin/batcheig_bench ] || { echo "fresh machine" >> $S; cat $S; exit 1; }
mkdir -p /tmp/old && xz -dc devrun/old/libbatcheig.so.0.1.xz > /tmp/old/libbatcheig.so.0.1
cd /tmp/nb7/bin
export OPENBLAS_NUM_THREADS=1
for lib in old new old new; do
  [ $lib = old ] && L=/tmp/old:/tmp/nb7/lib || L=/tmp/nb7/lib
  LD_LIBRARY_PATH=$L ./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors --batch 20000 --n 56,64,80,96 > /tmp/blk.txt 2>&1
  echo "$lib rc=$? $(grep -E '^ +[0-9]+ +20000 +batcheig' /tmp/blk.txt | awk '{printf "n=%s %s ms acc %s; ", $1, $5, $9}')" >> $S
done
cat $S
