# The side-by-side comparison against dp_accounting, OpenDP and prv_accountant.
.PHONY: compare compare-families compare-peers bench-accounting

compare-peers: $(STAMP)
	@$(PY) -c "import dp_accounting, opendp, prv_accountant" 2>/dev/null || $(PY) -m pip install --quiet -e '.[compare]' \
	  || echo "compare: pip could not install the peers (.[compare]); their columns will say so" >&2

## compare: docs/comparison.md and docs/figures/comparison.png (installs the optional peers, .[compare]; tens of
## minutes: the DP-SGD rows alone spend several minutes in prv_accountant)
compare: compare-peers
	$(PY) bench/compare.py

## compare-families: only the mechanism-family section of docs/comparison.md (accounting/1 against dp_accounting's
## PLD and RDP accountants and prv_accountant, CPU seconds; about a minute), the rest of the page kept
compare-families: compare-peers
	$(PY) bench/compare.py --only families

## bench-accounting: accounting/1 beside dp_accounting's PLD accountant (10^-4 and 10^-5), whole processes, one run
## each: the DP-SGD speed rows, the reach rows (q down to 10^-7, T up to 10^6) and a row per family (minutes)
bench-accounting: compare-peers
	$(PY) bench/run.py accounting --runs 1
