# The side-by-side comparison against dp_accounting and OpenDP.
.PHONY: compare

## compare: docs/comparison.md and docs/figures/comparison.png (installs the optional peers, .[compare])
compare: $(STAMP)
	@$(PY) -c "import dp_accounting, opendp, prv_accountant" 2>/dev/null || $(PY) -m pip install --quiet -e '.[compare]' \
	  || echo "compare: pip could not install the peers (.[compare]); their columns will say so" >&2
	$(PY) bench/compare.py
