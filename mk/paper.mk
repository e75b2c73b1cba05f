# The hidden-feedback paper's remaining claims: hierarchy-exact/1, block-composition/1, minimum-deletion/1, minimum-depth/1.
.PHONY: paper-references

## paper-references: regenerate certificates/paper/ (the exact chain, Table 2's block baselines, the minimum-deletion
## and minimum-depth statements; about two minutes); part of `make certificates`, which verifies them.
paper-references: $(STAMP)
	$(PY) -m producer.references.paper certificates/paper
