"""Reference certificates for accounting a tree of mechanisms (accounting/1), written to ``certificates/accounting/``.

``make accounting-references`` regenerates them (byte-identically, seconds in
all); ``make certificates`` verifies them with the auditor.

- the Laplace mechanism (b = 1) composed 10 times, ε(10^-5);
- Poisson-subsampled Laplace, q = 1/10, b = 1, 100 steps, ε(10^-5);
- a mixture of Gaussians (σ = 2, Δ = 1, 2 with probabilities 1/2) composed 50 times, ε(10^-6);
- the same mixture under replace-special (a record replaced by one that contributes nothing): the add/remove
  numbers, ε(10^-6);
- randomized response (p = 9/10, k = 4) 20 times under replace-one, δ at ε = 1, 2, 4;
- a heterogeneous tree (add/remove): 100 subsampled Gaussian steps beside 5 Laplace releases and 10
  mixture steps under nested Poisson sampling, with a no-op, ε(10^-5);
- a heterogeneous tree under replace-one: randomized response, the Laplace mechanism and a subsampled
  Gaussian, δ at ε = 1, 2;
- the Poisson-subsampled Gaussian (q = 1/20, σ = 1) under replace-one, 100 steps, ε(10^-5);
- unsampled Gaussians only (σ = 2 ten times, then σ = 3): the closed form, ε(10^-5);
- the Gaussian (σ = 1.1) on batches of 256 of 60 000 records drawn without replacement, under replace-one,
  1000 steps, ε(10^-5);
- the Laplace mechanism (b = 2) on the same batches of 256 of 60 000 records, under replace-one, 1000 steps,
  ε(10^-5);
- the discrete Laplace mechanism (a = 1/2, sensitivity 2) composed 50 times, ε(10^-5);
- twenty epochs of tree aggregation (σ = 3/2, one tree of 1000 steps: depth 10), an epoch of two trees of 7 and
  2 steps (depth 3) and one Gaussian release (σ = 3/2), under replace-special: the closed form of 204 Gaussian
  releases, ε(10^-5).
"""

import sys

from producer.kinds.accounting import Request, build, progress_printer
from producer.references import main_of, write_all


def gaussian(sigma):
    return {"class_name": "GaussianDpEvent", "noise_multiplier": sigma}


def laplace(scale):
    return {"class_name": "LaplaceDpEvent", "noise_multiplier": scale}


def discrete_laplace(parameter, sensitivity):
    return {"class_name": "DiscreteLaplaceDpEvent", "noise_parameter": parameter, "sensitivity": sensitivity}


def discrete_gaussian(sigma_squared, sensitivity):
    return {"class_name": "DiscreteGaussianDpEvent", "sigma_squared": sigma_squared, "sensitivity": sensitivity}


def mixture(sigma, sensitivities, probabilities):
    return {"class_name": "MixtureOfGaussiansDpEvent", "standard_deviation": sigma, "sensitivities": sensitivities,
            "sampling_probs": probabilities}


def randomized_response(noise, buckets):
    return {"class_name": "RandomizedResponseDpEvent", "noise_parameter": noise, "num_buckets": buckets}


def tree_aggregation(sigma, steps):
    return {"class_name": "SingleEpochTreeAggregationDpEvent", "noise_multiplier": sigma, "step_counts": steps}


def truncated(n, q, batch, sigma):
    return {"class_name": "TruncatedSubsampledGaussianDpEvent", "dataset_size": n, "sampling_probability": q,
            "truncated_batch_size": batch, "noise_multiplier": sigma}


def poisson(q, event):
    return {"class_name": "PoissonSampledDpEvent", "sampling_probability": q, "event": event}


def without_replacement(n, m, event):
    return {"class_name": "SampledWithoutReplacementDpEvent", "source_dataset_size": n, "sample_size": m,
            "event": event}


def repeat(count, event):
    return {"class_name": "SelfComposedDpEvent", "event": event, "count": count}


def compose(*events):
    return {"class_name": "ComposedDpEvent", "events": list(events)}


NO_OP = {"class_name": "NoOpDpEvent"}

HETEROGENEOUS = compose(repeat(100, poisson("1/100", gaussian("1"))), repeat(5, laplace("5")), NO_OP,
                        repeat(10, poisson("1/2", poisson("1/2", mixture("2", ["1", "2"], ["1/2", "1/2"])))))

