# Session 103: the A/B set of geev-shared-x-{a,b}-s103.sh, run in a bundle's
# bin/ with LD_LIBRARY_PATH naming the library under test: right vectors,
# every precision, the warp variant (n = 20-40) and the block variant
# (n = 56, 64); the library's device time per call (batcheig-device rows).
B="./batcheig_bench geev --memory device --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3 --vectors"
{ $B --n 20,25,30 --batch 200000
  $B --n 40 --batch 100000
  $B --precision s --n 20,24,30 --batch 200000
  $B --precision c --n 30 --batch 100000
  $B --precision z --n 20,30 --batch 50000
  $B --n 56,64 --batch 20000; } 2>&1 | grep "batcheig-device device"
