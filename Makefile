# Two targets a fresh machine needs: `make workbook` (the main job) and `make test`.
# Both build .venv first. TORCH pins the wheel; override it for a CUDA or ROCm build.
PYTHON ?= python3
VENV ?= .venv
TORCH ?= torch==2.13.0
PY := $(VENV)/bin/python

.PHONY: setup workbook test

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q "$(TORCH)"
	$(PY) -m pip install -q -e ".[test,notebooks]"
	touch $@

setup: $(VENV)/.installed

workbook: setup
	$(PY) -m mxlib workbook

test: setup
	$(PY) -m pytest -q
