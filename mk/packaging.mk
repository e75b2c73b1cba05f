# Packaging, documentation and CI helpers.
.PHONY: wheel docs-check ci

## wheel: build the dp-certify wheel into build/wheels/ (the schemas ship inside it as auditor.schemas)
wheel: $(STAMP)
	$(PY) -m pip wheel --no-deps --quiet -w build/wheels .

## docs-check: every link in README.md and docs/ resolves inside the repository
docs-check: $(STAMP)
	$(PY) -m pytest -q tests/test_docs_links.py

## ci: what .github/workflows/ci.yml runs (make test, make certificates, regeneration check, make references)
ci:
	.ci/run
