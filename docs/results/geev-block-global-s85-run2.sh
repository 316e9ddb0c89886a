set -e
mkdir -p /tmp/b && tar -xJf devrun/b85/bundle.tar.xz -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/lib:$LD_LIBRARY_PATH OPENBLAS_NUM_THREADS=1
B=/tmp/b/bin/batcheig_bench
C="--memory device --reps 3 --cusolver-subset 0 --lapacke-subset 2 --check 2 --warmup 1000"
run() { echo "== $*"; $B geev $C "$@" | grep batcheig-device || true; }
for a in geev-cuda-block geev-cuda-global; do
  run --algorithm $a --precision d --n 168 --batch 5000
  run --algorithm $a --precision s --n 160,200,238 --batch 2000
  run --algorithm $a --precision c --n 144,168 --batch 2000
  run --algorithm $a --precision z --n 84,88,92,96,104,112,118 --batch 5000
  run --algorithm $a --vectors --precision s --n 100,120,136 --batch 2000
  run --algorithm $a --vectors --precision c --n 80,96 --batch 2000
  run --algorithm $a --vectors --precision z --n 56,64,68 --batch 2000
done
