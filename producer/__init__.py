"""Producer: exact computation of differential-privacy quantities as certificates.

The Python API (see docs/python-api.md) is re-exported here::

    from producer import dg_interval, calibration, finite_game
    cert = calibration("1/3", 9, 2, "1e-6", width="1e-3")
    cert.claim, cert.result["epsilon_hi"], cert.write("cal.json")

Functions: :func:`finite_game`, :func:`dg_interval`, :func:`calibration`,
:func:`pmw_envelope`, :func:`brace_run`, :func:`brace_compare`, :func:`hierarchy_upper`,
:func:`deadline_witness`, :func:`workload`, :func:`separation`,
:func:`calibration_lower`, :func:`plain_composition`, :func:`rate`, :func:`frontier`,
:func:`window_request`, :func:`finite_budget`, :func:`dpsgd`, :func:`hierarchy_exact`,
:func:`block_composition`, :func:`minimum_deletion`, :func:`minimum_depth`, :func:`epsilon_bracket`,
:func:`calibrate` (ε*_C(δ) by the route that reaches C), :func:`noise` (the noise a target needs; for
DP-SGD the noise multiplier), :func:`dpsgd_steps` and :func:`dpsgd_sampling_rate` (the steps, epochs or
sampling rate a DP-SGD target allows),
:func:`account` (ε(δ) of a tree of dp_accounting events), each returning an
immutable :class:`Certificate`, and :func:`privacy_curve` (ε(δ) of DP-SGD after
each epoch: one certificate per point, with the table); bad input raises
:class:`InputError`.  Accountants with the interfaces training code calls, answering with certified upper
ends: :class:`CertifiedAccountant` (dp_accounting's ``PrivacyAccountant``) and :class:`OpacusAccountant`
(Opacus's accountants), docs/from-peers.md.
"""

from producer.version import NAME, __version__  # noqa: F401  (re-exported)

_API = ("Certificate", "finite_game", "dg_interval", "calibration", "pmw_envelope", "pmw_parameters", "pmw_sample",
        "brace_run", "brace_compare", "bracket", "hierarchy_upper", "deadline_witness", "workload", "separation",
        "calibration_lower", "plain_composition", "rate", "frontier", "window_request", "finite_budget", "dpsgd",
        "privacy_curve", "hierarchy_exact", "block_composition", "minimum_deletion", "minimum_depth", "epsilon_bracket",
        "calibrate", "noise", "dpsgd_steps", "dpsgd_sampling_rate", "account", "CertifiedAccountant",
        "OpacusAccountant", "InputError", "LimitError")
__all__ = list(_API)


def __getattr__(name):
    # Imported on first use, so that `import producer` stays light.
    if name == "CertifiedAccountant":  # imports dp_accounting when it is installed: only when asked for
        from producer.accountants.dp_accounting import CertifiedAccountant
        return CertifiedAccountant
    if name == "OpacusAccountant":
        from producer.accountants.opacus import OpacusAccountant
        return OpacusAccountant
    if name in _API:
        from producer import api, errors
        return getattr(errors, name) if name in ("InputError", "LimitError") else getattr(api, name)
    raise AttributeError(f"module 'producer' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_API))
