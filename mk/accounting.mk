## accounting-references: accounting/1 reference certificates (trees of dp_accounting events) in
## certificates/accounting/ (seconds); certificates-fast runs it first and verifies them (they are in ALL_CERTIFICATES)
.PHONY: accounting-references
accounting-references: $(STAMP)
	mkdir -p certificates/accounting
	$(PY) -m producer.references.accounting certificates/accounting
