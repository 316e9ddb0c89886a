set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b3/bundle.tar.xz -C /tmp/n
export OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib
BC=./batcheig_geev_bitcheck
( ./test_geev_cuda > /tmp/t_cuda.txt 2>&1; echo "geev_cuda rc=$? $(grep -E 'test cases|All tests passed' /tmp/t_cuda.txt | tail -1) $(el)s" >> $S ) &
P1=$!
( ./test_geev_batch > /tmp/t_batch.txt 2>&1; echo "geev_batch rc=$? $(grep -E 'test cases|All tests passed' /tmp/t_batch.txt | tail -1) $(el)s" >> $S ) &
P2=$!
$BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "bit rc=$? $(md5sum < /tmp/b.txt) (ref b3f47dc3) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "bitv rc=$? $(md5sum < /tmp/bv.txt) (ref ac032bcf) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 > /tmp/bl.txt 2>&1; echo "bitlarge rc=$? $(md5sum < /tmp/bl.txt) (ref c0108c32) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 --vectors > /tmp/blv.txt 2>&1; echo "bitlargev rc=$? $(md5sum < /tmp/blv.txt) (ref ceed8d99) $(el)s" >> $S
wait $P1 $P2
for f in /tmp/t_*.txt; do if ! grep -q "All tests passed" $f; then echo "== $f" >> $OUT/fail.txt; tail -c 3000 $f >> $OUT/fail.txt; fi; done
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 0 --check 2 --warmup 1000"
{
$B geev $C --precision d --n 200,256 --batch 1000
$B geev $C --precision d --vectors --n 200 --batch 500
$B geev $C --precision s --n 256,330 --batch 1000
$B geev $C --precision z --n 200 --batch 500
$B geev $C --precision c --n 200 --batch 500
$B geev $C --precision c --vectors --n 150 --batch 500
} > $OUT/bench.txt 2>&1
echo "done $(el)s" >> $S
cat $S; grep -E "^ +[0-9]+ " $OUT/bench.txt | cut -c1-120
