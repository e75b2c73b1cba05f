# BRACE: pictures and data banks.
BRACE_FIG := docs/figures

.PHONY: brace-plots brace-data

## brace-plots: Figure-1 style PNGs of the synthetic reference run (needs matplotlib)
brace-plots: $(STAMP)
	@$(PY) -c "import matplotlib" 2>/dev/null || $(PY) -m pip install --quiet 'matplotlib>=3.7'
	@mkdir -p $(BRACE_FIG)
	$(PY) -m producer.reference certificates brace
	$(PY) -m producer brace-plot --compare certificates/brace-synthetic-compare.json \
	  --trajectories $(BRACE_FIG)/brace-synthetic-trajectories.png \
	  --errors $(BRACE_FIG)/brace-synthetic-errors.png

## brace-data: regenerate data/brace/ banks (digits needs numpy + scikit-learn)
brace-data: $(STAMP)
	$(PY) -m producer.brace.data data/brace synthetic digits
