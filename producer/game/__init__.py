"""The finite-law game G_C / F_q (SPEC section 3)."""
