"""``OpacusAccountant``: the interface of Opacus's accountants, answering with certified ends.

Opacus 1.x keeps its accountant on the ``PrivacyEngine`` (``engine.accountant``, made by
``create_accountant(mechanism=...)`` from the name ``"rdp"``, ``"gdp"`` or ``"prv"``).  ``make_private``
attaches ``engine.accountant.get_optimizer_hook_fn(sample_rate)`` to the ``DPOptimizer``, whose every
step calls the hook; the hook calls ``accountant.step(noise_multiplier=optim.noise_multiplier,
sample_rate=sample_rate * optim.accumulated_iterations)``, and ``engine.get_epsilon(delta)`` asks
``accountant.get_epsilon(delta)``.  This class has that interface (``opacus/accountants/accountant.py``,
``IAccountant``), so it takes the place of the named accountants::

    engine = PrivacyEngine()
    engine.accountant = producer.OpacusAccountant()      # before make_private, which attaches its hook
    model, optimizer, loader = engine.make_private(module=model, optimizer=optimizer, data_loader=loader,
                                                   noise_multiplier=1.1, max_grad_norm=1.0)
    ...                                                  # train as usual
    engine.get_epsilon(1e-5)                             # ε_hi, certified, a float rounded up
    engine.accountant.certificate.write("epsilon.json")

``make_private_with_epsilon`` looks its accountant up by name (``get_noise_multiplier(...,
accountant=engine.accountant.mechanism())``): register the class first, ``register_accountant("certified",
producer.OpacusAccountant)`` from ``opacus.accountants`` (Opacus 1.5.4 and later), or construct the engine
with ``PrivacyEngine(accountant="certified")`` after registering.  docs/from-peers.md has the whole page.

As Opacus's accountants: ``history`` is a list of ``(noise_multiplier, sample_rate, num_steps)``, a step
with the same pair as the last entry adds one to its ``num_steps`` and any other pair starts an entry;
``history`` may be assigned (Opacus's ``get_noise_multiplier`` does); ``len(accountant)`` is the number of
entries (as Opacus's own accountants count, not the number of steps: that is :attr:`OpacusAccountant.steps`);
``state_dict()`` holds ``history`` and ``mechanism`` and ``load_state_dict`` checks them with Opacus's
rules; ``mechanism()`` is ``"certified"``.  Each step is the Poisson-subsampled Gaussian mechanism
(``PoissonSampledDpEvent`` of ``GaussianDpEvent``, add/remove neighbours: Opacus's assumption too);
``get_epsilon(delta)`` answers ε_hi, the upper end of the certified enclosure of ε(δ) of the whole history
(docs/accounting.md), rounded up to a float, and :attr:`OpacusAccountant.certificate` is its accounting/1
certificate.  The numbers certified are the shortest decimals of the floats (``1/235`` as a float is
0.00425531914893617).  The keyword arguments of Opacus's accountants (``alphas``, ``eps_error``,
``delta_error``) tune their numerics and are ignored here: the answer is certified to the accountant's
``rel_width``; ``poisson=False`` (uniform batches) is refused, not certified.

A history becomes one event tree: the entries of equal (σ, q) gathered, in the order each first appeared.
Each step is checked when it is taken (σ in accounting/1's domain [1/10, 10^4], q in [0, 1]); the tree's
limits (10^7 steps in all, 16 distinct (σ, q)) are the kind's, refused by ``get_epsilon`` in one line.
"""

from collections import OrderedDict
from copy import deepcopy

from producer.accountants.answers import epsilon_hi, read_delta, read_rel_width
from producer.audit_budget import read_effort
from producer.errors import InputError, LimitError
from producer.pld.events import ADD_OR_REMOVE, MAX_COUNT, SIGMA_RANGE, canonical, read_count, read_number
from producer.rationals import describe_rational, format_rational

