"""The auditor's own enclosures of transcendental numbers.

Rational Taylor bounds with explicit remainders, in integer fixed point with
directed rounding; no floating point and no python-flint anywhere:

- :mod:`.exponential`: e^x and log x for rational x -- the one home of the
  auditor's exp/log series and their proof (the brace replay and the envelope
  call it with their own precision schedules);
- :mod:`.gaussian`: the discrete-Gaussian kernel, its geometric tail bound and
  the normaliser Z = Σ_n exp(−n²/(2σ²)).
- :mod:`.laplace`: the discrete Laplace law (closed-form normaliser), its
  atoms and its tail.

Every function returns Fractions (lo, hi) with lo <= true value <= hi.
"""

from auditor.enclosures.exponential import exp_bounds, log_bounds
from auditor.enclosures.gaussian import kernel_bounds, kernel_tail_upper, normaliser_bounds

__all__ = ["exp_bounds", "log_bounds", "kernel_bounds", "kernel_tail_upper", "normaliser_bounds"]
