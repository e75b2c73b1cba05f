"""The auditor's estimate of a ``plain-composition/1`` check, restated for the budget of one file.

docs/certificates.md ("The budget of one file", ``plain-composition/1``) and
docs/plain-composition-audit.md §6–§7: before any work the auditor plans its
first level at precision b and estimates its work and memory; E is the
number of points its exact rules leave open (a point with lower = 0 and
upper >= 1, and for the discrete Laplace every ε >= C/t — with releases all
discrete Laplace, ε >= Σ k·s/t — is decided without an enclosure; when none
is open nothing is computed), each open point adding E·(10⁵ + b²/8):

- discrete Gaussian, the plan of §6 (radius L, scale K, slot width w, the
  windowed products (a_i, b_i), the final list of n coefficients):
  work 6·Σ (a_i + b_i)·w + (2L + 1 + n)·(1000 + K),
  memory 3·max (a_i + b_i)·w/2 + (2L + 1 + n)·(64 + K/8);
- discrete Laplace, P = b + C + boost + 2·bits(C) + 16 with boost the least
  integer with e^ε <= 2^boost at the largest open ε:
  work 16·(C + 1)·(P + 1000), memory 6·(C + 1)·(64 + P/8);
- the releases form: each discrete Gaussian release by the §6 plan of its
  count at the common scale K, each discrete Laplace release of sensitivity s
  and count k by its uncut packed power ((k·s + 1)·(1000 + K) beside its
  products, slot width w(K)), each lattice product (a_j + b_j)·(400 + 3·σ_j)
  with σ_j = 8·⌈(2K + 3 + bits(min(a_j, b_j)))/8⌉ (memory
  (a_j + b_j)·(256 + 5·σ_j/8)), and (Σ ℓ_r + n)·(1000 + 2·Rq) for the
  discounted sums, n·(64 + K/8) added to the largest part's memory.

All divisions round down.  b is the documented first level,
max(64, bits(⌊1/W⌋ + 1) + 8), for a certificate without a relative width.

Not documented, and so restated here as upper estimates (never below the
auditor's: tests/producer/plain/test_auditability.py compares them with the
auditor's own estimate on a corpus; they equal it on most): b when a relative
width R is present (the auditor sizes it from the open points' claimed
widths and their ends' denominators: here max(72, bits(den) + 16, bits of the
claimed width + 8)), and the releases form's common scale K
(b + bits(Σ ℓ_r) + bits(C) + bits(m) + 18 for m releases of total count C)
and ratio scale Rq (K + bits(max d_r) + 12), a few bits above what fits the
auditor's estimates measured.  Before the work (the ends are not known yet)
b is the smallest first level: W's, or 72 under a relative width.

The auditor's own step limits on the same plan are restated too
(:func:`check_step_limits`): at most 2²⁰ coefficients in any list or product
and 2²⁸ bits in any packed product.
"""

from math import gcd

from gmpy2 import isqrt, mpq

from producer import audit_budget
from producer.errors import LimitError
from producer.plain.enclose import GAUSSIAN, LAPLACE
from producer.sources.enclosures import log_enclosure

MIN_BITS = 64
RELATIVE_MIN_BITS = 72
TILT_UNITS = 10**5                # work units of the tilt's exponentials per open point (plus b²/8)
MAX_COEFFICIENTS = 2**20          # the auditor's limit on a list or product
MAX_PRODUCT_BITS = 2**28          # the auditor's limit on a packed product
SCALE_MARGIN = 18               # the releases form's K: an upper estimate (see the module docstring)
RATIO_MARGIN = 12               # its Rq over K: likewise
ADVICE = "fewer or more commensurable releases, fewer points or a larger width"

__all__ = ["first_bits", "open_points", "gaussian_plan", "certificate_cost", "request_cost", "check_step_limits"]


def _bits(n):
    return int(n).bit_length()


