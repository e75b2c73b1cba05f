"""Sealing certificates: canonical JSON and the digest (:mod:`canonical`), the auditor's reader limits checked
when a certificate is sealed (:mod:`readability`), and the immutable :class:`~sealed.Certificate` value the API
returns (:mod:`sealed`).  The kinds themselves live in producer/kinds/; ``dg_interval`` and ``calibration``
here are only import paths kept for the auditor's tests.
"""
