# The side-by-side comparison against dp_accounting, OpenDP and prv_accountant.
.PHONY: compare compare-families compare-peers

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
