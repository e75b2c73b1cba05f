"""The recipe of a pld-route certificate: its shape, its estimated work, and the bounds it gives (docs/dpsgd.md §3–7).

``result.discretisation`` of ``dpsgd/1`` and of ``accounting/1`` (one computation, docs/accounting.md §5): the grid N,
the scales K and K′, one range per stage, per order and side the windows of each product, and the regrids of a
single stage's power (:mod:`.regrid`).  The two kinds name their orders differently (``remove``/``add``,
``forward``/``backward``); here an order is a name, the first of a kind's pair of names being the forward order
(the stages' pairs (P, Q)), the second the backward one.

* :func:`read_plan`: the recipe's shape (MALFORMED when wrong): one range per stage, lo <= hi, per chain one window
  list per stage of the length the powering prescribes ((bit length of T − 1) + (popcount of T − 1)) and S − 1
  ``combine`` windows, a lower chain for every order a claim names; the regrids' shape (:func:`.regrid.read`);
  the split's (:func:`.split.read`: then (products of the power of T − 1) + 1 windows, regrids inside that power;
  a coarse tail's bodies and ρ = G·r, read after the regrids).
* :func:`estimate_plan`: UNCHECKED beyond a limit, and the work and memory of one pass
  (:class:`auditor.budget.Cost`), from the recipe's numbers alone: |lo|, |hi| <= :data:`MAX_LOSS`·N; the regrids'
  factors' product G <= :data:`MAX_SPACING`·N (the final spacing G/N, where the shares read e^{−x}); working
  precision (with the retry's guard) <= :data:`MAX_WORKING_BITS`; Σ (hi − lo + 1) <= :data:`MAX_BUCKETS`; every
  2^K (2^K′) >= 4·ΣT·(3·n + 3) for the longest array n (which the file's budget bounds,
  :data:`auditor.budget.MAX_ENTRIES` entries per ``--budget``);
  the masses of every bucket (each pair's :meth:`mass_work` at the stage's declared working precision and
  number bits) and every product of the chains checked,
  Σ (n_A + n_B)·(field bits)·:data:`CONVOLUTION_NS`; memory the larger of Σ_s n_s·(1024 + 2·W_s) bytes (the
  masses) and Σ_s 6·(n_s + 1)·(64 + max(K, K′)/8) bytes (the single-step arrays kept) plus (384 + field bits/2)
  bytes per entry of the longest product.  A regrid of factor r after a window [lo, hi] leaves
  ⌊hi/r⌋ − ⌊lo/r⌋ + 2 (lower chains: + 1) entries and a base of n entries at most ⌈(n − 1)/r⌉ + 2 (+ 1); it counts
  as (n + n_base)·(scale + S + :data:`REGRID_BITS`) entry-bits and (384 + scale + 2) bytes an entry, its shares
  :data:`SHARES_WORK`, and adds to the rounding excess bound of 2^K 4·ΣT·(4n + the shares' excess,
  :func:`.regrid.excess`).
  A split (:mod:`.split`; one stage): each chain's power is of T − 1 steps on the order's body (the base's length
  b − a + 1 clipped to [LO, HI], the regrids as above), then one product of the power by the base with the last
  window; per chain and scale, when the tail is not empty (its length n_t: the range's length n minus the body's,
  or n when the body lies strictly inside), the tail through each regrid counts n_t·(scale + S_i + REGRID_BITS),
  then the split's coarsening (n_A + n_t)·(scale + S + REGRID_BITS) (n_A the power's length, n_t the tail's
  after the regrids), each with (384 + scale + 2) bytes an entry, leaving ⌈(n − 1)/r⌉ + 1 (+ 1) entries of n;
  then their product (n_A′ + n_t′)·field bits, an array of n_A′ + n_t′ − 1 entries (memory and the longest array
  like a product).  The split's shares count one more :data:`SHARES_WORK`, its factor enters the spacing limit
  (G·r <= :data:`MAX_SPACING`·N, UNCHECKED at ``split`` otherwise) and it adds to the rounding excess bound
  like one more regrid (4·ΣT·(4n + its shares' excess)).
  A coarse tail (:func:`.split.parts`, ρ = G·r): the masses are the two parts' instead of the stage's, the body's
  c − lo + 1 buckets on N and the tail's (hi − c)/ρ + 1 on N/ρ, each at its own working precision (each checked
  against the limit) and counted against :data:`MAX_BUCKETS` (|lo|, |hi| still on the stage's range at N); the
  sizes (c − lo + 1, (hi − c)/ρ + 1) for both orders; only the power passes the split's coarsening,
  n_A·(scale + S + REGRID_BITS) and (384 + scale + 2) bytes an entry, before its product by the tail as it is;
  the arrays kept are the parts', (c − lo + 2) + ((hi − c)/ρ + 2) entries.
* :func:`bounds`: the auditor's own single-step arrays (:mod:`.masses`), composed with the recorded windows and
  regrids (:mod:`.composition`, :mod:`.regrid`): upper bounds F of both orders, on the final grid, and lower
  bounds L of the named ones (:mod:`.answer`); the regrids' shares are confirmed first
  (:func:`.regrid.check_shares`, called by the kind's checks, with the split's after them: :func:`coarsenings`);
  with a split, per order F(W0) + T·F(W1) + B2 and L(W0)⁺ + T·L(W1)⁺ (:func:`.split.bounds`; a coarse tail's single
  steps are its two parts').
"""

