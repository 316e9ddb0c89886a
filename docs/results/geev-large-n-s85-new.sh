set -e
mkdir -p /tmp/b && tar -xJf devrun/b85n/bundle.tar.xz -C /tmp/b
export LD_LIBRARY_PATH=/tmp/b/lib:$LD_LIBRARY_PATH OPENBLAS_NUM_THREADS=1
B=/tmp/b/bin/batcheig_bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
date -u
$B geev --memory device --reps 3 --n 40,64,100,128 --batch 10000 --cusolver-subset 20 --lapacke-subset 320 --check 10 --csv $OUT/l1.csv
$B geev --memory device --reps 3 --n 200,256 --batch 1000 --cusolver-subset 8 --lapacke-subset 64 --check 5 --csv $OUT/l2.csv
$B geev --memory device --reps 2 --n 512 --batch 200 --cusolver-subset 4 --lapacke-subset 32 --check 4 --csv $OUT/l3.csv
$B geev --memory device --reps 3 --vectors --n 64,128 --batch 5000 --cusolver-subset 10 --lapacke-subset 160 --check 5 --csv $OUT/l4.csv
$B geev --memory device --reps 2 --vectors --n 256 --batch 500 --cusolver-subset 4 --lapacke-subset 32 --check 4 --csv $OUT/l5.csv
date -u
