# Session 96: the GPU checks of the global variant's kernels after their
# scratch set-up moved into global_work (bitwise-neutral refactor).
# Library: main with that change built here for sm_90, packed with
# device-bundle into devrun/b1 (always extracted afresh).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n96 && mkdir -p /tmp/n96 && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n96
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n96/bin
export LD_LIBRARY_PATH=/tmp/n96/lib OPENBLAS_NUM_THREADS=1
BC=./batcheig_geev_bitcheck
bit() { local tag=$1; shift; "$@" > /tmp/bit.txt 2>&1; echo "$tag rc=$? $(md5sum < /tmp/bit.txt) $(el)s" >> $S; }
bit "5:64 (ref b3f47dc3)" $BC --n 5:64 --batch 300
bit "5:64v (ref ac032bcf)" $BC --n 5:64 --batch 300 --vectors
bit "large (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
bit "largev (ref ceed8d99)" $BC --n 100,150,180,230,300 --batch 40 --vectors
bit "sdc (ref 81d608f8)" $BC --n 128,144,160,200,238,260 --batch 20 --precision sdc
CS="compute-sanitizer --print-limit 20"
timeout 120 $CS --tool memcheck $BC --precision sdc --n 136,203,251 --batch 2 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? $(el)s: $(tail -1 $OUT/memcheck.txt)" >> $S
timeout 120 $CS --tool racecheck $BC --precision d --n 180 --batch 1 > $OUT/racecheck.txt 2>&1; echo "racecheck d180 rc=$? $(el)s: $(tail -1 $OUT/racecheck.txt)" >> $S
export BATCHEIG_TEST_BACKENDS=cuda
timeout 150 ./test_geev_cuda > $OUT/geev_cuda.txt 2>&1; echo "test_geev_cuda rc=$? $(el)s: $(tail -2 $OUT/geev_cuda.txt | tr '\n' ' ')" >> $S
timeout 150 ./test_geev_batch > $OUT/geev_batch.txt 2>&1; echo "test_geev_batch rc=$? $(el)s: $(tail -2 $OUT/geev_batch.txt | tr '\n' ' ')" >> $S
cat $S
