"""The tools: measuring, checking and packaging what the library computes.

Timing and the benchmark: `stats` (median, percentiles, geomean), `timing` (the L2 flush, contest-style
and graph timers, allocator poisoning), `ceilings` (measured ceilings and the floors they give),
`providers` (what the bench can time), `bench` (the run and its command), `bench_csv` (its rows),
`acceptance` (its targets), `progress`, `baselines/`. Then the contest's protocol run locally
(`harness`), the single-file exporter (`export`), the occupancy model and sweeps (`occupancy`, `sweeps`,
`probe`), compiled-kernel facts with no GPU (`isa`, with a stand-in aiter in `isa_aiter/`; `wgmma_rules`, a
rule of Hopper's warpgroup MMA checked in the CUDA path's PTX), the contest's score and aiter's MI355X
baseline (`ranking`), the workbook runner and its figures (`workbook`, `figures`),
`check`, and where results go and what they carry (`repo`, `provenance`). The notebooks' readings: notebook
01-02's studies (`rounding_study`, `quant_error_study`, `mfma`, `layout_views`), the paths' sections of
notebooks 03-05 (`path_sections`), residency and the model's error (`residency`, notebook 06), the kernels'
history from the recorded runs (`kernel_history`, notebook 07). And what those share: the command line's
argument types (`arguments`), files written whole or not at all (`files`), a compiled AMD kernel's resources
from its code object (`codeobj`), the dispatcher tables' rows written and described (`config_table`), the
host's time per call (`host_costs`, notebook 08) and the CUDA path's diagnostic builds (`mma_scratch`). Each
is a `python -m mxlib` command or serves one or a notebook; they may import every other layer, and nothing in
the library imports them.
"""
