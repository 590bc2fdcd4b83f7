# Two targets a fresh machine needs: `make workbook` (the main job) and `make test`; CI also runs
# `make workbook-check` (the workbook once more, failing if the committed notebooks' outputs are stale).
# Both build .venv first. TORCH pins the wheel, TORCH_INDEX picks the index it comes from (a CUDA or ROCm
# build), PIP_ARGS goes to every pip install (a proxy, a local wheel folder):
#   make test                                                   # torch 2.13.0 from PyPI (Linux: the CUDA build)
#   make test TORCH_INDEX=https://download.pytorch.org/whl/cpu  # CPU only
#   make test TORCH=torch TORCH_INDEX=https://download.pytorch.org/whl/cu128
#   make test TORCH=torch TORCH_INDEX=https://download.pytorch.org/whl/rocm6.4
PYTHON ?= python3
VENV ?= .venv
TORCH ?= torch==2.13.0
TORCH_INDEX ?=
PIP_ARGS ?=
PY := $(VENV)/bin/python

.PHONY: setup workbook workbook-check test

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q $(PIP_ARGS) "$(TORCH)" $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(PY) -m pip install -q $(PIP_ARGS) -e ".[test,notebooks]"
	touch $@

setup: $(VENV)/.installed

workbook: setup
	$(PY) -m mxlib workbook

workbook-check: setup
	$(PY) -m mxlib workbook --check

test: setup
	$(PY) -m pytest -q
