# Session 103, call D: 11034a6's library (devrun/a, as in call A) unpacked
# to /tmp/nold, for call E (geev-shared-x-e-s103.sh) on the same machine.
rm -rf /tmp/nold && mkdir -p /tmp/nold && tar -xJf devrun/a/old.tar.xz -C /tmp/nold && md5sum /tmp/nold/lib/libbatcheig.so.0.1 && nvidia-smi --query-gpu=name --format=csv,noheader
