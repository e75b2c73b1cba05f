"""The moment envelope: a closed-form upper bound on ε*_C(δ).

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §3.2.)

E_Q[(dP/dQ)²] <= M_C = e^{8C/σ²} for every pair of transcript laws, hence

    ε*_C(δ) <= log(1 + (e^{8C/σ²} − 1)/(4δ)),   0 < δ < 1,

and ε*_0(δ) = 0.  :func:`envelope_upper` returns a dyadic rational at least
this bound, proved with arb enclosures.
"""

from gmpy2 import mpq

from producer.sources.enclosures import exp_enclosure, log_enclosure, round_up

ENVELOPE_BITS = 32  # the envelope is rounded up to a multiple of 2^-32


def envelope_upper(sigma2, budget, delta):
    """A rational E >= log(1 + (e^{8C/σ²} − 1)/(4δ)); 0 when C = 0."""
    budget, sigma2, delta = int(budget), mpq(sigma2), mpq(delta)
    if budget == 0:
        return mpq(0)
    m_upper = exp_enclosure(mpq(8 * budget) / sigma2, bits=96).hi
    argument = 1 + (m_upper - 1) / (4 * delta)
    return round_up(log_enclosure(argument, bits=96).hi, ENVELOPE_BITS)
