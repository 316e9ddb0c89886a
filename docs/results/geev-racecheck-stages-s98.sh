# Session 98: racecheck of the eigenvalues' QR stages on the band (their
# teams taking matrices from a counter, session 79) in float and the complex
# types, which had run under racecheck in double only (n = 20 and 30).
# Batches past cuda_geev_band_stage_min_batch (16 384; the bitcheck runs the
# complex types on half the batch). Library: main 61cfc8c (GPU code =
# ce28596) built here for sm_90, packed with device-bundle into devrun/b1.
set -u
T0=$(date +%s); el() { echo $(( $(date +%s)-T0 )); }
S=$OUT/summary.txt
rm -rf /tmp/n98 && mkdir -p /tmp/n98 && tar -xJf devrun/b1/bundle.tar.xz -C /tmp/n98
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $S
cd /tmp/n98/bin
export LD_LIBRARY_PATH=/tmp/n98/lib OPENBLAS_NUM_THREADS=1
BC=./batcheig_geev_bitcheck
CS="compute-sanitizer --print-limit 20 --tool racecheck"
rc() { local tag=$1 lim=$2; shift 2; timeout $lim $CS $BC "$@" > $OUT/race-$tag.txt 2>&1; echo "racecheck $tag ($*) rc=$? $(el)s: $(tail -1 $OUT/race-$tag.txt)" >> $S; }
rc s30 150 --precision s --n 30 --batch 16500
rc c26 150 --precision c --n 26 --batch 33000
rc z20 150 --precision z --n 20 --batch 33000
cat $S
