set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b5/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
BC=./batcheig_geev_bitcheck
$BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "bit rc=$? $(md5sum < /tmp/b.txt) (ref b3f47dc3) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "bitv rc=$? $(md5sum < /tmp/bv.txt) (ref ac032bcf) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 > /tmp/bl.txt 2>&1; echo "bitlarge rc=$? $(md5sum < /tmp/bl.txt) (ref c0108c32) $(el)s" >> $S
$BC --n 100,150,180,230,300 --batch 40 --vectors > /tmp/blv.txt 2>&1; echo "bitlargev rc=$? $(md5sum < /tmp/blv.txt) (ref ceed8d99) $(el)s" >> $S
{ P=./batcheig_geev_split_probe; $P 200 1000 3 d; $P 200 500 3 z; $P 200 500 3 c; $P 150 500 3 c 1; } > $OUT/split.txt 2>&1
echo "split done $(el)s" >> $S
L=$(( 470 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/t_$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/t_$name.txt | tail -1)" >> $S ) & PIDS="$PIDS $!"; }
PIDS=""
run geev_cuda ./test_geev_cuda
run geev_batch ./test_geev_batch
run geev_args ./test_geev_args
for ty in float double "std::complex<float>" "std::complex<double>"; do
  t=$(echo $ty | tr -dc 'a-z')
  run large_$t ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty"
  run rand_$t ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
done
wait $PIDS
echo "tests done $(el)s" >> $S
for f in /tmp/t_*.txt; do if ! grep -q "All tests passed" $f; then echo "== $f" >> $OUT/fail.txt; tail -c 3000 $f >> $OUT/fail.txt; fi; done
cat $OUT/split.txt; cat $S
