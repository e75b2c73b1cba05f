"""Checks for ``envelope/1`` certificates (*Pure-DP Statistical Query Release*).

Rules (docs/envelope.md states them for users):

1. Structure: transcripts, histograms, exact true answers, list lengths and
   the number of privacy checks are what the input implies.
2. Every stored enclosure [lo, hi] claims "the true value lies in [lo, hi]".
   The auditor proves that claim when its own certified enclosure of the
   true value lies inside [lo, hi], and disproves it (FAIL) when its own
   enclosure is disjoint from [lo, hi]; otherwise (the auditor's enclosure
   sticks out only partly) it doubles its working precision, starting at the
   stated precision, up to max(:data:`REFINE_FACTOR` x stated, 512) bits but
   not beyond max(2 x stated, :data:`MAX_REFINE_BITS`) bits, and only while the
   estimated work stays below :data:`MAX_WORK`.  A claim still undecided
   there - e.g. a stored point or an interval narrower than anything the
   auditor can reach around the true value - is not established by the
   certificate's recipe: a FAIL (exit 1), never OK.  The comparison constants (e^ε, 1 + 2e, the theorem bound, the §7
   bound) follow the same rule, starting at twice the stated precision plus
   64 bits.
3. Every status must be what the decision rules (auditor.envelope.rules) give
   on the certificate's own numbers; stored maxima must enclose the maxima of
   the stored values; each witness (pair h -> h', transcript) must be a
   neighbouring pair whose ratio can attain the stored maximum (its upper
   ratio end reaches the stored maximum's lower end) and, for a ``refuted``
   status, must itself exceed the bound.  Decimal displays are the stored
   ends rounded outward at their own number of places.
4. A ``proved`` or ``refuted`` status must also follow from the auditor's own
   enclosures (at the stated precision, else at twice it).  An ``unresolved``
   status is accepted only when the auditor's enclosures at the stated
   precision cannot decide the claim either.

``result.method`` is the fixed description :data:`METHOD`; any other text is
malformed.  Domain (malformed, exit 2): integers where the schema says
integer, queries of length T with values in [0, 1], γ > 0, ε > 0.

Limits, from the input alone before anything is enumerated (UNCHECKED,
exit 3): with H = C(n + T − 1, T − 1) histograms (computed by size, never
enumerated) and N = (2k)^J transcripts, H·N <= :data:`MAX_STORED`,
H²·N <= :data:`MAX_ENVELOPE`, T·(H + N) <= :data:`MAX_CELLS`, every
exponent (γ·J, η, ε·n/2, ε) at most :data:`MAX_EXPONENT`, and the work
(H²·N + 1000)·(bits/128)² at twice the stated precision at most
:data:`MAX_WORK` (units calibrated at about 3·10^5 per second on the 2-core
development machine; the 1000 stands for the constants, whose cost does not
grow with the instance).
"""

from auditor.certificate import Malformed
from auditor import common, decide
from auditor.claims import number as _q, rational_text
from auditor.envelope.interval import Interval
from auditor.envelope.model import Model, neighbour_pairs
from auditor.envelope.pmw import Recomputation, constants_only
from auditor.envelope.rules import PROVED, REFUTED, UNRESOLVED, at_most, combine, ratio_range, ratio_status
from auditor.outcomes import Unchecked
from auditor.rationals import floor, read_rational

MAX_STORED = 20_000
MAX_ENVELOPE = 1_000_000
MAX_CELLS = 2_000_000
MAX_EXPONENT = 10_000
# Work units (H²·N + 1000)·(bits/128)²: recomputation cost grows about quadratically
# with the precision; 10^7 units is roughly half a minute.
MAX_WORK = 10_000_000
# Refinement of undecided enclosures: up to max(REFINE_FACTOR x stated, 512) bits,
# and not beyond max(2 x stated, MAX_REFINE_BITS).
REFINE_FACTOR = 8
MAX_REFINE_BITS = 2048
CONSTANT_UNITS = 1000

METHOD = ("histogram enumeration of the selection-only PMW transcript law (arb), envelope maxima over "
          "histograms at distance ||h-h'||_1/2, outward-rounded rational enclosures")


class _Stop(Exception):
    """A structural failure after which further checks would be meaningless."""


def _integers(values, pointer):
    """A list of JSON integers (2.0 or true there is malformed)."""
    return [common.integer(v, f"{pointer}/{i}") for i, v in enumerate(values)]