MECHANISM = "certified"
_NAMES = {"event": "history"}  # the kind's refusals about the tree are about the history here


def _step_numbers(noise_multiplier, sample_rate, where=""):
    """(σ, q) exact from one step's numbers, or the refusal naming them (``where`` the history entry)."""
    sigma = read_number(noise_multiplier, f"{where}noise_multiplier")
    if sigma <= 0:
        raise InputError(f"{where}noise_multiplier: must be positive, got {describe_rational(sigma)}")
    if not SIGMA_RANGE[0] <= sigma <= SIGMA_RANGE[1]:
        raise LimitError(f"{where}noise_multiplier: σ = {describe_rational(sigma)} is outside accounting/1's "
                         f"domain [1/10, 10^4]")
    q = read_number(sample_rate, f"{where}sample_rate")
    if not 0 <= q <= 1:
        raise InputError(f"{where}sample_rate: must lie in [0, 1], got {describe_rational(q)}")
    return sigma, q


def _entry(entry, index):
    """(σ, q, steps) exact from the history entry ``index``."""
    where = f"history[{index}]"
    if isinstance(entry, (str, bytes, dict)) or not hasattr(entry, "__len__") or len(entry) != 3:
        raise InputError(f"{where}: expected (noise_multiplier, sample_rate, num_steps), got {entry!r:.60}")
    sigma, q = _step_numbers(entry[0], entry[1], f"{where}.")
    steps = read_count(entry[2], f"{where}.num_steps", MAX_COUNT)
    return sigma, q, steps


def history_event(history):
    """The JSON event tree of an Opacus history: one ``SelfComposedDpEvent`` of the Poisson-subsampled
    Gaussian per distinct (σ, q), their steps added, in the order each first appeared."""
    gathered = {}
    for index, entry in enumerate(history):
        sigma, q, steps = _entry(entry, index)
        gathered[(sigma, q)] = gathered.get((sigma, q), 0) + steps
    parts = [{"class_name": "SelfComposedDpEvent", "count": steps,
              "event": {"class_name": "PoissonSampledDpEvent", "sampling_probability": format_rational(q),
                        "event": {"class_name": "GaussianDpEvent", "noise_multiplier": format_rational(sigma)}}}
             for (sigma, q), steps in gathered.items() if steps > 0]
    if not parts:
        return {"class_name": "NoOpDpEvent"}
    return parts[0] if len(parts) == 1 else {"class_name": "ComposedDpEvent", "events": parts}