from functools import partial

from auditor import budget, common
from auditor.certificate import Malformed
from auditor.outcomes import Unchecked
from auditor.pld import answer, composition, masses, regrid, split
from auditor.rationals import ceil_div

__all__ = ["MAX_LOSS", "MAX_SPACING", "MAX_WORKING_BITS", "MAX_BUCKETS", "MAX_ENTRIES", "CONVOLUTION_NS",
           "PRODUCT_BYTES", "RETRY_GUARD", "read_plan", "named_orders", "coarsenings", "estimate_plan", "bounds"]

MAX_LOSS = 1024
"""Largest |lo|/N and |hi|/N of a single-step range (loss values)."""
MAX_SPACING = 64
"""Largest final grid spacing G/N of a recipe with regrids (loss values)."""
MAX_WORKING_BITS = 4096
"""Largest working precision of the single-step masses (bits)."""
MAX_BUCKETS = 2 * 10 ** 6
"""Most single-step buckets over all stages."""
MAX_ENTRIES = budget.MAX_ENTRIES
"""Longest array (a window or a product) of a composition chain, per ``--budget`` (the file's budget checks it)."""

MASS_BYTES, MASS_BYTES_PER_BIT = 1024, 2
"""Memory of the masses per bucket: 1024 + 2·W bytes (measured 1077, 1548 and 2604 bytes at W = 138, 466, 1066)."""
CONVOLUTION_NS = 3
"""Work units per (n_A + n_B) × field bits of a product (measured 2.2 to 2.5; the producer's largest
``dpsgd/1`` requests, T = 10^6, are about 5·10^9, 15 s)."""
KEPT_ARRAYS, KEPT_BYTES = 6, 64
"""The single-step arrays kept while the chains are composed: six per stage, 64 + K/8 bytes an entry."""
PRODUCT_BYTES = 384
"""Memory per entry of the longest product: 384 + field bits/2 bytes (measured 393 at 168-bit fields,
679 at 856-bit ones: the packed integers, the unpacked and rounded lists, the kept window)."""
RETRY_GUARD = 64
"""Extra guard bits of the second (and last) attempt at open claims."""
REGRID_BITS = 256
"""A regrid counts as (n + n_base)·(scale + S + 256) entry-bits of a product (:data:`CONVOLUTION_NS` units each;
measured at most 1.7 units, S = 8 to 4096, r = 2 to 64, scale 80 to 200)."""
SHARES_WORK = 10 ** 8
"""Work units of confirming one regrid's shares (measured below 5·10^7 at r = 64, S = 4096, both precisions)."""

P = "/result/discretisation"


