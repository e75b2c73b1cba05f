"""The noise calibration: a crossing on a relative grid - a noise at which ε*_C(δ) <= ε is certified, the point
below at which it is certified not to hold (not a proof that no smaller noise meets the target).

:mod:`producer.noise_level.grid` is the grid (short decimals, relative step at most R),
:mod:`producer.noise_level.search` finds two neighbouring grid points, the upper
one certified to meet the target and the lower one certified to miss it, and
:mod:`producer.noise_level.hints` gives the float estimates that only steer where
the search looks.  The certificate: :mod:`producer.kinds.noise`.

DP-SGD's calibration (:mod:`producer.kinds.dpsgd_calibration`) searches the same grid, and the integers, by
:mod:`producer.noise_level.pairs` (a miss and a meet within a stated room, stepping around points no enclosure
decides), from the central-limit estimates of :mod:`producer.noise_level.clt`.
"""
