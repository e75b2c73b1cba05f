## resource-references: rate/1, frontier/1, window-request/1 and finite-budget/1 reference certificates in
## certificates/resource/ (seconds).  Not verified yet: the auditor does not check these kinds yet.
.PHONY: resource-references
resource-references: $(STAMP)
	$(PY) -m producer.references.resource certificates/resource

certificates: resource-references
