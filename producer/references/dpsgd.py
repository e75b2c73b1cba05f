"""Reference certificates for DP-SGD accounting (dpsgd/1) and calibration (dpsgd-calibration/1), written to
``certificates/dpsgd/``.

``make dpsgd-references`` regenerates them (byte-identically, seconds each).

- q = 0.01, σ = 1, δ = 10^-5 at T = 1000 and T = 10^4 (the issue's headline);
- the Gaussian mechanism (q = 1), σ = 2, T = 10: ε(10^-5) and δ at ε = 1, 2, 4 (closed form);
- a two-stage schedule, 500 steps at q = 0.01, σ = 1 then 300 at q = 0.02, σ = 0.8, δ = 10^-6;
- δ(ε) at ε = 1/2, 1, 2, 4 for q = 0.01, σ = 1, T = 1000 (with regrids) and T = 1001 (a split single step, odd T);
- calibrations at ε = 2 or 3, δ = 10^-5: the noise multiplier for batch 100 of 10,000 over 10 epochs
  (TF Privacy's counting: q = 0.01, T = 1000), the epochs σ = 1 allows for batch 256 of 60,000 (Opacus's
  counting), and the sampling rate σ = 1 allows over T = 1000 steps.
"""

import os
import sys

from producer.kinds import dpsgd_calibration as calibration
from producer.kinds.dpsgd import Request, build, progress_printer
from producer.references import write_all

REFERENCES = [
    ("dpsgd-q0_01-s1-t1000-delta1e-5.json",
     dict(sampling_rate="0.01", noise_multiplier="1", steps=1000, delta="1e-5")),
    ("dpsgd-q0_01-s1-t10000-delta1e-5.json",
     dict(sampling_rate="0.01", noise_multiplier="1", steps=10000, delta="1e-5")),
    ("dpsgd-gaussian-s2-t10-delta1e-5.json",
     dict(sampling_rate="1", noise_multiplier="2", steps=10, delta="1e-5")),
    ("dpsgd-gaussian-s2-t10-epsilons.json",
     dict(sampling_rate="1", noise_multiplier="2", steps=10, epsilons="1,2,4")),
    ("dpsgd-schedule-two-stages-delta1e-6.json",
     dict(stages=["0.01:1x500", "0.02:0.8x300"], delta="1e-6")),
    ("dpsgd-q0_01-s1-t1000-epsilons.json",
     dict(sampling_rate="0.01", noise_multiplier="1", steps=1000, epsilons="1/2,1,2,4")),
    ("dpsgd-q0_01-s1-t1001-epsilons.json",
     dict(sampling_rate="0.01", noise_multiplier="1", steps=1001, epsilons="1/2,1,2,4")),
]


CALIBRATIONS = [
    ("dpsgd-calibration-noise-b100-n10000-e10-eps2-delta1e-5.json",
     dict(solve="noise_multiplier", epsilon="2", delta="1e-5", batch_size=100, dataset_size=10000, epochs=10)),
    ("dpsgd-calibration-epochs-b256-n60000-s1-opacus-eps3-delta1e-5.json",
     dict(solve="epochs", epsilon="3", delta="1e-5", noise_multiplier="1", batch_size=256, dataset_size=60000,
          counting="opacus")),
    ("dpsgd-calibration-sampling-rate-s1-t1000-eps2-delta1e-5.json",
     dict(solve="sampling_rate", epsilon="2", delta="1e-5", noise_multiplier="1", steps=1000)),
]


def _calibration(fields):
    fields = dict(fields)
    solve = fields.pop("solve")
    request = calibration.Request.from_strings(solve, fields.pop("epsilon"), fields.pop("delta"), **fields)
    return calibration.build(request, progress=progress_printer("dpsgd-calibration"))


def generate(outdir, names=None):
    return (write_all(outdir, "dpsgd", REFERENCES,
                      lambda fields: build(Request.from_strings(**fields), progress=progress_printer("dpsgd")),
                      names=names)
            + write_all(outdir, "dpsgd", CALIBRATIONS, _calibration, names=names))


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "certificates/dpsgd"
    os.makedirs(out, exist_ok=True)
    generate(out)
