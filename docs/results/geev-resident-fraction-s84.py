#!/usr/bin/env python3
"""Session 84 probe (not in the library): the QR stages' resident grids
(launch_resident_teams, src/cuda/geev/geev_team.cuh) cut to a fraction of
the blocks that fit per SM, read from BATCHEIG_PROBE_RESIDENT (default 1),
so that another stream's reduction launch can hold the rest of each SM.
Usage: geev-resident-fraction-s84.py PATH/TO/geev_team.cuh (patched in place)."""
import sys

p = sys.argv[1]
s = open(p).read()
old = """    const std::int64_t need = (batch + teams - 1) / teams, fit = std::int64_t(per_sm) * multiprocessors();"""
new = """    static const double probe_fraction = std::getenv("BATCHEIG_PROBE_RESIDENT") ? std::atof(std::getenv("BATCHEIG_PROBE_RESIDENT")) : 1.0;
    per_sm = std::max(1, int(per_sm * probe_fraction + 0.5));
    const std::int64_t need = (batch + teams - 1) / teams, fit = std::int64_t(per_sm) * multiprocessors();"""
assert s.count(old) == 1
s = s.replace(old, new).replace("#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>\n", 1)
open(p, "w").write(s)
