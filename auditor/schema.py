"""A fast yes for certificates that conform to their JSON Schema.

:func:`conforms` answers True only for an instance that conforms to the
schema under JSON Schema 2020-12, for the keywords the files of ``schemas/``
use.  Any doubt answers False: a keyword outside that set, a ``$ref`` that is
not ``#/$defs/NAME``, a float, an ``enum`` or ``const`` against a value of
another JSON type.  A False is never a verdict: :func:`auditor.certificate.validate`
then asks ``jsonschema``, which decides and words the error.  So this module
can make the auditor accept a file only if it wrongly says True, and the tests
compare it with ``jsonschema`` on every reference and on mutated certificates.

Why it exists: importing ``jsonschema`` costs about 40 ms, more than the
whole check of a small finite-game certificate.

Every keyword below is read as 2020-12 reads it: ``properties``,
``additionalProperties``, ``required``, ``minimum`` and the like apply only to
instances of their type and pass any other; ``$ref`` applies beside its
sibling keywords; ``pattern`` is searched with ECMA-262's final ``$``.
"""

import re
from functools import lru_cache

_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "examples"})
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) is int,       # the strict reader admits no floats
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


@lru_cache(maxsize=None)
def ecma_pattern(pattern):
    """``pattern`` compiled with ECMA-262's meaning of a final, unescaped ``$`` (end of input)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


def conforms(instance, schema):
    """True only if ``instance`` conforms to the root ``schema`` (False: ask jsonschema)."""
    return _Conformance(schema.get("$defs", {})).check(instance, schema)


def _same(a, b):
    """JSON equality, False whenever the two differ in JSON type (no 1 == true, no floats)."""
    if type(a) is not type(b) or isinstance(a, float):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return a == b


class _Conformance:
    __slots__ = ("_defs",)

    def __init__(self, defs):
        self._defs = defs

    def check(self, v, schema):
        if schema is True:
            return True
        if not isinstance(schema, dict):
            return False
        for key, arg in schema.items():
            if key not in _ANNOTATIONS and not self._keyword(key, arg, v, schema):
                return False
        return True

    def _keyword(self, key, arg, v, schema):
        if key == "type":
            return any(t in _TYPES and _TYPES[t](v) for t in ([arg] if isinstance(arg, str) else arg))
        if key == "$ref":
            name = arg[len("#/$defs/"):]
            return arg.startswith("#/$defs/") and name in self._defs and self.check(v, self._defs[name])
        if key == "properties":
            return not isinstance(v, dict) or all(self.check(v[k], s) for k, s in arg.items() if k in v)
        if key == "additionalProperties":
            extra = [k for k in v if k not in schema.get("properties", {})] if isinstance(v, dict) else []
            return all(self.check(v[k], arg) for k in extra) if arg is not False else not extra
        if key == "required":
            return not isinstance(v, dict) or all(k in v for k in arg)
        if key == "items":
            return not isinstance(v, list) or all(self.check(x, arg) for x in v)
        if key in ("if", "then", "else"):
            return key != "if" or self.check(v, schema.get("then", True) if self.check(v, arg)
                                             else schema.get("else", True))
        if key in _COMBINATORS:
            return _COMBINATORS[key]([self.check(v, s) for s in ([arg] if key == "not" else arg)])
        return _leaf(key, arg, v)


_COMBINATORS = {"allOf": all, "anyOf": any, "oneOf": lambda r: r.count(True) == 1, "not": lambda r: not r[0]}


def _leaf(key, arg, v):
    """A keyword that looks at ``v`` alone; an unknown one, or a float anywhere, is a doubt (False)."""
    if key in ("const", "enum"):
        return any(_same(v, a) for a in ([arg] if key == "const" else arg))
    if key in ("minimum", "maximum", "multipleOf"):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return True                         # numeric keywords pass every other type
        if isinstance(v, float) or type(arg) is not int:
            return False
        return v >= arg if key == "minimum" else v <= arg if key == "maximum" else v % arg == 0
    if key in ("minItems", "maxItems"):
        return not isinstance(v, list) or (len(v) >= arg if key == "minItems" else len(v) <= arg)
    if key == "uniqueItems":
        if not isinstance(v, list) or not arg:
            return True
        if not all(isinstance(x, str) or type(x) is int for x in v):
            return False                        # the schemas ask it of integer and string lists only
        return len({(type(x), x) for x in v}) == len(v)
    if key == "minLength":
        return not isinstance(v, str) or len(v) >= arg
    if key == "pattern":
        return not isinstance(v, str) or ecma_pattern(arg).search(v) is not None
    return False
