## resource-references: rate/1, frontier/1, window-request/1 and finite-budget/1 reference certificates in
## certificates/resource/ (seconds), then verified by the auditor (under `make certificates`: once, at the end,
## with every other reference).
.PHONY: resource-references
resource-references: $(STAMP)
	$(PY) -m producer.references.resource certificates/resource
	$(VERIFY_PART) certificates/resource/*.json

certificates: resource-references
