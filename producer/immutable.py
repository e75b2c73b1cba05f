"""Write-once attributes for the validated request types of producer/kinds/.

A request is checked once, in its constructor, and then never changes: every
attribute (a ``__slots__`` entry) may be assigned exactly once, so a later
``request.budget = 7`` raises instead of silently bypassing the checks.
"""


class Immutable:
    """Base of a validated request: ``__slots__`` attributes assigned once, in ``__init__``."""

    __slots__ = ()

    def __setattr__(self, name, value):
        try:
            getattr(self, name)
        except AttributeError:
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"a {type(self).__name__} is immutable ({name} is already set)")

    def __delattr__(self, name):
        raise AttributeError(f"a {type(self).__name__} is immutable")
