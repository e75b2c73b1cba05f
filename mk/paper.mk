# The hidden-feedback paper's remaining claims (issue 23): hierarchy-exact/1, block-composition/1, minimum-deletion/1.
.PHONY: paper-references

## paper-references: regenerate certificates/paper/ (the exact chain, Table 2's block baselines, the minimum-deletion
## statement; about a minute).  Not verified here and not in ALL_CERTIFICATES until the auditor checks these kinds.
paper-references: $(STAMP)
	$(PY) -m producer.references.paper certificates/paper