REFERENCES = [
    ("accounting-laplace-b1-x10-delta1e-5.json",
     dict(event=repeat(10, laplace("1")), delta="1e-5")),
    ("accounting-poisson-laplace-q0_1-b1-x100-delta1e-5.json",
     dict(event=repeat(100, poisson("1/10", laplace("1"))), delta="1e-5")),
    ("accounting-mixture-s2-d1_2-x50-delta1e-6.json",
     dict(event=repeat(50, mixture("2", ["1", "2"], ["1/2", "1/2"])), delta="1e-6")),
    ("accounting-special-mixture-s2-d1_2-x50-delta1e-6.json",
     dict(event=repeat(50, mixture("2", ["1", "2"], ["1/2", "1/2"])), neighboring_relation="replace_special",
          delta="1e-6")),
    ("accounting-special-randomized-response-p1_2-k2-x100-delta1e-5.json",
     dict(event=repeat(100, randomized_response("1/2", 2)), neighboring_relation="replace_special", delta="1e-5")),
    ("accounting-randomized-response-p0_9-k4-x20-replace-epsilons.json",
     dict(event=repeat(20, randomized_response("9/10", 4)), neighboring_relation="replace_one", epsilons="1,2,4")),
    ("accounting-tree-heterogeneous-delta1e-5.json",
     dict(event=HETEROGENEOUS, delta="1e-5")),
    ("accounting-tree-replace-one-epsilons.json",
     dict(event=compose(repeat(3, randomized_response("1/4", 2)), laplace("4"),
                        repeat(20, poisson("1/10", gaussian("2")))),
          neighboring_relation="replace_one", epsilons="1,2")),
    ("accounting-replace-poisson-gaussian-q0_05-s1-x100-delta1e-5.json",
     dict(event=repeat(100, poisson("1/20", gaussian("1"))), neighboring_relation="replace_one", delta="1e-5")),
    ("accounting-gaussian-closed-form-delta1e-5.json",
     dict(event=compose(repeat(10, gaussian("2")), gaussian("3")), delta="1e-5")),
    ("accounting-replace-without-replacement-gaussian-m256-n60000-s1_1-x1000-delta1e-5.json",
     dict(event=repeat(1000, without_replacement(60000, 256, gaussian("1.1"))), neighboring_relation="replace_one",
          delta="1e-5")),
    ("accounting-replace-without-replacement-laplace-m256-n60000-b2-x1000-delta1e-5.json",
     dict(event=repeat(1000, without_replacement(60000, 256, laplace("2"))), neighboring_relation="replace_one",
          delta="1e-5")),
    ("accounting-discrete-laplace-a0_5-s2-x50-delta1e-5.json",
     dict(event=repeat(50, discrete_laplace("1/2", 2)), delta="1e-5")),
    ("accounting-poisson-gaussian-composition-q0_01-s1_1-s10-x1000-delta1e-5.json",
     dict(event=repeat(1000, poisson("0.01", compose(gaussian("1.1"), gaussian("10")))), delta="1e-5")),
    ("accounting-replace-poisson-gaussian-composition-q0_01-s1_1-s10-x1000-delta1e-5.json",
     dict(event=repeat(1000, poisson("0.01", compose(gaussian("1.1"), gaussian("10")))),
          neighboring_relation="replace_one", delta="1e-5")),
    ("accounting-replace-without-replacement-gaussian-composition-m256-n60000-s1_1-s10-x1000-delta1e-5.json",
     dict(event=repeat(1000, without_replacement(60000, 256, compose(gaussian("1.1"), gaussian("10")))),
          neighboring_relation="replace_one", delta="1e-5")),
    ("accounting-replace-poisson-laplace-q0_1-b1-x100-delta1e-5.json",
     dict(event=repeat(100, poisson("0.1", laplace("1"))), neighboring_relation="replace_one", delta="1e-5")),
    ("accounting-replace-poisson-discrete-laplace-a0_5-s1-q0_1-x10-delta1e-5.json",
     dict(event=repeat(10, poisson("1/10", discrete_laplace("1/2", 1))), neighboring_relation="replace_one",
          delta="1e-5")),
    ("accounting-replace-poisson-discrete-gaussian-v4-s1-q0_1-x100-delta1e-5.json",
     dict(event=repeat(100, poisson("1/10", discrete_gaussian("4", 1))), neighboring_relation="replace_one",
          delta="1e-5")),
    ("accounting-replace-without-replacement-discrete-laplace-a0_5-s1-m10-n1000-x100-delta1e-5.json",
     dict(event=repeat(100, without_replacement(1000, 10, discrete_laplace("1/2", 1))),
          neighboring_relation="replace_one", delta="1e-5")),
    ("accounting-replace-without-replacement-discrete-gaussian-v16-s1-m100-n1000-x100-delta1e-5.json",
     dict(event=repeat(100, without_replacement(1000, 100, discrete_gaussian("16", 1))),
          neighboring_relation="replace_one", delta="1e-5")),
    ("accounting-special-tree-aggregation-s3_2-n1000-x20-delta1e-5.json",
     dict(event=compose(repeat(20, tree_aggregation("3/2", 1000)), tree_aggregation("3/2", [7, 2]), gaussian("3/2")),
          neighboring_relation="replace_special", delta="1e-5")),
    ("accounting-truncated-poisson-gaussian-n60000-q256_60000-b300-s1_1-x1000-delta1e-5.json",
     dict(event=compose(repeat(1000, truncated(60000, "256/60000", 300, "1.1")), truncated(100, "1/2", 200, "2")),
          delta="1e-5")),
    ("accounting-replace-truncated-poisson-gaussian-n60000-q256_60000-b300-s1_1-x1000-delta1e-5.json",
     dict(event=repeat(1000, truncated(60000, "256/60000", 300, "1.1")), neighboring_relation="replace_one",
          delta="1e-5")),
    ("accounting-truncated-poisson-gaussian-n1281167-q32768_1281167-b33000-s2-x1000-delta1e-5.json",
     dict(event=repeat(1000, truncated(1281167, "32768/1281167", 33000, "2")), delta="1e-5")),
]


def generate(outdir, names=None):
    return write_all(outdir, "accounting", REFERENCES,
                     lambda fields: build(Request.from_strings(**fields), progress=progress_printer("accounting")),
                     names=names)


main = main_of("accounting", REFERENCES, "certificates/accounting", generate)

if __name__ == "__main__":
    import os
    os.makedirs(sys.argv[1] if len(sys.argv) > 1 else "certificates/accounting", exist_ok=True)
    sys.exit(main())
