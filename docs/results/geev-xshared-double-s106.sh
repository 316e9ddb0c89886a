# Session 106: kTrevcXShared in double too, in the folded form that
# session 106 kept (x_column sets x.p = assume_shared(x.p) itself).
# Session 103 measured the mark in double through same_space as 3 % slower
# at n = 30 with right vectors; the fold compiles float's eigenvector
# kernels with fewer address steps, so the double form is measured again.
# new = main a92dee3 + docs/results/geev-xshared-double-s106.patch, base =
# main a92dee3's GPU code (the library that geev-xcolumn-fold-s105.sh ran),
# both built here with -DCMAKE_CUDA_ARCHITECTURES=90-real (Release); new
# packed with device-bundle devrun/x (bench, bitcheck, test_geev_cuda,
# lib), base's library as devrun/x/old.tar.xz (lib/libbatcheig.so.0.1).
# Order: bitchecks, an A/B of double right vectors (scripts/ab.sh), then
# test_geev_cuda (within LEFT seconds, default 400, of the start) and
# memcheck and racecheck of double eigenvector launches.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
ROOT=$PWD
rm -rf /tmp/nx /tmp/nh && mkdir -p /tmp/nx /tmp/nh && tar -xJf devrun/x/bundle.tar.xz -C /tmp/nx && tar -xJf devrun/x/old.tar.xz -C /tmp/nh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/nx/lib/libbatcheig.so.0.1 /tmp/nh/lib/libbatcheig.so.0.1 >> $S
cd /tmp/nx/bin
export LD_LIBRARY_PATH=/tmp/nx/lib OPENBLAS_NUM_THREADS=1
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 | md5sum | sed 's/^/bit v (want 5eb51171) /' >> $S
./batcheig_geev_bitcheck --vectors --n 20,30,40 --batch 17000 --precision ds | md5sum | sed 's/^/bit v staged (want c9aeeb26) /' >> $S
./batcheig_geev_bitcheck --vectors --n 5:64 --batch 300 --precision cz | md5sum | sed 's/^/bit v cz (want 7bd2fa21) /' >> $S
echo "bitchecks $(el)s" >> $S
cat $S
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors --precision d"
AB="$ROOT/scripts/ab.sh --base /tmp/nh/lib --new /tmp/nx/lib --rounds ${ROUNDS:-2} --grep batcheig-device --"
{ $AB $B --n 20,25,30 --batch 200000; $AB $B --n 40 --batch 100000; $AB $B --n 56,64 --batch 20000; } > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
echo "A/B $(el)s" >> $S
BATCHEIG_TEST_BACKENDS=cuda BATCHEIG_TEST_CALL_TIMEOUT=300 timeout $(( ${LEFT:-400} - $(el) - 40 )) ./test_geev_cuda > $OUT/test_geev_cuda.txt 2>&1
echo "test_geev_cuda rc=$? $(el)s $(grep -E 'test cases|All tests passed' $OUT/test_geev_cuda.txt | tail -1)" >> $S
CS="compute-sanitizer --print-limit 20"
for tool in memcheck racecheck; do
  for a in "--n 30 --batch 4" "--n 20 --batch 6" "--n 70 --batch 2"; do
    [ $(( $(el) + 30 )) -lt ${LEFT:-400} ] || break
    timeout 60 $CS --tool $tool ./batcheig_geev_bitcheck --precision d --vectors $a > /tmp/cs.txt 2>&1
    echo "$tool d vectors $a rc=$? $(el)s: $(tail -1 /tmp/cs.txt)" >> $S
  done
done
echo "done $(el)s" >> $S
cat $S
