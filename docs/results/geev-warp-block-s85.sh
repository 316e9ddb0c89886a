set -u
mkdir -p /tmp/b && tar -xJf devrun/b85n/bundle.tar.xz -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/lib OPENBLAS_NUM_THREADS=1
B=/tmp/b/bin/batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 2 --check 2 --warmup 1000"
for pr in d s c z; do
  for a in geev-cuda-warp geev-cuda-block; do
    echo "== $pr $a eig"; $B geev $C --precision $pr --algorithm $a --n 40,48,56,64 --batch 20000 | grep -E "^ +[0-9]+ .*batcheig-device"
    echo "== $pr $a vec"; $B geev $C --precision $pr --vectors --algorithm $a --n 40,48,56,64 --batch 5000 | grep -E "^ +[0-9]+ .*batcheig-device"
  done
done
