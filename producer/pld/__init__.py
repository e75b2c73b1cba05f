"""Certified privacy-loss distributions: any list of stages, each a mechanism's dominating pair, composed.

One engine serves dpsgd/1 (the Poisson-subsampled Gaussian) and
accounting/1 (a tree of dp_accounting events read into stages).  A stage is
T steps of one mechanism whose *forward* pair (P, Q) dominates it; the
*backward* order is (Q, P), and the certified δ(ε) is the larger of the two
orders' hockey-stick divergences of the product of the stages' pairs
(docs/dpsgd.md, docs/accounting.md).  The engine sees a stage only through
its law (:class:`producer.pld.mechanism.DominatingPair`): bucket masses
enclosed with arb, exact decisions where a grid level meets the loss's
range, and float hints for sizing.

Modules, one per concept (docs/dpsgd.md has the proofs):

- :mod:`mechanism`: the stages, the two orders and the interface of a law;
- :mod:`subsampled_gaussian`, :mod:`replace_gaussian`, :mod:`laplace`, :mod:`discrete`,
  :mod:`mixture`, :mod:`randomized_response`: the pairs of
  docs/accounting.md §4, with their preimages and masses;
- :mod:`decide`: exact signs where a grid level meets a loss value;
- :mod:`normal`: Φ and its tail (arb, and floats for hints);
- :mod:`events`: a DpEvent tree read exactly into stages;
- :mod:`masses`: the buckets of one step in each order, and their rounding;
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
