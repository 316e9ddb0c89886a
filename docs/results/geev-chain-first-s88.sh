set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b2/bundle.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1 BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
BC=./batcheig_geev_bitcheck
$BC --n 5:64 --batch 300 > /tmp/b.txt 2>&1; echo "bit rc=$? $(md5sum < /tmp/b.txt) (ref b3f47dc3) $(el)s" >> $S
$BC --n 5:64 --batch 300 --vectors > /tmp/bv.txt 2>&1; echo "bitv rc=$? $(md5sum < /tmp/bv.txt) (ref ac032bcf) $(el)s" >> $S
P=./batcheig_geev_split_probe
{
for sh in 0 8 16 24; do export BATCHEIG_CHAIN_SHIFTS=$sh; echo "== shifts $sh"
$P 200 1000 3 d; $P 256 1000 3 d; $P 200 500 3 d 1
$P 256 1000 3 s; $P 330 1000 3 s
$P 100 500 3 z; $P 200 500 3 z; $P 100 500 3 z 1
$P 200 500 3 c; $P 150 500 3 c 1
done
unset BATCHEIG_CHAIN_SHIFTS
for mn in 24 80; do export BATCHEIG_CHAIN_MIN_NH=$mn; echo "== min_nh $mn"; $P 200 1000 3 d; $P 256 1000 3 s; $P 200 500 3 z; done
unset BATCHEIG_CHAIN_MIN_NH
} > $OUT/split.txt 2>&1
echo "split done $(el)s" >> $S
L=$(( 560 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > /tmp/t_$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/t_$name.txt | tail -1)" >> $S ) & PIDS="$PIDS $!"; }
PIDS=""
run geev_cuda ./test_geev_cuda
for ty in float double "std::complex<float>" "std::complex<double>"; do
  t=$(echo $ty | tr -dc 'a-z')
  run large_$t ./test_geev_accuracy "geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - $ty"
  run rand_$t ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
done
wait $PIDS
echo "tests done $(el)s" >> $S
for f in /tmp/t_*.txt; do if ! grep -q "All tests passed" $f; then echo "== $f" >> $OUT/fail.txt; tail -c 3000 $f >> $OUT/fail.txt; fi; done
cat $S
