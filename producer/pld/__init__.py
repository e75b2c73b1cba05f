"""Certified privacy-loss distributions for DP-SGD: the Poisson-subsampled Gaussian, composed (dpsgd/1).

One step of DP-SGD with sampling rate q and noise multiplier σ (sensitivity 1,
add/remove neighbours) is dominated by the pair

    P = (1 − q)·N(0, σ²) + q·N(1, σ²),    Q = N(0, σ²)

("remove" order) and by the swapped pair (Q, P) ("add" order); q = 1 is the
Gaussian N(1, σ²) against N(0, σ²).  For a schedule of stages (q_s, σ_s, T_s)
the mechanism's δ(ε) is the larger of the hockey-stick divergences
H_{e^ε}(⊗P_t ‖ ⊗Q_t) and H_{e^ε}(⊗Q_t ‖ ⊗P_t).

Modules, one per concept (docs/dpsgd.md has the proofs):

- :mod:`mechanism`: the stages, the privacy loss and its preimages;
- :mod:`masses`: the P- and Q-mass of every loss bucket, enclosed with arb;
- :mod:`connect_dots`: the dominating single-step array of the upper side;
- :mod:`buckets`: the bucket-index arrays of the lower side;
- :mod:`convolution`: exact big-integer products (Kronecker substitution);
- :mod:`composition`: repeated squaring with recorded truncation windows;
- :mod:`parameters`: the grid, the truncation and the precision;
- :mod:`one_step`: a single step's width, predicted from the bucket of ε;
- :mod:`search`: the first plan, the refinements, one work budget for all
  attempts, and the auditor's limits on a recipe, checked before the work;
- :mod:`inversion`: δ(ε) bounds from the composed arrays, and ε(δ) by bisection;
- :mod:`gaussian`: the closed form of Gaussian-only schedules;
- :mod:`enclose`: the driver (plan, compute, check the width, refine).
"""
