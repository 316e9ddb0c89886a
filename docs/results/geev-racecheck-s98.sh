# Session 98: racecheck of the global variant's in-place kernel
# (geev_global_kernel, with its panel scratch in shared memory set up by
# global_work since ce28596) in the precisions and jobs that session 96
# did not run (it ran double n = 180 eigenvalues: geev_global_reduce_kernel),
# and of float's reduction to the band beyond the fit.
# Library: main 61cfc8c (GPU code = ce28596) built here for sm_90, packed
# with device-bundle into devrun/b1 (always extracted afresh).
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
rc z100 ${LIM:-110} --precision z --n 100 --batch 1
rc c160 ${LIM:-110} --precision c --n 160 --batch 1
rc s260 ${LIM:-110} --precision s --n 260 --batch 1
rc d130v ${LIM:-110} --precision d --n 130 --batch 1 --vectors
rc z60v ${LIM:-110} --precision z --n 60 --batch 1 --vectors
cat $S
