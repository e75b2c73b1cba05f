# Every target installs what it needs into .venv on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Processes for the tests (pytest-xdist) and for verifying the references (auditor --workers);
# JOBS=1 runs everything in one process.
JOBS   ?= 2
PYTEST_JOBS  = $(if $(filter-out 0 1,$(JOBS)),-n $(JOBS))
VERIFY_JOBS  = $(if $(filter-out 0 1,$(JOBS)),--workers $(JOBS))

.PHONY: all tour certificates certificates-fast certificates-large verify test references bench bench-budgets clean-venv

all: certificates

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,plots,sweep]'
	touch $(STAMP)

# every reference certificate: the fast ones, the large-budget hierarchy ones, the slow lower witnesses,
# the resource laws, DP-SGD, trees of mechanisms (accounting), the paper's remaining claims (mk/paper.mk)
ALL_CERTIFICATES = certificates/*.json certificates/plain/*.json certificates/hierarchy/*.json certificates/slow/*.json \
                   certificates/resource/*.json certificates/dpsgd/*.json certificates/accounting/*.json \
                   certificates/paper/*.json
# the C = 32 and C = 64 brackets need more than one file's documented budget of work and memory: the auditor
# checks them with the explicit opt-in --budget 4 (about 4 minutes and 6 GB each; docs/certificates.md)
LARGE_CERTIFICATES = $(wildcard certificates/slow/epsilon-bracket-hierarchy-witness-*-c32-*.json \
                                certificates/slow/epsilon-bracket-hierarchy-witness-*-c64-*.json)
BUDGET_CERTIFICATES = $(filter-out $(LARGE_CERTIFICATES),$(wildcard $(ALL_CERTIFICATES)))
LARGE_BUDGET = 4

# A sub-target run on its own verifies what it regenerated ($(VERIFY_PART)); under `make certificates`
# the parts skip that (a target-specific value reaches the prerequisites) and the last line verifies
# everything once.
VERIFY_PART = $(PY) -m auditor verify --quiet

## tour: the main job in minutes - one reference certificate of every kind regenerated into build/tour/
## (byte-identical to the committed one, or exit 1), then verified by the auditor, one claim line each
TOUR_DIR := build/tour
tour: $(STAMP)
	$(PY) -m producer.references.tour $(TOUR_DIR)
	$(PY) -m auditor verify $$($(PY) -m producer.references.tour --list $(TOUR_DIR))

## certificates: regenerate every reference certificate deterministically, then verify them all (once)
certificates: VERIFY_PART = @true
certificates: certificates-fast certificates-large paper-references
	$(PY) -m auditor verify --quiet $(VERIFY_JOBS) $(BUDGET_CERTIFICATES)
	$(PY) -m auditor verify --quiet --budget $(LARGE_BUDGET) $(VERIFY_JOBS) $(LARGE_CERTIFICATES)

## certificates-fast: regenerate certificates/*.json, certificates/plain/, certificates/dpsgd/ and certificates/accounting/
## (a few minutes), then verify them (under `make certificates`: verified with all the others at the end)
certificates-fast: $(STAMP) dpsgd-references accounting-references
	$(PY) -m producer.reference certificates
	$(PY) -m producer.references.plain certificates/plain
	$(VERIFY_PART) certificates/*.json certificates/plain/*.json certificates/dpsgd/*.json \
	  certificates/accounting/*.json

## certificates-large: regenerate certificates/hierarchy/ and certificates/slow/ (budgets 8-64; several minutes)
certificates-large: $(STAMP)
	$(PY) -m producer.references.hierarchy certificates/hierarchy
	$(PY) -m producer.reference certificates/slow lower_slow bracket_slow

## verify: run the auditor over every reference certificate
verify: $(STAMP)
	$(PY) -m auditor verify $(VERIFY_JOBS) $(BUDGET_CERTIFICATES)
	$(PY) -m auditor verify --budget $(LARGE_BUDGET) $(VERIFY_JOBS) $(LARGE_CERTIFICATES)

## test: ruff (the rule set in pyproject.toml), then the default (fast) test suite
test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest $(PYTEST_JOBS)

## references: the reproductions of published values and the other long tests (CI runs these too)
references: $(STAMP)
	$(PY) -m pytest $(PYTEST_JOBS) -m "slow or reference"

## bench: timing and memory tables (never part of the tests)
bench: $(STAMP)
	$(PY) bench/run.py

## bench-budgets: the exact game at budgets 3, 4 and 5 (dg, calibrate), producer beside auditor, one run each
bench-budgets: $(STAMP)
	$(PY) bench/run.py budgets --runs 1

-include mk/*.mk

clean-venv:
	rm -rf $(VENV)
