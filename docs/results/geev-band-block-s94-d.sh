# Session 94, call 4: racecheck of the global variant's reduction to the band
# (double n = 180) and of float's stage on blocks of 256 threads (n = 210).
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
mkdir -p /tmp/n && { [ -x /tmp/n/bin/batcheig_geev_bitcheck ] || tar -xJf devrun/b5/bundle.tar.xz -C /tmp/n; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n/bin
export LD_LIBRARY_PATH=/tmp/n/lib OPENBLAS_NUM_THREADS=1
BC=./batcheig_geev_bitcheck
timeout 280 compute-sanitizer --tool racecheck $BC --precision d --n 180 --batch 1 > $OUT/race-d180.txt 2>&1; echo "racecheck d180 rc=$? $(el)s: $(tail -2 $OUT/race-d180.txt | tr '\n' ' ')" >> $S
timeout $(( 520 - $(el) )) compute-sanitizer --tool racecheck $BC --precision s --n 210 --batch 1 > $OUT/race-s210.txt 2>&1; echo "racecheck s210 rc=$? $(el)s: $(tail -2 $OUT/race-s210.txt | tr '\n' ' ')" >> $S
cat $S
