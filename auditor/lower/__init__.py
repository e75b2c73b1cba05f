"""The auditor's own machinery for the lower-certificate kinds (SPEC-lower §7).

- :mod:`.inputs`: reading and domain-checking request fields (raising Malformed);
- :mod:`.source`: the discrete-Gaussian source block and the threshold enclosure;
- :mod:`.display`: outward decimal displays;
- :mod:`.suffix`: exact likelihood tests of fixed sign suffixes (hockey-stick sums);
- :mod:`.waiting`: the waiting recursion of the finite-deadline witness;
- :mod:`.moments`: the G.6 mean-square identity by an exact moment recursion.

Nothing here imports the producer or uses floats; every decision is exact.
"""

import sys

# Exact numerators of long witnesses (e.g. P_s(0) over D^{m+s} at large T) can exceed
# Python's default 4300-digit limit on int <-> str conversion, both when a
# certificate is read and when a failure is reported.  Raise it to a bound that
# still refuses absurd inputs (conversion is quadratic in the length).
MAX_INT_DIGITS = 200_000
if hasattr(sys, "get_int_max_str_digits") and 0 < sys.get_int_max_str_digits() < MAX_INT_DIGITS:
    sys.set_int_max_str_digits(MAX_INT_DIGITS)
