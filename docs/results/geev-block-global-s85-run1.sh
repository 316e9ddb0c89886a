set -e
mkdir -p /tmp/b && tar -xJf devrun/b85/bundle.tar.xz -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/lib:$LD_LIBRARY_PATH OPENBLAS_NUM_THREADS=1
B=/tmp/b/bin/batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 2 --check 2 --warmup 1000"
for a in geev-cuda-block geev-cuda-global; do
  echo "== $a eigenvalues d"
  $B geev $C --algorithm $a --n 64,80,96,112,128,144,160 --batch 10000 | grep batcheig-device || true
done
for a in geev-cuda-block geev-cuda-global; do
  echo "== $a vectors d"
  $B geev $C --vectors --algorithm $a --n 64,80,88,96 --batch 5000 | grep batcheig-device || true
done
for pr in s z c; do
for a in geev-cuda-block geev-cuda-global; do
  echo "== $a eigenvalues $pr"
  $B geev $C --precision $pr --algorithm $a --n 64,80,100,128 --batch 5000 | grep batcheig-device || true
done; done