class OpacusAccountant:
    """A privacy accountant with the interface of Opacus's (``IAccountant``) whose ε is a certified upper end.

    ``rel_width`` R of every answer's enclosure (default 1/1000: ε_hi − ε_lo <= R·ε_hi); ``effort`` N (1 to 8,
    default 1) opts in to N times the work of each answer (accounting/1's ``effort``).  Opacus constructs
    accountants without arguments; so does this one by default.  See the module's documentation.
    """

    def __init__(self, *, rel_width=None, effort=None):
        self.history = []  # [(noise_multiplier, sample_rate, num_steps)], as Opacus's accountants keep it
        self._rel_width = read_rel_width(rel_width)
        self._effort = read_effort(effort, "effort")
        self._last = None  # (question, delta, Answer) of the last answer

    def step(self, *, noise_multiplier, sample_rate):
        """Account for one optimisation step: Poisson sampling at ``sample_rate``, Gaussian noise of
        ``noise_multiplier`` times the clipping norm (checked now, named as passed)."""
        _step_numbers(noise_multiplier, sample_rate)
        if self.history:
            last_sigma, last_rate, steps = self.history[-1]
            if last_sigma == noise_multiplier and last_rate == sample_rate:
                self.history[-1] = (last_sigma, last_rate, steps + 1)
                return
        self.history.append((noise_multiplier, sample_rate, 1))

    def get_epsilon(self, delta, **kwargs):
        """ε_hi, the certified upper end of ε(``delta``) after the history's steps, as a float rounded up
        (0.0 before the first step).  Opacus's tuning keywords are accepted and ignored; ``poisson=False``
        is refused."""
        if not kwargs.get("poisson", True):
            raise InputError("poisson: only Poisson sampling is certified (Opacus's poisson_sampling=True, the "
                             "default); batches of a fixed size drawn without replacement are not accounted")
        target = read_delta(delta, "delta")
        question = history_event(self.history)
        key = (canonical(question), target)
        if self._last is None or self._last[:2] != key:
            answer = epsilon_hi(question, target, ADD_OR_REMOVE, self._rel_width, _NAMES, self._effort)
            self._last = (*key, answer)
        return self._last[2].value

    def __len__(self):
        return len(self.history)

    @classmethod
    def mechanism(cls):
        """The accountant's name for Opacus (``register_accountant``, ``state_dict``): ``"certified"``."""
        return MECHANISM

    def get_optimizer_hook_fn(self, sample_rate):
        """The hook ``PrivacyEngine.make_private`` attaches to the ``DPOptimizer`` (``attach_step_hook``):
        each optimiser step is one accountant step at ``sample_rate`` times the optimiser's
        ``accumulated_iterations``, with its ``noise_multiplier`` (as Opacus's accountants do)."""
        _step_numbers(1, sample_rate)   # the rate is checked now, not at the first step

        def hook_fn(optim):
            self.step(noise_multiplier=optim.noise_multiplier,
                      sample_rate=sample_rate * optim.accumulated_iterations)

        return hook_fn

    def state_dict(self, destination=None):
        """The accountant's state, as Opacus's: ``history`` (a copy) and ``mechanism``, into ``destination``
        (a mapping) or a new ``OrderedDict``."""
        if destination is None:
            destination = OrderedDict()
        destination["history"] = deepcopy(self.history)
        destination["mechanism"] = self.mechanism()
        return destination

    def load_state_dict(self, state_dict):
        """Restore a :meth:`state_dict`, with Opacus's checks (a ``ValueError``: :class:`producer.InputError`)
        and every history entry's."""
        if not state_dict:
            raise InputError("state_dict: it is None or empty, so there is nothing to load")
        for key in ("history", "mechanism"):
            if key not in state_dict:
                raise InputError(f"state_dict: it has no {key!r} key, so it cannot be loaded")
        if state_dict["mechanism"] != self.mechanism():
            raise InputError(f"state_dict: a state of the {state_dict['mechanism']!r} accountant cannot be loaded "
                             f"into the {self.mechanism()!r} one")
        history = state_dict["history"]
        if isinstance(history, (str, bytes, dict)) or not hasattr(history, "__iter__"):
            raise InputError(f"state_dict: its 'history' must be a list of (noise_multiplier, sample_rate, "
                             f"num_steps), got {history!r:.60}")
        history = list(history)
        for index, entry in enumerate(history):
            _entry(entry, index)
        self.history = history

    @property
    def steps(self):
        """The number of steps in the history (``len`` counts its entries, as Opacus's accountants do)."""
        return sum(int(entry[2]) for entry in self.history)

    @property
    def certificate(self):
        """The accounting/1 :class:`producer.Certificate` of the last ``get_epsilon`` (None before, and for a
        history without privacy loss, whose ε is 0)."""
        return None if self._last is None else self._last[2].certificate

    @property
    def exact_answer(self):
        """The last ε_hi exactly, as its certificate writes it (``"p/q"``)."""
        return None if self._last is None else self._last[2].exact

    @property
    def rel_width(self):
        """The relative width R of every answer's enclosure, as an exact rational string."""
        return format_rational(self._rel_width)

    def __repr__(self):
        return f"<OpacusAccountant: {self.steps} steps in {len(self.history)} history entries>"


__all__ = ["OpacusAccountant", "MECHANISM", "history_event"]
