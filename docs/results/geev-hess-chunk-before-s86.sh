set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
mkdir -p /tmp/n && tar -xJf devrun/b86b/bundle.tar.xz -C /tmp/n
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_EXPERIMENT_NO_GLOBAL_REDUCE_BAND=1
cd /tmp/n/bin
S=$OUT/s.txt
./batcheig_geev_bitcheck --n 100,150,180,230,300 --batch 40 > $OUT/bitlarge.txt 2>&1; echo "bitlarge rc=$? $(md5sum < $OUT/bitlarge.txt) $(el)s" >> $S
./batcheig_geev_bitcheck --n 100,150,180,230,300 --batch 40 --vectors > $OUT/bitlargev.txt 2>&1; echo "bitlargev rc=$? $(md5sum < $OUT/bitlargev.txt) $(el)s" >> $S
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 4 --check 2 --warmup 1000"
{
$B geev $C --precision d --n 128,200,256 --batch 1000
$B geev $C --precision d --vectors --n 128,200 --batch 500
$B geev $C --precision s --n 256,330 --batch 1000
$B geev $C --precision z --n 100,200 --batch 500
$B geev $C --precision c --vectors --n 150 --batch 500
} > $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S; grep -E "^ +[0-9]+ " $OUT/bench.txt