def _interval(doc, pointer, bits, report):
    lo = read_rational(doc["lo"], pointer + "/lo")
    hi = read_rational(doc["hi"], pointer + "/hi")
    if lo > hi:
        report.fail(pointer, f"[{doc['lo']}, {doc['hi']}]", "lo <= hi", "empty enclosure (lo > hi)")
        raise _Stop
    return Interval(lo, hi, bits)


class CertificateView:
    """The certificate's numbers as Intervals, with the attribute names of Recomputation."""

    def __init__(self, cert, bits, report):
        res = cert["result"]
        iv = lambda d, p: _interval(d, p, bits, report)  # noqa: E731
        self.laws, self.envelopes, self.normalisers = [], [], []
        self.errors_linf, self.errors_l2 = [], []
        for i, db in enumerate(res["databases"]):
            base = f"/result/databases/{i}"
            self.laws.append([iv(e, f"{base}/law/{w}") for w, e in enumerate(db["law"])])
            self.envelopes.append([iv(e, f"{base}/envelope/{w}") for w, e in enumerate(db["envelope"])])
            self.normalisers.append(iv(db["normaliser"], f"{base}/normaliser"))
            self.errors_linf.append(iv(db["error_linf"], f"{base}/error_linf"))
            self.errors_l2.append(iv(db["error_l2"], f"{base}/error_l2"))
        self.decoded = [[iv(a, f"/result/answers/{w}/{j}") for j, a in enumerate(row)]
                        for w, row in enumerate(res["answers"])]
        self.discounts = [iv(c, f"/result/discounts/{j}") for j, c in enumerate(res["discounts"])]
        claims = res["claims"]
        self.exp_eps = iv(claims["pure_dp"]["bound"], "/result/claims/pure_dp/bound")
        self.base_exp_eps = iv(res["base_law"]["bound"], "/result/base_law/bound")
        self.normaliser_bound = iv(claims["normaliser_bounds"]["bound"], "/result/claims/normaliser_bounds/bound")
        self.error_bound = iv(claims["error_bound"]["bound"], "/result/claims/error_bound/bound")
        hyp = res["hypothesis"]
        self.condition_bound = iv(hyp["bound"], "/result/hypothesis/bound") if hyp else None
        self.kappa = read_rational(hyp["kappa"], "/result/hypothesis/kappa") if hyp else None


