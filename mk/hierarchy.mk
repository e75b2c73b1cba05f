## hierarchy-references: the hierarchy/1 reference certificates (minutes; not part of `make certificates`)
.PHONY: hierarchy-references
hierarchy-references: $(STAMP)
	$(PY) -m producer.references.hierarchy certificates/hierarchy
