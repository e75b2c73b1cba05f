# Lower certificates (issue 11): the slow target-{0} line trees.
.PHONY: references-lower

## references-lower: regenerate certificates/slow/ (target-{0} lines at C = 8, 16; about 3 minutes)
references-lower: $(STAMP)
	$(PY) -m producer.reference certificates/slow lower_slow
