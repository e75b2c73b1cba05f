"""The schema of ``epsilon-bracket/1``, built from its own part and the schemas of the kinds it embeds.

An epsilon-bracket embeds complete ``plain-composition/1``, ``hierarchy/1`` and
``calibration-lower/1`` certificates.  As calibration/1 does for dg-interval/1,
the schema holds each embedded kind's schema in full (self-contained ``$defs``,
no free-form object): the definitions of each kind are copied with a prefix
(``pc_``, ``hi_``, ``cl_``) and the kind's own top level becomes one definition.
``tests/auditor/test_epsilon_bracket_checks.py`` checks that the committed file
is exactly what :func:`build` gives, so the copies never drift from the kinds'
own schemas.  Run as a script to rewrite the file:
``python -m tests.auditor.bracket_schema``.
"""

import json
from pathlib import Path

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"
PATH = SCHEMAS / "epsilon-bracket-1.schema.json"
EMBEDDED = (("plain-composition-1", "plain_composition", "pc_"),
            ("hierarchy-1", "hierarchy", "hi_"),
            ("calibration-lower-1", "calibration_lower", "cl_"))


def _renamed(node, prefix):
    """``node`` with every ``#/$defs/x`` reference renamed ``#/$defs/<prefix>x``."""
    if isinstance(node, dict):
        out = {k: _renamed(v, prefix) for k, v in node.items()}
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            out["$ref"] = "#/$defs/" + prefix + ref[len("#/$defs/"):]
        return out
    if isinstance(node, list):
        return [_renamed(v, prefix) for v in node]
    return node


def embedded_defs(name, top, prefix):
    """The ``$defs`` entries of one embedded kind: its definitions, prefixed, and its top level as ``top``."""
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    defs = {prefix + k: _renamed(v, prefix) for k, v in schema.get("$defs", {}).items()}
    body = {k: _renamed(v, prefix) for k, v in schema.items() if k not in ("$schema", "$id", "$defs")}
    defs[top] = body
    return defs


def _nullable(ref):
    return {"oneOf": [{"type": "null"}, {"$ref": ref}]}


OWN_DEFS = {
    "nonneg_rational": {"type": "string", "pattern": "^(0|[1-9][0-9]*)(/[1-9][0-9]*)?$"},
    "positive_rational": {"type": "string", "pattern": "^[1-9][0-9]*(/[1-9][0-9]*)?$"},
    "fraction": {"type": "string", "pattern": "^[1-9][0-9]*/[1-9][0-9]*$"},
    "decimal": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?$"},
    "producer": {"type": "object", "required": ["name", "version"], "additionalProperties": False,
                 "properties": {"name": {"type": "string"}, "version": {"type": "string"}}},
    "noise": {"oneOf": [
        {"type": "object", "required": ["family", "sigma2"], "additionalProperties": False,
         "description": "the discrete Gaussian N_Z(0, σ²)",
         "properties": {"family": {"const": "discrete-gaussian"}, "sigma2": {"$ref": "#/$defs/positive_rational"}}},
        {"type": "object", "required": ["family", "t"], "additionalProperties": False,
         "description": "the discrete Laplace L_t(n) ∝ exp(−|n|/t)",
         "properties": {"family": {"const": "discrete-laplace"}, "t": {"$ref": "#/$defs/positive_rational"}}},
    ]},
}

INPUT = {
    "type": "object",
    "required": ["gamma", "noise", "budget", "delta", "width"],
    "additionalProperties": False,
    "description": "the question: ε*_C(δ) of the mechanism with feedback γ and the given noise",
    "properties": {
        "gamma": {"type": "string", "pattern": "^(0|[1-9][0-9]*/[1-9][0-9]*)$",
                  "description": "γ: \"0\" (plain composition) or a reduced a/B with 0 < a < B"},
        "noise": {"$ref": "#/$defs/noise"},
        "budget": {"type": "integer", "minimum": 1, "description": "C: the participation budget"},
        "delta": {"$ref": "#/$defs/fraction", "description": "δ, 0 < δ < 1"},
        "width": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/positive_rational"}],
                  "description": "requested ε_hi − ε_lo <= width (product-pair: required; hierarchy-witness: null)"},
    },
}

RESULT = {
    "type": "object",
    "required": ["route", "status", "epsilon_lo", "epsilon_lo_display", "epsilon_hi", "epsilon_hi_display",
                 "lower_witness", "lower_reason", "upper_witness"],
    "additionalProperties": False,
    "description": "claims: ε_lo <= ε*_C(δ) <= ε_hi, each end proved by an embedded certificate",
    "properties": {
        "route": {"enum": ["product-pair", "hierarchy-witness"],
                  "description": "product-pair iff γ = 0, hierarchy-witness iff γ > 0"},
        "status": {"enum": ["zero", "enclosed"], "description": "zero iff ε_hi = 0 (then ε* = 0)"},
        "epsilon_lo": _nullable("#/$defs/nonneg_rational"),
        "epsilon_lo_display": _nullable("#/$defs/decimal") | {"description": "ε_lo rounded down"},
        "epsilon_hi": {"$ref": "#/$defs/nonneg_rational"},
        "epsilon_hi_display": {"$ref": "#/$defs/decimal", "description": "ε_hi rounded up"},
        "lower_witness": {"oneOf": [{"type": "null"}, {"$ref": "#/$defs/plain_composition"},
                                    {"$ref": "#/$defs/calibration_lower"}],
                          "description": "product-pair: plain-composition/1 at [ε_lo] with lower > δ; "
                                         "hierarchy-witness: calibration-lower/1 target-zero with "
                                         "epsilon_lower = ε_lo"},
        "lower_reason": {"oneOf": [{"type": "null"}, {"type": "string", "minLength": 1}],
                         "description": "why there is no lower witness (null when there is one)"},
        "upper_witness": {"oneOf": [{"$ref": "#/$defs/plain_composition"}, {"$ref": "#/$defs/hierarchy"}],
                          "description": "product-pair: plain-composition/1 at [ε_hi] with upper <= δ; "
                                         "hierarchy-witness: hierarchy/1 δ query with epsilon = ε_hi"},
    },
}


def build():
    defs = dict(OWN_DEFS)
    for name, top, prefix in EMBEDDED:
        defs.update(embedded_defs(name, top, prefix))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "epsilon-bracket-1.schema.json",
        "title": "epsilon-bracket/1: a certified bracket [ε_lo, ε_hi] of ε*_C(δ) from embedded upper and lower "
                 "certificates (product pair for γ = 0, proof hierarchy and target-zero witness for γ > 0)",
        "type": "object",
        "required": ["schema", "producer", "input", "result", "digest"],
        "additionalProperties": False,
        "properties": {
            "schema": {"const": "epsilon-bracket/1"},
            "producer": {"$ref": "#/$defs/producer"},
            "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "input": INPUT,
            "result": RESULT,
        },
        "$defs": defs,
    }


def text():
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    PATH.write_text(text(), encoding="utf-8")
