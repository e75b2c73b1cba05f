"""Slow reference epsilon-bracket/1 certificates (route hierarchy-witness), in ``certificates/slow/``.

ε*_8(10^-4) at γ = 1/3, σ² = 9 (*Exact Compilation and Resource Laws for Hidden
Integer Feedback*, §7.2): the proof hierarchy P_4 for the upper end and the
target-zero witness line for the lower end, about a minute and a half; ε*_32(10^-4)
(P_2 above, 1.7 % relative width) and ε*_64(10^-4) (the cut game without the odd
cuts above, 1.5 %), a few minutes each.  Run
``python -m producer.reference certificates/slow bracket_slow`` (``make certificates-large``).
"""

from gmpy2 import mpq

from producer.kinds import epsilon_bracket
from producer.output import stderr_progress
from producer.references import write_all

SLOW_REFERENCES = [
    ("epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c8-delta1e-4.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=8, delta=mpq(1, 10**4))),
    ("epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c32-delta1e-4.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=32, delta=mpq(1, 10**4))),
    ("epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c64-delta1e-4.json",
     dict(gamma="1/3", sigma2=mpq(9), budget=64, delta=mpq(1, 10**4))),
]


def generate(outdir):
    return write_all(outdir, "bracket_slow", SLOW_REFERENCES,
                     lambda fields: epsilon_bracket.build(epsilon_bracket.Request(**fields),
                                                          stderr_progress("calibrate")))
