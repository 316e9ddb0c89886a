# Session 106: the rest of session 104's GPU pass that the fold of
# same_space into x_column can reach, after geev-xcolumn-fold-s105.sh
# passed on it: the float large-n accuracy cases (n = 200..512 under AUTO,
# where the global variant's vectors go through the block variant's
# launches) and the staged eigenvalue bitcheck. Bundle devrun/f as in
# geev-xcolumn-fold-s105.sh (main + geev-xcolumn-fold-s105.patch, 90-real).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/nf && mkdir -p /tmp/nf && tar -xJf devrun/f/bundle.tar.xz -C /tmp/nf
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> $S
md5sum /tmp/nf/lib/libbatcheig.so.0.1 >> $S
cd /tmp/nf/bin
export LD_LIBRARY_PATH=/tmp/nf/lib OPENBLAS_NUM_THREADS=1
./batcheig_geev_bitcheck --n 20,26,30,34,40 --batch 17000 --precision dsz | md5sum | sed 's/^/bit e staged (want 0384a4c5) /' >> $S
echo "bitcheck $(el)s" >> $S
N="geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO - float"
BATCHEIG_TEST_BACKENDS=cuda timeout 300 ./test_geev_accuracy "$N" > $OUT/large-float.txt 2>&1
echo "large float rc=$? $(el)s: $(tail -2 $OUT/large-float.txt | tr '\n' ' ')" >> $S
cat $S
