# Every target installs what it needs into .venv on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: all certificates verify test references bench clean-venv

all: certificates

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,plots,sweep]'
	touch $(STAMP)

## certificates: regenerate certificates/ deterministically, then verify them
certificates: $(STAMP)
	$(PY) -m producer.reference certificates
	$(PY) -m auditor verify certificates/*.json

## verify: run the auditor over every reference certificate
verify: $(STAMP)
	$(PY) -m auditor verify certificates/*.json

## test: the default (fast) test suite
test: $(STAMP)
	$(PY) -m pytest

## references: the slow reproductions of published values (CI runs these too)
references: $(STAMP)
	$(PY) -m pytest -m slow

## bench: timing and memory tables (never part of the tests)
bench: $(STAMP)
	$(PY) bench/run.py

-include mk/*.mk

clean-venv:
	rm -rf $(VENV)
