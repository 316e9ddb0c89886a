# Session 102: main d91cc48 (trevc's wavefront keeps each member's right
# eigenvector where n <= team size; built here for sm_90, device-bundle)
# against main a534558's library, both in one tarball (devrun/pair.tar.xz:
# the bundle's bin/ and lib/, and a534558's library in old/), alternated,
# two rounds; the bitchecks against the references; the GPU tests and
# compute-sanitizer on the eigenvector launch; the issue-4 vectors row.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n && mkdir -p /tmp/n && tar -xJf devrun/pair.tar.xz -C /tmp/n
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
md5sum /tmp/n/old/libbatcheig.so.0.1 /tmp/n/lib/libbatcheig.so.0.1 >> $S
cd /tmp/n/bin
NEW=/tmp/n/lib; OLD=/tmp/n/old:/tmp/n/lib
export LD_LIBRARY_PATH=$NEW
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/bit e (want b3f47dc3) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
echo "bitchecks $(el)s" >> $S
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors"
for r in 1 2; do
  for which in NEW OLD; do
    L=${!which}
    { LD_LIBRARY_PATH=$L $B --n 18,19,20,25,30 --batch 200000
      LD_LIBRARY_PATH=$L $B --n 40 --batch 100000
      LD_LIBRARY_PATH=$L $B --precision s --n 20,24,30 --batch 200000
      LD_LIBRARY_PATH=$L $B --n 56,64 --batch 20000; } 2>&1 | grep "batcheig-device device" > $OUT/ab_${which}_$r.txt
    echo "round $r $which $(el)s" >> $S
  done
done
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300
mkdir -p /tmp/o
run() { local name=$1; shift; ( s=$(date +%s); timeout 200 "$@" > /tmp/o/$name.txt 2>&1; echo "$name rc=$? $(( $(date +%s)-s ))s $(grep -E 'test cases|All tests passed' /tmp/o/$name.txt | tail -1)" >> $S ) & }
run geev_cuda ./test_geev_cuda
for ty in float double; do
  run acc_random_$ty ./test_geev_accuracy "geev accuracy: random dense\\, n = 1..64\\, 100\\, 150\\, every algorithm variant - $ty"
  run acc_nonnormal_$ty ./test_geev_accuracy "geev accuracy: non-normal families (Jordan block\\, ill-conditioned similarity) - $ty"
done
wait
CS="compute-sanitizer --print-limit 20"
for ta in "memcheck --vectors --precision d --n 30 --batch 600" "racecheck --vectors --precision d --n 30 --batch 600" \
          "memcheck --vectors --precision s --n 30 --batch 600" "racecheck --vectors --precision d --n 56 --batch 40"; do
  set -- $ta; tool=$1; shift
  timeout 60 $CS --tool $tool ./batcheig_geev_bitcheck "$@" > /tmp/cs.txt 2>&1
  echo "$tool $* rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
done
./batcheig_bench geev --memory device --reps 3 --vectors --n 30 --cusolver-subset 20 --batch 500000 > $OUT/w_v.txt 2>&1; echo "vectors n=30 rc=$? $(el)s" >> $S
for f in /tmp/o/*.txt; do grep -q "All tests passed" $f || { echo "== $f"; tail -60 $f; } >> $OUT/failures.txt; done
cat $S; for f in $OUT/ab_*; do echo "== $(basename $f)"; cat $f; done; grep -h "batcheig-device\|lapacke \|cusolver-loop" $OUT/w_v.txt
