set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && tar -xJf devrun/b85n/bundle.tar.xz -C /tmp/n
export OPENBLAS_NUM_THREADS=1 LD_LIBRARY_PATH=/tmp/n/lib BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
L=$(( 520 - $(el) ))
run() { local name=$1; shift; ( s=$(date +%s); timeout $L "$@" > $OUT/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' $OUT/$name.txt | tail -1)" >> $S ) & }
for ty in float double "std::complex<float>" "std::complex<double>"; do
  t=$(echo $ty | tr -dc 'a-z')
  run acc_random_$t ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
  run acc_normal_$t ./test_geev_accuracy "geev accuracy: normal families (zero\\, identity\\, diagonal\\, orthogonal similarity\\, companion) - $ty"
  run acc_nonnormal_$t ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
  run acc_bal_$t ./test_geev_accuracy "geev accuracy: balancing families (triangular\\, zeroed rows/columns\\, graded) and scaled random - $ty"
done
wait
echo "done $(el)s" >> $S
cat $S
