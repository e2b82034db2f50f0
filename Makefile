# The README's commands. Each one makes (or refreshes) .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tarotsim study

test: lint
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check tarotsim tests benchmarks examples
	$(BIN)/ruff format --check tarotsim tests benchmarks examples
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) build *.egg-info
