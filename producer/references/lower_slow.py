"""Slow reference lower certificates: target-{0} line trees.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.2 and Appendix G.5.)

ε*_8(10^-4) and ε*_16(10^-4) lower ends at γ = 1/3, σ² = 9 (about 40 s and
130 s to produce).  Not part of the default topics: run
``python -m producer.reference certificates/slow lower_slow`` (``make references-lower``).
"""

from producer.kinds.calibration_lower import SLOW_REFERENCES, build_reference
from producer.references import write_all


def generate(outdir):
    return write_all(outdir, "lower_slow", SLOW_REFERENCES, build_reference)