def _window(value, pointer):
    lo = common.integer(value[0], pointer + "/0")
    hi = common.integer(value[1], pointer + "/1")
    if lo > hi:
        raise Malformed(f"{pointer}: window [{common.magnitude(lo)}, {common.magnitude(hi)}] has lo > hi")
    return lo, hi


def _chain(value, stages, pointer, splits=False):
    """The windows of one chain: ([windows per stage], [combine windows]), lengths checked (``splits``: the power
    of T − 1 steps and one more product)."""
    if len(value["stages"]) != len(stages):
        raise Malformed(f"{pointer}/stages: {len(value['stages'])} window lists for {len(stages)} stages")
    per_stage = []
    for s, (windows, stage) in enumerate(zip(value["stages"], stages)):
        need = composition.products_in_power(stage.steps - splits) + splits
        if len(windows) != need:
            what = f"T − 1 = {stage.steps - 1} and one more take" if splits else f"T = {stage.steps} takes"
            raise Malformed(f"{pointer}/stages/{s}: {len(windows)} windows, but {what} {need} products")
        per_stage.append([_window(w, f"{pointer}/stages/{s}/{i}") for i, w in enumerate(windows)])
    if len(value["combine"]) != len(stages) - 1:
        raise Malformed(f"{pointer}/combine: {len(value['combine'])} windows for {len(stages)} stages "
                        f"(need {len(stages) - 1})")
    combine = [_window(w, f"{pointer}/combine/{i}") for i, w in enumerate(value["combine"])]
    return per_stage, combine


def named_orders(cert):
    """The orders a lower claim of ``cert`` names (a set of names)."""
    res = cert["result"]
    named = set()
    if "points" in res:
        named.update(pt["lower_order"] for pt in res["points"])
    else:
        named.add(res["lower_order"])
    named.discard(None)
    return named


def read_plan(cert, stages, names):
    """The recipe, checked for shape (Malformed); ``stages`` [(pair, T)] or [(pair, T, guard, parts)] (the kind's
    declared precision guard and number bits) in the certificate's stage order, ``names`` the kind's (forward,
    backward) order names.  Its work is estimated separately (:func:`estimate_plan`)."""
    d = cert["result"]["discretisation"]
    N = common.integer(d["grid"], P + "/grid", 1)
    K = common.integer(d["p_bits"], P + "/p_bits", 1)
    K_q = common.integer(d["q_bits"], P + "/q_bits", 1)
    if len(d["ranges"]) != len(stages):
        raise Malformed(f"{P}/ranges: {len(d['ranges'])} ranges for {len(stages)} stages")
    staged = []
    for s, (stage, r) in enumerate(zip(stages, d["ranges"])):
        lo, hi = _window(r, f"{P}/ranges/{s}")
        pair, steps, *declared = stage
        staged.append(masses.Stage(pair, steps, lo, hi, *declared))
    named = named_orders(cert)
    splits = d.get("split") is not None
    regrids = regrid.read(d.get("regrids"), staged, P + "/regrids", staged[0].steps - 1 if splits else None)
    cut = split.read(d.get("split"), staged, names, P + "/split", N, regrid.factors(regrids))
    chains = {}
    for order in names:
        W = d["windows"][order]
        upper = _chain(W["upper"], staged, f"{P}/windows/{order}/upper", splits)
        lower = None if W["lower"] is None else _chain(W["lower"], staged, f"{P}/windows/{order}/lower", splits)
        if order in named and lower is None:
            raise Malformed(f"{P}/windows/{order}/lower: null, but a lower end names the order {order}")
        # a recorded lower chain that no claim names is shape-checked, never computed
        chains[order] = {"upper": upper, "lower": lower if order in named else None}
    return {"N": N, "K": K, "K_q": K_q, "stages": staged, "chains": chains, "named": named, "names": tuple(names),
            "regrids": regrids, "split": cut}


def coarsenings(plan):
    """The regrids, then the split's coarsening (its shares are a regrid's at the final spacing G/N): the list
    :func:`.regrid.check_shares` confirms before any bound."""
    return plan["regrids"] + ((plan["split"].grid,) if plan["split"] else ())


