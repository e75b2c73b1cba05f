"""Canonical JSON and the certificate envelope.

A certificate is ``{"schema", "producer", "input", "result", "digest"}``.
The digest is the SHA-256 of the canonical JSON of the certificate without its
``digest`` key: keys sorted, separators ``,`` and ``:``, UTF-8, no NaN.
Output files are the same canonical JSON followed by a newline, so the same
request gives byte-identical files.
"""

import hashlib
import json

from producer.version import NAME, __version__
from producer.audit_budget import check_certificate
from producer.certificates.readability import check_readable


def canonical_json(obj):
    """Serialise ``obj`` deterministically (sorted keys, no whitespace)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False)


def make_certificate(kind, version, input_, result):
    """Assemble a certificate of ``kind/version`` and seal it with its digest."""
    cert = {
        "schema": f"{kind}/{version}",
        "producer": {"name": NAME, "version": __version__},
        "input": input_,
        "result": result,
    }
    text = canonical_json(cert)
    check_readable(cert, text)  # never seal a file the auditor's reader would refuse
    check_certificate(cert)     # nor one beyond the budgets the producer writes for (a backstop)
    cert["digest"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return cert


def render(certificate):
    """The bytes written for a certificate: canonical JSON plus a newline."""
    return (canonical_json(certificate) + "\n").encode("utf-8")


def write_certificate(certificate, path=None, stream=None):
    """Write to ``path`` (atomically: temp file in the same folder, then os.replace)
    or to ``stream`` (stdout by default)."""
    data = render(certificate)
    if path is None and stream is not None:
        stream.write(data)
        stream.flush()
        return
    from producer.output import write_output
    write_output(data, path)