def _ceil_div(a, b):
    return -(-a // b)


def _floor(q):
    q = mpq(q)
    return int(q.numerator // q.denominator)


def width_bits(width):
    """bits(⌊1/W⌋ + 1) + 8: what a claimed width W asks of the first level."""
    width = mpq(width)
    return _bits(int(width.denominator // width.numerator) + 1) + 8


def first_bits(cert):
    """b, the auditor's first level for a finished certificate (an upper estimate with a relative width)."""
    inp = cert["input"]
    if inp.get("rel_width") is None:
        return max(MIN_BITS, width_bits(inp["width"]))
    R = mpq(inp["rel_width"])
    W = None if inp["width"] is None else mpq(inp["width"])
    b = RELATIVE_MIN_BITS
    for point in _open(cert):
        lower, upper = mpq(point["lower"]), mpq(point["upper"])
        claimed = R * lower if upper - lower <= R * lower and lower > 0 else W
        if claimed is not None and claimed > 0:
            b = max(b, width_bits(claimed))
        b = max(b, _bits(lower.denominator) + 16, _bits(upper.denominator) + 16)
    return b


def _all_laplace(inp):
    if "releases" in inp:
        return all(r["noise"]["family"] == LAPLACE for r in inp["releases"])
    return inp["noise"]["family"] == LAPLACE


def _pure_bound(inp):
    """The largest privacy loss when every release is a discrete Laplace (Σ k·s/t), else None."""
    if not _all_laplace(inp):
        return None
    releases = inp.get("releases") or [{"noise": inp["noise"], "sensitivity": 1, "count": inp["budget"]}]
    return sum(mpq(r["count"] * r["sensitivity"]) / mpq(r["noise"]["t"]) for r in releases)


def open_points(epsilons, lowers, uppers, pure):
    """The ε of the points the auditor's exact rules leave open (lower = 0 and upper >= 1 is decided; so
    is ε >= the largest loss of an all-Laplace composition)."""
    out = []
    for e, lower, upper in zip(epsilons, lowers, uppers):
        if pure is not None and e >= pure:
            continue
        if lower is not None and lower == 0 and upper >= 1:
            continue
        out.append(e)
    return out


def _open(cert):
    inp, points = cert["input"], cert["result"]["points"]
    pure = _pure_bound(inp)
    chosen = set(open_points([mpq(p["epsilon"]) for p in points], [mpq(p["lower"]) for p in points],
                             [mpq(p["upper"]) for p in points], pure))
    return [p for p in points if mpq(p["epsilon"]) in chosen]


def slot_width(K):
    """w: the bits of one packed slot at scale K (mass up to 3/2 in each factor)."""
    return 8 * _ceil_div(_bits(9 * 4 ** (K - 1) + 2 ** K) + 1, 8)


def _window(c, L, sigma2, b, C, steps):
    if c * L <= 16:
        return None
    value = mpq(7, 5) * sigma2 * c * (b + 8 + _bits(_ceil_div(C * steps, c) - 1))
    return int(isqrt(_ceil_div(int(value.numerator), int(value.denominator)))) + 1


def gaussian_plan(sigma2, C, b):
    """The auditor's plan of §6: (L, K, products [(ℓ₁, ℓ₂)], final length n) of C draws at precision b."""
    sigma2 = mpq(sigma2)
    e = _bits(_floor(2 * sigma2) + 2)
    L = max(1, int(isqrt(_floor(mpq(7, 5) * sigma2 * (b + _bits(C) + 6 + e)) + 1)))
    steps = _bits(C)
    K = b + _bits(C * (2 * L + 1)) + _bits(steps) + 14
    length, first, c, products = 2 * L + 1, -L, 1, []

    def keep(length, first, h):
        if h is None:
            return length, first
        lo, hi = max(first, -h), min(first + length - 1, h)
        return hi - lo + 1, lo

    for digit in bin(C)[3:]:
        c = 2 * c + (digit == "1")
        h = _window(c, L, sigma2, b, C, steps)
        products.append((length, length))
        length, first = keep(2 * length - 1, 2 * first, None if h is None else h + L * (digit == "1"))
        if digit == "1":
            products.append((length, 2 * L + 1))
            length, first = keep(length + 2 * L, first - L, h)
    return L, K, products, length


def _gaussian_part(sigma2, C, b, K=None):
    """(work, memory, products, n, w) of one discrete-Gaussian power (at the common scale K if given)."""
    L, own, products, n = gaussian_plan(sigma2, C, b)
    K = own if K is None else K
    w = slot_width(K)
    work = 6 * sum((x + y) * w for x, y in products) + (2 * L + 1 + n) * (1000 + K)
    memory = 3 * max([(x + y) * w for x, y in products] or [0]) // 2 + (2 * L + 1 + n) * (64 + K // 8)
    return work, memory, [(x, y, w) for x, y in products], n


def boost_bits(epsilon):
    """The least integer k >= 0 with e^ε <= 2^k, i.e. ⌈ε/ln 2⌉ (never tied for a rational ε > 0)."""
    epsilon = mpq(epsilon)
    if epsilon <= 0:
        return 0
    bits = 64 + _bits(_floor(epsilon) + 1)
    while True:
        ln2 = log_enclosure(2, bits=bits)
        low, high = _ceil_div_q(epsilon, ln2.hi), _ceil_div_q(epsilon, ln2.lo)
        if low == high:
            return low
        bits *= 2


def _ceil_div_q(a, b):
    q = mpq(a) / mpq(b)
    return -(-int(q.numerator) // int(q.denominator))


def _laplace_part(C, b, boost):
    P = b + C + boost + 2 * _bits(C) + 16
    return 16 * (C + 1) * (P + 1000), 6 * (C + 1) * (64 + P // 8)


def _laplace_power(s, k):
    """The products (ℓ₁, ℓ₂) of the uncut packed power of a list of s + 1 coefficients to the k-th, and its
    final length k·s + 1."""
    length, products = s + 1, []
    for digit in bin(k)[3:]:
        products.append((length, length))
        length = 2 * length - 1
        if digit == "1":
            products.append((length, s + 1))
            length += s
    return products, length


def _step(release):
    noise = release["noise"]
    if noise["family"] == GAUSSIAN:
        return mpq(release["sensitivity"]) / mpq(noise["sigma2"])
    return mpq(2) / mpq(noise["t"])


def _lattice_step(releases):
    numerator, denominator = 0, 1
    for release in releases:
        step = _step(release)
        numerator = gcd(numerator, int(step.numerator))
        denominator = denominator * int(step.denominator) // gcd(denominator, int(step.denominator))
    return mpq(numerator, denominator)


def _releases_parts(releases, b):
    """(work, memory, products [(ℓ₁, ℓ₂, slot bits)], lists) of the releases form's first level."""
    h = _lattice_step(releases)
    ratios = [int(_step(r) / h) for r in releases]
    finals = []
    for r in releases:
        if r["noise"]["family"] == GAUSSIAN:
            finals.append(gaussian_plan(r["noise"]["sigma2"], r["count"], b)[3])
        else:
            finals.append(r["count"] * r["sensitivity"] + 1)
    spread = [d * (n - 1) + 1 for d, n in zip(ratios, finals)]
    total = sum(r["count"] for r in releases)
    K = b + _bits(sum(spread)) + _bits(total) + _bits(len(releases)) + SCALE_MARGIN
    Rq = K + _bits(max(ratios)) + RATIO_MARGIN
    work, memories, products = 0, [], []
    w = slot_width(K)
    for r in releases:
        if r["noise"]["family"] == GAUSSIAN:
            part_work, part_memory, part_products, _ = _gaussian_part(r["noise"]["sigma2"], r["count"], b, K)
            products += part_products
        else:
            powers, n = _laplace_power(r["sensitivity"], r["count"])
            part_work = 6 * sum((x + y) * w for x, y in powers) + n * (1000 + K)
            part_memory = 3 * max([(x + y) * w for x, y in powers] or [0]) // 2 + n * (64 + K // 8)
            products += [(x, y, w) for x, y in powers]
        work += part_work
        memories.append(part_memory)
    accumulated = spread[0]
    for length in spread[1:]:
        sigma = 8 * _ceil_div(2 * K + 3 + _bits(min(accumulated, length)), 8)
        work += (accumulated + length) * (400 + 3 * sigma)
        memories.append((accumulated + length) * (256 + 5 * sigma // 8))
        products.append((accumulated, length, sigma))
        accumulated += length - 1
    work += (sum(spread) + accumulated) * (1000 + 2 * Rq)
    memory = max(memories) + accumulated * (64 + K // 8)
    return work, memory, products, spread + [accumulated]


def _estimate(inp, b, opened):
    """(work, memory, products, lists) of the first level at precision b with the ε ``opened``."""
    if not opened:
        return 0, 0, [], []
    tilt = len(opened) * (TILT_UNITS + b * b // 8)
    if "releases" in inp:
        work, memory, products, lists = _releases_parts(inp["releases"], b)
    elif inp["noise"]["family"] == GAUSSIAN:
        work, memory, products, n = _gaussian_part(inp["noise"]["sigma2"], inp["budget"], b)
        lists = [n]
    else:
        work, memory = _laplace_part(inp["budget"], b, boost_bits(max(opened)))
        products, lists = [], []
    return work + tilt, memory, products, lists


def check_step_limits(products, lists):
    """LimitError beyond the auditor's own limits on one step: 2²⁰ coefficients, 2²⁸ product bits."""
    coefficients = max([x + y - 1 for x, y, _ in products] + list(lists) + [0])
    if coefficients > MAX_COEFFICIENTS:
        raise LimitError(f"the auditor's enclosure would hold {coefficients} coefficients in one list or product, "
                         f"above its limit {MAX_COEFFICIENTS} (2^20)", f"use {ADVICE}")
    bits = max([(x + y) * w for x, y, w in products] + [0])
    if bits > MAX_PRODUCT_BITS:
        raise LimitError(f"the auditor's enclosure would multiply {bits} bits in one product, above its limit "
                         f"{MAX_PRODUCT_BITS} (2^28)", f"use {ADVICE}")


def _cost(inp, b, opened):
    work, memory, products, lists = _estimate(inp, b, opened)
    check_step_limits(products, lists)
    what = "the releases' lattice" if "releases" in inp else "the plain enclosure"
    return audit_budget.AuditCost(work, memory, what, ADVICE)


def certificate_cost(cert):
    """The auditor's budget estimate of a finished plain-composition/1 certificate (dict)."""
    opened = [mpq(p["epsilon"]) for p in _open(cert)]
    return _cost(cert["input"], first_bits(cert) if opened else MIN_BITS, opened)


def request_cost(inp):
    """The estimate before the work, from the request's JSON ``input``: every point not decided by the exact
    rules counted open, b the smallest first level the widths allow (the ends are not known yet)."""
    if inp.get("rel_width") is None:
        b = max(MIN_BITS, width_bits(inp["width"]))
    else:
        b = RELATIVE_MIN_BITS
    epsilons = [mpq(e) for e in inp["epsilons"]]
    return _cost(inp, b, open_points(epsilons, [None] * len(epsilons), [None] * len(epsilons), _pure_bound(inp)))
