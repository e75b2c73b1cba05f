## plain-references: γ = 0, discrete-Laplace, plain-composition/1 (product route) and noise/1 reference certificates in certificates/plain/
## (seconds; verified once the auditor checks γ = 0 and the discrete Laplace)
.PHONY: plain-references
plain-references: $(STAMP)
	$(PY) -m producer.references.plain certificates/plain
	$(PY) -m auditor verify certificates/plain/*.json
