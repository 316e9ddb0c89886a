# Session 94, call 5: the refactored launch of the global variant's reduction to the band (280ee47).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/e && tar -xJf devrun/b6/bundle.tar.xz -C /tmp/e
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/e/bin
export LD_LIBRARY_PATH=/tmp/e/lib OPENBLAS_NUM_THREADS=1
BC=./batcheig_geev_bitcheck
bit() { local tag=$1; shift; "$@" > /tmp/bit.txt 2>&1; echo "$tag rc=$? $(md5sum < /tmp/bit.txt) $(el)s" >> $S; }
bit "5:64 (ref b3f47dc3)" $BC --n 5:64 --batch 300
bit "large (ref c0108c32)" $BC --n 100,150,180,230,300 --batch 40
bit "sdc (ref 81d608f8)" $BC --n 128,144,160,200,238,260 --batch 20 --precision sdc
timeout 240 ./test_geev_cuda > $OUT/geev_cuda.txt 2>&1; echo "test_geev_cuda rc=$? $(el)s: $(tail -2 $OUT/geev_cuda.txt | tr '\n' ' ')" >> $S
cat $S