class Audit:
    __slots__ = ("cert", "report", "model", "bits", "hists", "omegas", "pairs", "view", "_cache", "measure",
                 "H", "N", "undecided")

    def __init__(self, cert, report):
        self.cert, self.report = cert, report
        self.model = Model(cert["input"])
        self.bits = cert["result"]["precision"]
        self._cache = {}
        self.measure = "linf" if self.model.variant == "selection" else "l2"

    def ours(self, bits):
        if bits not in self._cache:
            self._cache[bits] = Recomputation(self.model, bits)
        return self._cache[bits]

    # ---- 0. limits, before anything is enumerated -------------------------
    def estimate(self):
        """Refuse (Unchecked) an instance beyond the limits, from the input alone."""
        m, inp, res = self.model, self.cert["input"], self.cert["result"]
        for pointer, reason in m.problems():
            raise Malformed(f"{pointer}: invalid instance: {reason}")
        if res["method"] != METHOD:
            raise Malformed(f"/result/method: unknown method description {common._short(res['method'])}")
        requested = inp["precision"]
        if requested != "auto":
            common.integer(requested, "/input/precision", 8)
        common.integer(self.bits, "/result/precision", 8)
        if not self.report.check(self.bits == requested if requested != "auto" else self.bits in (128, 256, 512),
                                 "/result/precision", self.bits, requested,
                                 "precision is not the requested one (auto: 128, 256 or 512)"):
            return False
        H = m.histogram_count(MAX_STORED)
        N = m.transcript_count(MAX_STORED)
        sizes = f"{'more than ' if H > MAX_STORED else ''}{min(H, MAX_STORED)} histograms x " \
                f"{'more than ' if N > MAX_STORED else ''}{min(N, MAX_STORED)} transcripts"
        if H * N > MAX_STORED:
            raise Unchecked("/input", sizes, MAX_STORED, "stored enclosures H·N")
        if H * H * N > MAX_ENVELOPE:
            raise Unchecked("/input", sizes, MAX_ENVELOPE, "envelope terms H²·N")
        if m.T * (H + N) > MAX_CELLS:
            raise Unchecked("/input/universe", m.T * (H + N), MAX_CELLS, "table cells T·(H + N)")
        for pointer, x in (("/input/hedge", m.gamma * m.J), ("/input/select", m.eta),
                           ("/input/epsilon", m.eps * max(m.n, 2) / 2)):
            if x > MAX_EXPONENT:
                raise Unchecked(pointer, common.magnitude(floor(x)), MAX_EXPONENT,
                                "exponent of an exp the recomputation needs")
        self.H, self.N = H, N
        if self.work(2 * self.bits) > MAX_WORK:
            raise Unchecked("/result/precision", self.work(2 * self.bits), MAX_WORK,
                            "work (H²·N + 1000)·(bits/128)² at twice the stated precision")
        return True

    def work(self, bits):
        return (self.H * self.H * self.N + CONSTANT_UNITS) * max(1, bits // 128) ** 2

    # ---- 1. structure -------------------------------------------------------
    def structure(self):
        r, m, res = self.report, self.model, self.cert["result"]
        N = self.N
        self.hists, self.omegas = m.histograms(), m.transcripts()
        self.pairs = neighbour_pairs(self.hists)
        ok = r.equal("/result/transcripts",
                     [_integers(w, f"/result/transcripts/{i}") for i, w in enumerate(res["transcripts"])],
                     [list(w) for w in self.omegas], "transcript list")
        ok &= r.equal("/result/databases",
                      [_integers(db["histogram"], f"/result/databases/{i}/histogram")
                       for i, db in enumerate(res["databases"])],
                      [list(h) for h in self.hists], "histogram list")
        ok &= r.equal("/result/discounts", len(res["discounts"]), m.n + 1, "number of discounts")
        ok &= r.equal("/result/answers", [len(a) for a in res["answers"]], [m.k] * N, "answer table shape")
        for i, db in enumerate(res["databases"] if ok else []):
            ok &= r.equal(f"/result/databases/{i}/law", len(db["law"]), N, "law length")
            ok &= r.equal(f"/result/databases/{i}/envelope", len(db["envelope"]), N, "envelope length")
            truth = [read_rational(v, f"/result/databases/{i}/true_answers/{j}")
                     for j, v in enumerate(db["true_answers"])]
            r.equal(f"/result/databases/{i}/true_answers", truth, m.answers(self.hists[i]), "true answers")
        checks = common.integer(res["claims"]["pure_dp"]["checks"], "/result/claims/pure_dp/checks", 0)
        r.equal("/result/claims/pure_dp/checks", checks, len(self.pairs) * N, "number of privacy checks")
        r.equal("/result/claims/error_bound/measure", res["claims"]["error_bound"]["measure"], self.measure,
                "error measure")
        r.check((res["hypothesis"] is None) == (m.variant == "sign"), "/result/hypothesis",
                res["hypothesis"], m.variant, "hypothesis present exactly for the selection variant")
        if not ok:
            raise _Stop
        self.view = CertificateView(self.cert, self.bits, r)
        self._signs()

    def _signs(self):
        """Probabilities, discounts and normalisers are positive, errors non-negative."""
        r, c = self.report, self.view
        ok = True
        for i in range(len(self.hists)):
            base = f"/result/databases/{i}"
            for name, items in (("law", c.laws[i]), ("envelope", c.envelopes[i])):
                for w, e in enumerate(items):
                    ok &= r.check(e.lo >= 0 and e.hi > 0, f"{base}/{name}/{w}", common.span(e.lo, e.hi), "(0, 1]",
                                  "a transcript probability enclosure must lie in [0, oo) and reach above 0")
            ok &= r.check(c.normalisers[i].lo > 0, f"{base}/normaliser/lo", c.normalisers[i].lo, 0,
                          "the normaliser's lower end must be positive")
            for name, e in (("error_linf", c.errors_linf[i]), ("error_l2", c.errors_l2[i])):
                ok &= r.check(e.lo >= 0, f"{base}/{name}/lo", e.lo, 0, "an expected error is non-negative")
        for j, e in enumerate(c.discounts):
            ok &= r.check(e.lo > 0, f"/result/discounts/{j}/lo", e.lo, 0, "discounts are positive")
        for name, pointer in (("exp_eps", "/result/claims/pure_dp/bound"), ("base_exp_eps", "/result/base_law/bound"),
                              ("normaliser_bound", "/result/claims/normaliser_bounds/bound"),
                              ("error_bound", "/result/claims/error_bound/bound")):
            e = getattr(c, name)
            ok &= r.check(e.lo > 0, pointer + "/lo", e.lo, 0, "comparison constants are positive")
        if not ok:
            raise _Stop

    # ---- 2. enclosures ------------------------------------------------------
    def _stored_quantities(self):
        """(pointer, stored Interval, the same quantity in a Recomputation) for every enclosure."""
        c = self.view
        items = []
        for i in range(len(self.hists)):
            base = f"/result/databases/{i}"
            for w in range(len(self.omegas)):
                items.append((f"{base}/law/{w}", c.laws[i][w], lambda a, i=i, w=w: a.laws[i][w]))
                items.append((f"{base}/envelope/{w}", c.envelopes[i][w], lambda a, i=i, w=w: a.envelopes[i][w]))
            items.append((f"{base}/normaliser", c.normalisers[i], lambda a, i=i: a.normalisers[i]))
            items.append((f"{base}/error_linf", c.errors_linf[i], lambda a, i=i: a.errors_linf[i]))
            items.append((f"{base}/error_l2", c.errors_l2[i], lambda a, i=i: a.errors_l2[i]))
        for w, row in enumerate(c.decoded):
            for j, enc in enumerate(row):
                items.append((f"/result/answers/{w}/{j}", enc, lambda a, w=w, j=j: a.decoded[w][j]))
        for j, enc in enumerate(c.discounts):
            items.append((f"/result/discounts/{j}", enc, lambda a, j=j: a.discounts[j]))
        return items

    def _stored_constants(self):
        c = self.view
        items = [("/result/claims/pure_dp/bound", c.exp_eps, lambda k: k.exp_eps),
                 ("/result/base_law/bound", c.base_exp_eps, lambda k: k.exp_eps),
                 ("/result/claims/normaliser_bounds/bound", c.normaliser_bound, lambda k: k.normaliser_bound),
                 ("/result/claims/error_bound/bound", c.error_bound, lambda k: k.error_bound)]
        if c.condition_bound is not None:
            items.append(("/result/hypothesis/bound", c.condition_bound, lambda k: k.condition_bound))
        return items

    def _contain(self, items, start_bits, recompute, affordable):
        """Decide every "true value in [lo, hi]" claim by refining the auditor's precision.

        Returns the claims still undecided at the cap (neither proved nor disproved).
        """
        r = self.report
        bits = start_bits
        cap = min(max(REFINE_FACTOR * start_bits, 512), max(2 * start_bits, MAX_REFINE_BITS))
        while items:
            ours = recompute(bits)
            undecided = []
            for pointer, theirs, of in items:
                mine = of(ours)
                if theirs.lo <= mine.lo and mine.hi <= theirs.hi:
                    r.check(True, pointer, "", "", "")
                elif mine.hi < theirs.lo or theirs.hi < mine.lo:
                    r.fail(pointer, common.span(theirs.lo, theirs.hi), common.span(mine.lo, mine.hi),
                           f"the stored enclosure excludes the true value (auditor's enclosure at {bits} bits)")
                else:
                    undecided.append((pointer, theirs, of))
            items = undecided
            if 2 * bits > cap or not affordable(2 * bits):
                break
            bits *= 2
        return items, bits

    def enclosures(self):
        r, c = self.report, self.view
        undecided, bits = self._contain(self._stored_quantities(), self.bits, self.ours,
                                        lambda b: self.work(b) <= MAX_WORK)
        more, kbits = self._contain(self._stored_constants(), 2 * self.bits + 64,
                                    lambda b: constants_only(self.model, b),
                                    lambda b: CONSTANT_UNITS * max(1, b // 128) ** 2 <= MAX_WORK)
        for i in range(len(self.hists)):
            base = f"/result/databases/{i}"
            r.check(c.normalisers[i].hi >= 1, f"{base}/normaliser/hi", c.normalisers[i].hi, 1,
                    "Z_h >= 1 holds structurally; the enclosure lies below 1")
        r.check(c.discounts[0].lo == c.discounts[0].hi == 1, "/result/discounts/0", c.discounts[0].lo, 1,
                "c_0 = 1 exactly")
        if c.condition_bound is not None:
            k = constants_only(self.model, 64)
            r.equal("/result/hypothesis/kappa", c.kappa, k.kappa, "kappa = 2 J eta^2 / n^2")
        self.undecided = [(p, bits) for p, _, _ in undecided] + [(p, kbits) for p, _, _ in more]

    # ---- 3 and 4. claims ----------------------------------------------------
    def _errors(self, src):
        return src.errors_linf if self.measure == "linf" else src.errors_l2

    def judge(self, pointer, stated, from_certificate, from_auditor):
        """Check a stated status against the certificate's numbers and the auditor's own."""
        r = self.report
        if not r.check(stated == from_certificate, pointer, stated, from_certificate,
                       "status is not what the certificate's own enclosures give"):
            return
        mine = from_auditor(self.ours(self.bits))
        if stated == UNRESOLVED:
            r.check(mine == UNRESOLVED, pointer, stated, mine,
                    "marked unresolved but the auditor decides it at the stated precision")
            return
        if mine == UNRESOLVED:
            mine = from_auditor(self.ours(2 * self.bits))
        r.check(mine == stated, pointer, stated, mine, "the auditor's own enclosures do not confirm the status")

    def _ratio_claim(self, pointer, block, values_of, scales_of, bound_of, status_key):
        r, c = self.report, self.view
        lower, upper = ratio_range(self.pairs, values_of(c), scales_of(c))
        stored = block["max_ratio"]
        if lower is None:
            r.check(stored is None, f"{pointer}/max_ratio", stored, None, "no neighbouring pair, expected null")
            s_lo = s_hi = None
        else:
            if not r.check(stored is not None, f"{pointer}/max_ratio", None, lower, "missing maximum ratio"):
                return
            s_lo = read_rational(stored["lo"], f"{pointer}/max_ratio/lo")
            s_hi = None if stored["hi"] is None else read_rational(stored["hi"], f"{pointer}/max_ratio/hi")
            r.at_most(f"{pointer}/max_ratio/lo", s_lo, lower, "stored maximum ratio must enclose the stored values'")
            if upper is None:
                r.check(s_hi is None, f"{pointer}/max_ratio/hi", s_hi, None, "the stored values give no finite bound")
            else:
                r.check(s_hi is None or s_hi >= upper, f"{pointer}/max_ratio/hi", s_hi, upper,
                        "stored maximum ratio must enclose the stored values'")
        self._witness(f"{pointer}/witness", block["witness"], block[status_key], values_of(c), scales_of(c),
                      s_lo, bound_of(c))

        def auditor(a):
            lo, hi = ratio_range(self.pairs, values_of(a), scales_of(a))
            return ratio_status(lo, hi, a.exp_eps)

        self.judge(f"{pointer}/{status_key}", block[status_key], ratio_status(s_lo, s_hi, bound_of(c)), auditor)

    def _witness(self, pointer, w, status, values, scales, stored_lo, bound):
        """Where the maximum ratio is attained: a neighbouring pair (from -> to) and a transcript.

        Its ratio, enclosed from the stored values, must be able to reach the
        stored maximum; for a refuted claim it must itself exceed the bound.
        """
        r = self.report
        if w is None:
            r.check(not self.pairs, pointer, None, "a pair and transcript",
                    "a witness is required when there are neighbouring pairs")
            return
        h = common.integer(w["from"], pointer + "/from", 0)
        g = common.integer(w["to"], pointer + "/to", 0)
        t = common.integer(w["transcript"], pointer + "/transcript", 0)
        if not r.check((h, g) in self.pairs and t < len(self.omegas), pointer, w, "",
                       "witness is not a neighbouring pair and transcript"):
            return
        sub = [[values[h][t]], [values[g][t]]]
        lo, hi = ratio_range([(0, 1)], sub, [scales[h], scales[g]] if scales else None)
        r.check(hi is None or stored_lo is None or hi >= stored_lo, pointer, w, stored_lo,
                "the witness's ratio cannot reach the stored maximum ratio")
        if status == REFUTED:
            r.check(lo > bound.hi, pointer, lo, bound.hi, "the witness's ratio does not exceed the bound")

    def claims(self):
        c, res = self.view, self.cert["result"]
        dbs, claims = res["databases"], res["claims"]
        n_h = len(self.hists)
        for i in range(n_h):
            self.judge(f"/result/databases/{i}/normaliser_status", dbs[i]["normaliser_status"],
                       at_most(c.normalisers[i], c.normaliser_bound),
                       lambda a, i=i: at_most(a.normalisers[i], a.normaliser_bound))
            self.judge(f"/result/databases/{i}/error_status", dbs[i]["error_status"],
                       at_most(self._errors(c)[i], c.error_bound),
                       lambda a, i=i: at_most(self._errors(a)[i], a.error_bound))
            self._decimal(f"/result/databases/{i}/normaliser_decimal", dbs[i]["normaliser_decimal"], c.normalisers[i])
            self._decimal(f"/result/databases/{i}/error_decimal", dbs[i]["error_decimal"], self._errors(c)[i])

        nb = claims["normaliser_bounds"]
        z_c = combine(at_most(z, c.normaliser_bound) for z in c.normalisers)
        z_a = lambda a: combine(at_most(z, a.normaliser_bound) for z in a.normalisers)  # noqa: E731
        self.judge("/result/claims/normaliser_bounds/upper_status", nb["upper_status"], z_c, z_a)
        self.judge("/result/claims/normaliser_bounds/status", nb["status"], combine([PROVED, z_c]),
                   lambda a: combine([PROVED, z_a(a)]))
        self._maximum("/result/claims/normaliser_bounds/max_normaliser", nb["max_normaliser"], c.normalisers)
        self._decimal("/result/claims/normaliser_bounds/max_normaliser_decimal", nb["max_normaliser_decimal"],
                      Interval.hull_max(c.normalisers))

        eb = claims["error_bound"]
        self.judge("/result/claims/error_bound/status", eb["status"],
                   combine(at_most(e, c.error_bound) for e in self._errors(c)),
                   lambda a: combine(at_most(e, a.error_bound) for e in self._errors(a)))
        self._maximum("/result/claims/error_bound/max_error", eb["max_error"], self._errors(c))
        self._decimal("/result/claims/error_bound/max_error_decimal", eb["max_error_decimal"],
                      Interval.hull_max(self._errors(c)))
        self._decimal("/result/claims/error_bound/bound_decimal", eb["bound_decimal"], c.error_bound)

        self._ratio_claim("/result/claims/pure_dp", claims["pure_dp"], lambda s: s.envelopes,
                          lambda s: s.normalisers, lambda s: s.exp_eps, "status")
        self._ratio_claim("/result/base_law", res["base_law"], lambda s: s.laws, lambda s: None,
                          lambda s: s.base_exp_eps, "pure_dp_status")

        hyp = res["hypothesis"]
        if hyp is not None:
            self.judge("/result/hypothesis/status", hyp["status"],
                       at_most(Interval.point(c.kappa, self.bits), c.condition_bound),
                       lambda a: at_most(Interval.point(a.kappa, self.bits), a.condition_bound))

    def _maximum(self, pointer, doc, items):
        lo = read_rational(doc["lo"], pointer + "/lo")
        hi = read_rational(doc["hi"], pointer + "/hi")
        hull = Interval.hull_max(items)
        self.report.check(lo == hull.lo and hi == hull.hi, pointer, common.span(lo, hi), common.span(hull.lo, hull.hi),
                          "maximum differs from the maximum of the stored enclosures")

    def _decimal(self, pointer, pair, enc):
        """[lo, hi] display: the stored enclosure's ends rounded down and up at their own places."""
        common.check_display_pair(pair, enc.lo, enc.hi, pointer, self.report)


def verify(cert, report):
    audit = Audit(cert, report)
    if not audit.estimate():
        return
    try:
        audit.structure()
        audit.enclosures()
        audit.claims()
    except _Stop:
        return
    for pointer, bits in audit.undecided:
        report.not_established(pointer, decide.stated_at(cert, pointer),
                               f"an enclosure neither inside nor disjoint from it, also at {bits} bits "
                               "(the refinement cap)", "the stored enclosure")


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def claim(cert):
    """The instance and the status of each of its three claims."""
    inp, claims = cert["input"], cert["result"].get("claims", {})
    parts = []
    for name, label in (("pure_dp", f"pure {rational_text(_q(inp['epsilon']))}-DP"),
                        ("normaliser_bounds", "1 <= Z_x <= 1 + 2e"),
                        ("error_bound", "error bound")):
        status = claims.get(name, {}).get("status")
        if status is not None:
            parts.append(f"{label} {status}")
    k = len(inp["queries"])
    return (f"PMW envelope ({inp.get('variant', 'selection')}): {', '.join(parts) or 'no claim'} "
            f"for T = {inp['universe']}, n = {inp['records']}, k = {k}, J = {inp['rounds']}, "
            f"hedge {rational_text(_q(inp['hedge']))}, select {rational_text(_q(inp['select']))}")
