"""Evaluating an envelope instance: every enclosure of the ``envelope/1`` result at one precision.

:class:`Evaluation` computes the histograms, transcripts, laws, envelopes,
normalisers and errors at one precision; :func:`result_of` decides the claims
from them and writes the result object described in
schemas/envelope-1.schema.json.  The precision escalation and the certificate
are the kind's (:mod:`producer.kinds.envelope`).
"""

from producer.envelope import bounds
from producer.envelope.claims import PROVED, at_most, combine, max_ratio, ratio_status
from producer.envelope.envelope import discount_factors, envelopes, normaliser
from producer.envelope.enclosures import Enclosure, decimal_display
from producer.envelope.histograms import histograms
from producer.envelope.transcripts import PrefixTree, transcripts, true_answers
from producer.envelope.utility import expected_error, losses
from producer.rationals import format_rational

METHOD = ("histogram enumeration of the selection-only PMW transcript law (arb), "
          "envelope maxima over histograms at distance ||h-h'||_1/2, outward-rounded rational enclosures")


class Evaluation:
    """All enclosures of one instance at one precision."""

    __slots__ = ("instance", "bits", "hists", "omegas", "tree", "laws", "discounts", "envelopes",
                 "normalisers", "answers", "truths", "errors_linf", "errors_l2")

    def __init__(self, instance, bits, progress=None):
        self.instance, self.bits = instance, bits
        self.hists = histograms(instance.universe, instance.records)
        self.omegas = transcripts(instance)
        if progress:
            progress(f"{len(self.hists)} histograms x {len(self.omegas)} transcripts at {bits} bits")
        self.tree = PrefixTree(instance, bits)
        self.laws = [self.tree.law(h) for h in self.hists]
        self.discounts = discount_factors(instance.epsilon, instance.records, bits)
        self.envelopes = envelopes(self.hists, self.laws, self.discounts)
        self.normalisers = [normaliser(e) for e in self.envelopes]
        self.answers = [self.tree.decoded_answers(w) for w in self.omegas]
        self.truths = [true_answers(instance, h) for h in self.hists]
        self.errors_linf, self.errors_l2 = [], []
        for env, Z, truth in zip(self.envelopes, self.normalisers, self.truths):
            pairs = [losses(a, truth) for a in self.answers]
            self.errors_linf.append(expected_error(env, Z, [p[0] for p in pairs]))
            self.errors_l2.append(expected_error(env, Z, [p[1] for p in pairs]))


def _decimal(enc, digits=8):
    return [decimal_display(enc.lo, digits, -1), decimal_display(enc.hi, digits, +1)]


def _ratio_json(lower, upper):
    if lower is None:
        return None
    return {"lo": format_rational(lower), "hi": None if upper is None else format_rational(upper)}


def result_of(ev):
    """The ``result`` object for an evaluation."""
    inst, bits = ev.instance, ev.bits
    eeps = bounds.exp_epsilon(inst.epsilon, bits)
    zbound = bounds.normaliser_bound(bits)
    ebound = bounds.error_bound(inst, bits)
    measure = "linf" if inst.variant == "selection" else "l2"
    errors = ev.errors_linf if measure == "linf" else ev.errors_l2

    databases = []
    z_status, e_status = [], []
    for i, h in enumerate(ev.hists):
        zs = at_most(ev.normalisers[i], zbound)
        es = at_most(errors[i], ebound)
        z_status.append(zs)
        e_status.append(es)
        databases.append({
            "histogram": list(h),
            "true_answers": [format_rational(v) for v in ev.truths[i]],
            "law": [e.as_json() for e in ev.laws[i]],
            "envelope": [e.as_json() for e in ev.envelopes[i]],
            "normaliser": ev.normalisers[i].as_json(),
            "normaliser_decimal": _decimal(ev.normalisers[i]),
            "error_linf": ev.errors_linf[i].as_json(),
            "error_l2": ev.errors_l2[i].as_json(),
            "error_decimal": _decimal(errors[i]),
            "normaliser_status": zs,
            "error_status": es,
        })

    lo, hi, checks, witness = max_ratio(ev.hists, ev.envelopes, ev.normalisers)
    dp_status = ratio_status(lo, hi, eeps)
    blo, bhi, _bchecks, bwitness = max_ratio(ev.hists, ev.laws)
    base_status = ratio_status(blo, bhi, eeps)

    hypothesis = None
    if inst.variant == "selection":
        kappa = 2 * inst.rounds * inst.select ** 2 / inst.records ** 2
        cb = bounds.condition_bound(inst, bits)
        hypothesis = {"kappa": format_rational(kappa), "bound": cb.as_json(),
                      "status": at_most(Enclosure.exact(kappa, bits), cb)}

    max_z = Enclosure.maximum(ev.normalisers)
    max_e = Enclosure.maximum(errors)
    return {
        "method": METHOD,
        "precision": bits,
        "transcripts": [list(w) for w in ev.omegas],
        "answers": [[a.as_json() for a in ans] for ans in ev.answers],
        "discounts": [c.as_json() for c in ev.discounts],
        "databases": databases,
        "base_law": {"max_ratio": _ratio_json(blo, bhi), "bound": eeps.as_json(),
                     "pure_dp_status": base_status, "witness": bwitness},
        "hypothesis": hypothesis,
        "claims": {
            "pure_dp": {"status": dp_status, "bound": eeps.as_json(), "max_ratio": _ratio_json(lo, hi),
                        "checks": checks, "witness": witness},
            "normaliser_bounds": {"status": combine([PROVED] + z_status), "lower_status": PROVED,
                                  "lower_method": "structural", "upper_status": combine(z_status),
                                  "bound": zbound.as_json(), "max_normaliser": max_z.as_json(),
                                  "max_normaliser_decimal": _decimal(max_z)},
            "error_bound": {"status": combine(e_status), "measure": measure, "bound": ebound.as_json(),
                            "bound_decimal": _decimal(ebound), "max_error": max_e.as_json(),
                            "max_error_decimal": _decimal(max_e)},
        },
    }


def all_resolved(result):
    """Every claim of a result is proved or refuted (none unresolved)."""
    claims = result["claims"]
    return all(claims[c]["status"] != "unresolved" for c in ("pure_dp", "normaliser_bounds", "error_bound"))
