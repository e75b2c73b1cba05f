"""Checks of ``brace-run/1`` certificates (*BRACE: Differential Privacy for Dense Associative
Memory with LSR Energy*, Algorithm 1): see :mod:`auditor.brace.replay`."""

from auditor.brace.replay import verify_run


def verify(cert, report):
    verify_run(cert["input"], cert["result"], report, "/result")
