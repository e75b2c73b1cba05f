"""The releases of a heterogeneous plain composition: ``law:scale[:sensitivity]xcount``.

A release is ``count`` outputs of the law N (discrete Gaussian σ² = scale, ``dg``,
or discrete Laplace t = scale, ``dl``), each compared with its shift by the
integer sensitivity s >= 1, N(· − s).  The canonical list merges equal
(noise, sensitivity) (counts added) and sorts by (family, scale, sensitivity),
so the same composition is always the same question, whatever order or
grouping it was given in.
"""

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.immutable import Immutable
from producer.names import option
from producer.plain.enclose import GAUSSIAN, LAPLACE
from producer.rationals import as_items, format_rational, parse_integer, parse_rational, shown

LAWS = {"dg": GAUSSIAN, "dl": LAPLACE}
MAX_SENSITIVITY = 1000
FORM = "law:scale[:sensitivity]xcount, e.g. dg:9x100, dl:2x5 or dg:4:2x20 (law dg or dl)"


class Release(Immutable):
    """``count`` releases of one law (family, scale), each compared with its shift by ``sensitivity``."""

    __slots__ = ("family", "parameter", "sensitivity", "count")

    def __init__(self, family, parameter, sensitivity, count):
        self.family = LAWS.get(family, family)
        if self.family not in (GAUSSIAN, LAPLACE):
            raise InputError(f"release: unknown law {family!r} (dg: discrete Gaussian, dl: discrete Laplace)")
        self.parameter = mpq(parameter)
        self.sensitivity, self.count = int(sensitivity), int(count)
        if self.sensitivity < 1:
            raise InputError(f"release: the sensitivity must be an integer >= 1, got {self.sensitivity}")
        if self.sensitivity > MAX_SENSITIVITY:
            raise LimitError(f"release: sensitivity {self.sensitivity} exceeds the limit {MAX_SENSITIVITY}")
        if self.count < 1:
            raise InputError(f"release: the count must be an integer >= 1, got {self.count}")

    @property
    def key(self):
        return (self.family, self.parameter, self.sensitivity)

    def text(self):
        """The ``law:scale[:sensitivity]xcount`` form."""
        law = "dg" if self.family == GAUSSIAN else "dl"
        middle = "" if self.sensitivity == 1 else f":{self.sensitivity}"
        return f"{law}:{format_rational(self.parameter)}{middle}x{self.count}"


def parse_releases(value):
    """The releases of a list parameter: each item of a sequence, or one release alone (a text is one release,
    as a dpsgd stage is one stage)."""
    return [parse_release(item) for item in as_items(value)]


def parse_release(text):
    """A :class:`Release` from ``law:scale[:sensitivity]xcount`` (a Release passes through, a tuple
    (law, scale, sensitivity, count) is read as the text's four parts)."""
    if isinstance(text, Release):
        return text
    if isinstance(text, (tuple, list)):
        return _release_of_parts(text)
    if not isinstance(text, str) or "x" not in text:
        raise InputError(f"release: {text!r} is not of the form {FORM}")
    head, count = text.strip().rsplit("x", 1)
    parts = head.split(":")
    if len(parts) not in (2, 3) or parts[0] not in LAWS:
        raise InputError(f"release: {text!r} is not of the form {FORM}")
    scale = parse_rational(parts[1], f"release {text}: scale")
    sensitivity = parse_integer(parts[2], f"release {text}: sensitivity") if len(parts) == 3 else 1
    return Release(parts[0], scale, sensitivity, parse_integer(count, f"release {text}: count"))


def _release_of_parts(parts):
    """A :class:`Release` from (law, scale, sensitivity, count), each read as in the text form (the law dg or dl,
    or its family's name)."""
    if len(parts) != 4 or not isinstance(parts[0], str) or parts[0] not in (*LAWS, *LAWS.values()):
        raise InputError(f"release: {shown(parts)} is not of the form {FORM}, nor a tuple (law, scale, "
                         f"sensitivity, count) such as ('dg', 9, 1, 100)")
    law, scale, sensitivity, count = parts
    where = f"release {law}"
    return Release(law, parse_rational(scale, f"{where}: scale"), parse_integer(sensitivity, f"{where}: sensitivity"),
                   parse_integer(count, f"{where}: count"))


def canonical_releases(releases, max_total):
    """The canonical tuple: equal (family, scale, sensitivity) merged, sorted; total count <= max_total."""
    merged = {}
    for release in parse_releases(releases):
        merged[release.key] = merged.get(release.key, 0) + release.count
    if not merged:
        example = option("releases", "dg:9x100", flag="--release", python='["dg:9x100"]')
        raise InputError(f"release: give at least one release, e.g. {example}")
    total = sum(merged.values())
    if total > max_total:
        raise LimitError(f"release: the total count {total} exceeds the limit of {max_total} releases")
    return tuple(Release(*key, count) for key, count in sorted(merged.items()))
