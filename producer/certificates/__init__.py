"""Certificate writing: canonical JSON and the digest (:mod:`canonical`), and the auditor's reader limits
checked when a certificate is sealed (:mod:`readability`).  The kinds themselves live in producer/kinds/;
``dg_interval`` and ``calibration`` here are only import paths kept for the auditor's tests.
"""
