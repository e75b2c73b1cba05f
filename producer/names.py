"""How a message names what its reader wrote: a Python parameter or a command-line option.

The same request reaches the kinds from Python (``producer.calibrate(...,
width="1e-6")``) and from the command line (``producer calibrate ... --width
1e-6``), and a refusal should name what its reader typed.  Each message is
written once, with :func:`option` for a parameter (:func:`subject` where it
leads the message) and :func:`entry` for the function or command that answers
instead; they render for the caller in effect when the message is made:
Python's names by default, the command line's inside :func:`command_line`
(``producer.cli`` runs every command in it).

>>> option("delta", "D"), entry("calibrate"), entry("dg", gamma=0)
('delta=D', 'producer.calibrate', 'producer.dg_interval(gamma=0)')
>>> with command_line():
...     option("delta", "D"), option("sampling_rate"), entry("dg", gamma=0), subject("rel_width")
('--delta D', '--sampling-rate', 'producer dg --gamma 0', 'rel-width')
"""

import contextlib
import contextvars

PYTHON, COMMAND_LINE = "Python", "command line"
_CALLER = contextvars.ContextVar("producer_caller", default=PYTHON)

# the Python function of each command a message may point to (tests/producer/test_names.py checks
# that each is a command of producer.cli and a function of producer.api)
FUNCTIONS = {
    "game": "finite_game", "dg": "dg_interval", "calibrate": "calibrate", "plain": "plain_composition",
    "hierarchy": "hierarchy_upper", "calibrate-lower": "calibration_lower", "frontier": "frontier",
    "window": "window_request", "rate": "rate", "finite-budget": "finite_budget", "noise": "noise",
    "dpsgd": "dpsgd", "bracket": "bracket", "steps": "dpsgd_steps", "sampling-rate": "dpsgd_sampling_rate",
    "account": "account",
}


@contextlib.contextmanager
def command_line():
    """Messages made inside name command-line options and commands."""
    token = _CALLER.set(COMMAND_LINE)
    try:
        yield
    finally:
        _CALLER.reset(token)


def on_command_line():
    return _CALLER.get() == COMMAND_LINE


def option(name, value=None, *, flag=None, python=None):
    """The parameter ``name`` with an example ``value`` as the caller writes it: ``name=value`` in Python,
    ``--name value`` on the command line (underscores as hyphens).  ``flag`` where the option has another
    name (``--stage`` for ``stages``), ``python`` where Python writes the value otherwise (a list);
    ``value=True`` is a switch (``curve=True``, ``--curve``)."""
    if on_command_line():
        text = flag or "--" + name.replace("_", "-")
        return text if value is None or value is True else f"{text} {value}"
    value = value if python is None else python
    return name if value is None else f"{name}={value}"


def subject(name):
    """The parameter ``name`` leading a message (``rel_width: must be positive``): as Python writes it, or on
    the command line as those commands' messages have always written it, without the dashes (``rel-width``)."""
    return name.replace("_", "-") if on_command_line() else name


def entry(command, **arguments):
    """What answers a question: the command (``producer calibrate --gamma 0``) or its Python function
    (``producer.calibrate(gamma=0)``); ``arguments`` as for :func:`option`."""
    if on_command_line():
        return " ".join([f"producer {command}", *(option(k, v) for k, v in arguments.items())])
    call = ", ".join(option(k, v) for k, v in arguments.items())
    return f"producer.{FUNCTIONS[command]}" + (f"({call})" if call else "")
