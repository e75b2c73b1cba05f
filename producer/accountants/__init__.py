"""Certified accountants with the interfaces training code already calls.

- :mod:`producer.accountants.dp_accounting`: :class:`CertifiedAccountant`, dp_accounting's
  ``PrivacyAccountant`` interface (a subclass of it when dp_accounting is installed), fed ``DpEvent`` s;
- :mod:`producer.accountants.opacus`: :class:`OpacusAccountant`, the interface of Opacus's accountants
  (``step``, ``get_epsilon``, ``history``, ``state_dict``), for a ``PrivacyEngine``;
- :mod:`producer.accountants.answers`: what both hand out, the certified upper end of the accounting/1
  answer as a float rounded up, with its exact value and its certificate.

Nothing here is imported by ``import producer``; neither peer library is needed (docs/from-peers.md).
"""
