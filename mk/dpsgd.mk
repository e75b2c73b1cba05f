## dpsgd-references: DP-SGD (dpsgd/1) reference certificates in certificates/dpsgd/ (seconds); not yet
## verified: the auditor does not check this kind yet (then add certificates/dpsgd/*.json to ALL_CERTIFICATES)
.PHONY: dpsgd-references
dpsgd-references: $(STAMP)
	$(PY) -m producer.references.dpsgd certificates/dpsgd
