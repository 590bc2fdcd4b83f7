"""The tools: measuring, checking and packaging what the library computes.

Timing and the benchmark (`bench`, `baselines/`), the contest's protocol run locally (`harness`), the
single-file exporter (`export`), the occupancy model and sweeps (`occupancy`, `sweeps`, `probe`), compiled-kernel facts with no GPU
(`isa`, with a stand-in aiter in `isa_aiter/`), the
workbook runner and its figures (`workbook`, `figures`) and `check`. Each is a `python -m mxlib`
command or serves one; they may import every other layer, and nothing in the library imports them.
"""
