"""JSON fields shared by the lower certificates.

The finite source block of a lower certificate carries only what the
producer computed: the integer weights w_n for n = −L … L and τ ≥ TV(ν, g_σ).
σ², the radius L and the scale S = Σ w_n are part of the question
(``input``), so they are not repeated in the result.
"""

from producer.rationals import format_rational

__all__ = ["source_claims"]


def source_claims(source):
    """``{"weights": [w_{−L}, …, w_L], "tau": τ}`` of a finite discrete-Gaussian source."""
    return {"weights": [str(int(w)) for w in source.weights], "tau": format_rational(source.tau)}
