# Session 101, call 9: the block variant's double right vectors (AUTO at n = 49-97), main 5605979's library (devrun/b7).
set -u
S=$OUT/summary.txt
rm -rf /tmp/nb7 && mkdir -p /tmp/nb7 && tar -xJf devrun/b7/bundle.tar.xz -C /tmp/nb7
cd /tmp/nb7/bin
export LD_LIBRARY_PATH=/tmp/nb7/lib OPENBLAS_NUM_THREADS=1
./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors --batch 20000 --n 56,64,80,96 > /tmp/blk.txt 2>&1
echo "new rc=$? $(grep -E '^ +[0-9]+ +20000 +batcheig' /tmp/blk.txt | awk '{printf "n=%s %s ms acc %s; ", $1, $5, $9}')" >> $S
cat $S
