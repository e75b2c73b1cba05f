## dpsgd-references: DP-SGD (dpsgd/1) reference certificates in certificates/dpsgd/ (seconds); certificates-fast
## runs it first and verifies them (they are in ALL_CERTIFICATES)
.PHONY: dpsgd-references
dpsgd-references: $(STAMP)
	$(PY) -m producer.references.dpsgd certificates/dpsgd
