"""The auditor's own machinery for the lower-certificate kinds (*Hidden Integer Feedback* §3.3,
§4.1, §5.2, §7, App. B, D, G.5–G.6, J, K.2).

- :mod:`.inputs`: reading and domain-checking request fields (raising Malformed);
- :mod:`.source`: the discrete-Gaussian source block and the threshold enclosure;
- :mod:`.display`: outward decimal displays;
- :mod:`.suffix`: exact likelihood tests of fixed sign suffixes (hockey-stick sums);
- :mod:`.waiting`: the waiting recursion of the finite-deadline witness;
- :mod:`.moments`: the G.6 mean-square identity by an exact moment recursion;
- :mod:`.renyi`: the 29-band Rényi domination of ``separation/1`` renyi-cover;
- :mod:`.relaxations`: the values of the two relaxations of the budget-two game;
- :mod:`.lines`: the target-{0} line trees of ``calibration-lower/1``;
- :mod:`.embedded`: embedded ``dg-interval/1`` certificates.

Nothing here imports the producer or uses floats; every decision is exact.

Long numbers (exact witnesses can have more than Python's 4300-digit int <-> str
limit) are converted through gmpy2 (:mod:`auditor.rationals`) and shown
abbreviated in messages, so the process's limit is neither needed nor changed.
"""