def estimate_plan(plan, total_steps, guard=0):
    """The work and memory of one pass at ``guard`` extra bits (:class:`auditor.budget.Cost`), from the recipe's
    numbers alone; UNCHECKED beyond a limit (module docstring)."""
    N, K, K_q, stages = plan["N"], plan["K"], plan["K_q"], plan["stages"]
    if plan["regrids"] and regrid.factors(plan["regrids"]) > MAX_SPACING * N:
        # the shares and F(ε) read e^{−x} at x up to the final spacing G/N (an enclosure's cost grows with x)
        raise Unchecked(f"{P}/regrids", regrid.factors(plan["regrids"]), MAX_SPACING * N,
                        "product of the regrids' factors (the final grid spacing G/N, at most 64)")
    cut = plan["split"]
    if cut and regrid.factors(coarsenings(plan)) > MAX_SPACING * N:
        raise Unchecked(cut.pointer, regrid.factors(coarsenings(plan)), MAX_SPACING * N,
                        "product of the regrids' and the split's factors (the cross term's spacing G·r/N, at most 64)")
    buckets = mass_work = mass_memory = 0
    for s, st in enumerate(stages):
        loss = ceil_div(max(abs(st.lo), abs(st.hi)), N)
        if loss > MAX_LOSS:
            raise Unchecked(f"{P}/ranges/{s}", loss, MAX_LOSS, "largest |loss| of the single-step range")
    for (st, grid, _), _ in _parts(plan):
        bits = masses.working_bits(st, grid, K, K_q)
        if bits + RETRY_GUARD > MAX_WORKING_BITS:
            raise Unchecked(P, bits + RETRY_GUARD, MAX_WORKING_BITS,
                            "working precision of the single-step masses in bits")
        bits += guard
        n = st.hi - st.lo + 1
        buckets += n
        mass_work += st.pair.mass_work(n, bits, st.parts)
        mass_memory += n * (MASS_BYTES + MASS_BYTES_PER_BIT * bits)
    if buckets > MAX_BUCKETS:
        raise Unchecked(f"{P}/ranges", buckets, MAX_BUCKETS, "single-step buckets")
    work = memory = 0
    longest, array = max(st.hi - st.lo + 1 for st in stages), (0, "")
    regrids = {rg.after: rg for rg in plan["regrids"]}
    for order in plan["names"]:
        sizes = cut and split.sizes(cut, stages[0], plan["names"], order)
        for side, scales in (("upper", (K,)), ("lower", (K, K_q))):
            chain = plan["chains"][order][side]
            if chain is None:
                continue
            for scale in scales:
                w, n, m = _chain_work(stages, chain, scale, f"{P}/windows/{order}/{side}", regrids, side == "upper",
                                      cut, sizes)
                work += w
                longest, array = max(longest, n[0]), budget.longer(array, n)
                memory = max(memory, m)
    need = 4 * total_steps * (3 * longest + 3)
    # a regrid adds to the upper arrays at most 2 units an entry of the power and of the base, and the shares'
    # excess over 2^S on their totals (below 2^(K+1))
    extra = 4 * total_steps * sum(4 * longest + regrid.excess(rg, K) for rg in coarsenings(plan))
    for scale, name, bound in ((K, "p_bits", need + extra), (K_q, "q_bits", need)):
        if (1 << scale) < bound:
            raise Unchecked(f"{P}/{name}", bound, 1 << scale,
                            "rounding excess bound 4·ΣT·(3n + 3" + (_coarsened_by(plan) if extra else "")
                            + ") against 2^bits (too few bits for the arrays)")
    if coarsenings(plan):
        work += ceil_div(SHARES_WORK * len(coarsenings(plan)), CONVOLUTION_NS)
    masses_cost = budget.Cost(mass_work, mass_memory, f"{P}/ranges", "single-step masses")
    # the single-step arrays (at most six per stage, entries of about K bits) are kept while the chains are
    # composed: their memory adds to the products'
    kept = sum((st.hi - st.lo + 2) * KEPT_ARRAYS * (KEPT_BYTES + max(K, K_q) // 8) for (st, _, _), _ in _parts(plan))
    chains_cost = budget.Cost(CONVOLUTION_NS * work, kept + memory, f"{P}/windows", "convolutions", array)
    total = masses_cost + chains_cost
    return budget.Cost(total.work, total.memory, total.pointer, "single-step masses and convolutions", array)


def _parts(plan):
    """[((stage, grid, tails kept), pointer)] whose single-step masses are computed: each stage on the grid N, or a
    coarse tail's two parts (:func:`.split.parts`), the pointer where a level that cannot be placed is reported."""
    cut = plan["split"]
    if cut and cut.coarse:
        return list(zip(split.parts(cut, plan["stages"][0], plan["N"]), (f"{P}/ranges/0", cut.pointer)))
    return [((st, plan["N"], (True, True)), f"{P}/ranges/{s}") for s, st in enumerate(plan["stages"])]


def _coarsened_by(plan):
    """The excess term's name in a refusal: the regrids', the split's, or both."""
    parts = [name for name, present in (("the regrids'", plan["regrids"]), ("the split's", plan["split"])) if present]
    return " + " + " and ".join(parts) + " excess"


def _field_bits(scale, n_a, n_b):
    return 2 * (scale + 2) + min(n_a, n_b).bit_length()


def _chain_work(stages, chain, scale, pointer, regrids, upper, cut=None, sizes=None):
    """(Σ (n_A + n_B)·field bits, (entries, pointer) of the longest array, bytes of the largest product) of one
    chain, from the window lengths alone; ``regrids`` {product: Regrid} of the first stage's power (of an upper
    chain when ``upper``); ``cut`` the split and ``sizes`` the order's (body, tail) lengths."""
    per_stage, combine = chain
    work, longest, memory, lengths = 0, (0, ""), 0, []

    def step(n_a, n_b, window, where):
        nonlocal work, longest, memory
        product = n_a + n_b - 1
        size = product if window is None else window[1] - window[0] + 1
        longest = budget.longer(longest, (max(product, size), where))
        field = _field_bits(scale, n_a, n_b)
        work += (n_a + n_b) * field
        memory = max(memory, product * (PRODUCT_BYTES + field // 2))
        return size

    def coarsen(rg, window, n, base):
        """The lengths of the power (on the window's indices) and of the base after the regrid."""
        nonlocal work, longest, memory
        r = rg.factor
        work += (n + base) * (scale + rg.bits + REGRID_BITS)
        memory = max(memory, (n + base) * (PRODUCT_BYTES + scale + 2))
        n, base = window[1] // r - window[0] // r + 1 + upper, ceil_div(base - 1, r) + 1 + upper
        longest = budget.longer(longest, (n, rg.pointer))
        return n, base

    def through(rg, lengths):
        """The lengths of arrays after the coarsening ``rg``, its work and memory counted (a regrid's)."""
        nonlocal work, memory
        work += sum(lengths) * (scale + rg.bits + REGRID_BITS)
        memory = max(memory, sum(lengths) * (PRODUCT_BYTES + scale + 2))
        return [ceil_div(x - 1, rg.factor) + 1 + upper for x in lengths]

    def cross(n, tail):
        """The split's cross term: the tail through every regrid, both through the split, then their product; a
        coarse tail is on the cross term's grid already, so the power alone is coarsened."""
        if cut.coarse:
            n, = through(cut.grid, [n])
        else:
            for rg in regrids.values():
                tail, = through(rg, [tail])
            n, tail = through(cut.grid, [n, tail])
        step(n, tail, None, cut.pointer)

    for s, (st, windows) in enumerate(zip(stages, per_stage)):
        base = st.hi - st.lo + 1 if cut is None else sizes[0]
        n = base
        for j, (square, w) in enumerate(zip(composition.products(st.steps - (cut is not None)), windows)):
            n = step(n, n if square else base, w, f"{pointer}/stages/{s}/{j}")
            if s == 0 and j in regrids:
                n, base = coarsen(regrids[j], w, n, base)
        if cut is not None:
            power, last = n, len(windows) - 1
            n = step(n, base, windows[last], f"{pointer}/stages/{s}/{last}")
            if sizes[1]:
                cross(power, sizes[1])
        lengths.append(n)
    n = lengths[0]
    for i, (other, w) in enumerate(zip(lengths[1:], combine)):
        n = step(n, other, w, f"{pointer}/combine/{i}")
    return work, longest, memory


def bounds(plan, value_bits, guard):
    """{"upper": {order: UpperTail}, "lower": {order: LowerEvents}, "lambda_bits", "unestablished"} of the recipe,
    the single-step masses at ``guard`` bits beyond the working precision; ``value_bits`` the precision of the
    answers; "unestablished" [(pointer, claimed, found, what)] the parts that establish nothing (a split's B2)."""
    N, K, K_q, stages = plan["N"], plan["K"], plan["K_q"], plan["stages"]
    names, named = plan["names"], plan["named"]
    singles = [masses.single_step(st, grid, K, K_q, names=names, lower=named, guard=guard, pointer=at, tails=kept)
               for (st, grid, kept), at in _parts(plan)]
    if plan["split"]:
        return _split_bounds(plan, singles, value_bits)
    upper, lower = {}, {}
    regrids = plan["regrids"]     # only with a single stage

    def coarse(kind):
        return {rg.after: partial(regrid.coarsen, kind=kind, regrid=rg) for rg in regrids}

    for order in names:
        chains = plan["chains"][order]
        per_stage, combine = chains["upper"]
        powers = [composition.power(composition.Array(s[order].LO, s[order].upper, s[order].upper_atom),
                                    st.steps, w, composition.UPPER, K, coarse(composition.UPPER))
                  for s, st, w in zip(singles, stages, per_stage)]
        U = composition.compose(powers, combine, composition.UPPER, K)
        upper[order] = answer.UpperTail(U, K, N, value_bits + len(U.values).bit_length(), regrid.factors(regrids))
        if chains["lower"] is None:
            continue
        per_stage, combine = chains["lower"]
        p_powers, q_powers = [], []
        for s, st, w in zip(singles, stages, per_stage):
            one = s[order]
            p_powers.append(composition.power(composition.Array(one.LO, one.lower_p), st.steps, w,
                                              composition.LOWER_P, K, coarse(composition.LOWER_P)))
            q_powers.append(composition.power(composition.Array(one.LO, one.lower_q, one.lower_atom), st.steps, w,
                                              composition.LOWER_Q, K_q, coarse(composition.LOWER_Q)))
        P_L = composition.compose(p_powers, combine, composition.LOWER_P, K)
        Q_L = composition.compose(q_powers, combine, composition.LOWER_Q, K_q)
        lower[order] = answer.LowerEvents(P_L, Q_L, K, K_q)
    return {"upper": upper, "lower": lower, "lambda_bits": value_bits + 32, "unestablished": []}


def _split_bounds(plan, singles, value_bits):
    """:func:`bounds` of a split recipe (:func:`.split.bounds`, order by order; ``singles`` the one stage's single
    step, or a coarse tail's two parts)."""
    upper, lower, unestablished = {}, {}, []
    cut, steps = plan["split"], plan["stages"][0].steps
    for order in plan["names"]:
        upper[order], low = split.bounds([s[order] for s in singles], steps, cut, plan["chains"][order],
                                         plan["regrids"], (plan["K"], plan["K_q"]), plan["N"], value_bits)
        if low is not None:
            lower[order] = low
        if isinstance(upper[order], split.Unestablished):
            unestablished.append((cut.pointer, f"the order {order} split", f"(T − 2)·x > 1 for the order {order}",
                                  "the bound B2 of the patterns with two tail steps or more (needs (T − 2)·x <= 1)"))
    return {"upper": upper, "lower": lower, "lambda_bits": value_bits + 32, "unestablished": unestablished}
