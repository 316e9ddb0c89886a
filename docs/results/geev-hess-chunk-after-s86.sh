set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
mkdir -p /tmp/n && tar -xJf devrun/b86c/bundle.tar.xz -C /tmp/n
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
cd /tmp/n/bin
S=$OUT/s.txt
BC=./batcheig_geev_bitcheck
$BC --n 100,150,180,230,300 --batch 40 > /tmp/bl.txt 2>&1; echo "bitlarge rc=$? $(md5sum < /tmp/bl.txt) (before 1d6b68a0) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 --vectors > /tmp/blv.txt 2>&1; echo "bitlargev rc=$? $(md5sum < /tmp/blv.txt) (before b23375f3) $(el)s" >> $S
$BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "bit rc=$? $(md5sum < /tmp/b.txt) (before b3f47dc3) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "bitv rc=$? $(md5sum < /tmp/bv.txt) (before ac032bcf) $(el)s" >> $S
B=./batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 4 --check 2 --warmup 1000"
{
$B geev $C --precision d --n 128,200,256 --batch 1000
$B geev $C --precision d --vectors --n 128,200 --batch 500
$B geev $C --precision s --n 256,330 --batch 1000
$B geev $C --precision z --n 100,200 --batch 500
$B geev $C --precision c --vectors --n 150 --batch 500
} > $OUT/bench.txt 2>&1
echo "bench $(el)s" >> $S
L=$(( 420 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
run geev_batch ./test_geev_batch
for ty in float double "std::complex<float>" "std::complex<double>"; do
  t=$(echo $ty | tr -dc 'a-z')
  run large_$t ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty"
done
( timeout 150 compute-sanitizer --tool memcheck $BC --precision sdcz --n 200 --batch 2 --vectors > /tmp/mc.txt 2>&1; echo "memcheck rc=$? $(grep 'ERROR SUMMARY' /tmp/mc.txt | tr '\n' ' ') $(el)s" >> $S ) &
wait
echo "done $(el)s" >> $S
cat $S; grep -E "^ +[0-9]+ " $OUT/bench.txt
