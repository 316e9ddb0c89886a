# Session 104 (prepared, not run: the device time was spent): session
# 103's form B (every view of trevc's solutions X marked as shared
# memory) without the one mark that this session's PTX analysis
# (geev-shared-x-ptx-s104.sh) tied to B's wrong vectors, the per-pivot
# call site in trevc_real after vector_at: "V1", the patch
# geev-shared-views-v1-s104.patch against main. Two libraries, both
# configured with -DCMAKE_CUDA_ARCHITECTURES=90-real so that they fit one
# carry (about 32 + 23 MB): V1 (main with the patch) packed with
#   device-bundle devrun/v <build>/bench/batcheig_bench
#     <build>/bench/batcheig_geev_bitcheck <build>/tests/test_geev_cuda
#     <build>/src/libbatcheig.so.0.1
# and main's library alone as devrun/v/old.tar.xz (lib/libbatcheig.so.0.1).
# V1's bitchecks against the references, then the A/B set alternated
# (old, V1, old, V1), then test_geev_cuda on V1 with what time is left
# (LEFT: seconds the script may take in all, default 300).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nv /tmp/nh && mkdir -p /tmp/nv /tmp/nh && tar -xJf devrun/v/bundle.tar.xz -C /tmp/nv && tar -xJf devrun/v/old.tar.xz -C /tmp/nh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/nv/lib/libbatcheig.so.0.1 /tmp/nh/lib/libbatcheig.so.0.1 >> $S
cd /tmp/nv/bin
export LD_LIBRARY_PATH=/tmp/nv/lib
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/V1 bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/V1 bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 --precision cz | md5sum | sed 's/^/V1 bit v cz (want 7bd2fa21) /' >> $S
./batcheig_geev_bitcheck --n 5:64 --batch 300 | md5sum | sed 's/^/V1 bit e (want b3f47dc3) /' >> $S
echo "bitchecks $(el)s" >> $S
cat $S
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors"
set_() { { $B --n 20,25,30 --batch 200000; $B --n 40 --batch 100000; $B --precision s --n 20,24,30 --batch 200000
           $B --n 56,64 --batch 20000; } 2>&1 | grep "batcheig-device device"; }
for r in 1 2; do
  LD_LIBRARY_PATH=/tmp/nh/lib set_ > $OUT/old$r.txt; echo "round $r old $(el)s" >> $S
  LD_LIBRARY_PATH=/tmp/nv/lib set_ > $OUT/new$r.txt; echo "round $r V1 $(el)s" >> $S
done
paste <(awk '{print $1, $2, $5}' $OUT/old1.txt) <(awk '{print $5}' $OUT/new1.txt) <(awk '{print $5}' $OUT/old2.txt) <(awk '{print $5}' $OUT/new2.txt) | sed 's/^/n batch old1 V1 old2 V1: /'
export BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300 OPENBLAS_NUM_THREADS=1
timeout $(( ${LEFT:-300} - $(el) )) ./test_geev_cuda > $OUT/test_geev_cuda.txt 2>&1; echo "test_geev_cuda rc=$? $(el)s $(grep -E 'test cases|All tests passed' $OUT/test_geev_cuda.txt | tail -1)" >> $S
cat $S
