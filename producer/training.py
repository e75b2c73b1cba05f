"""A training run in the units people use: batch size, dataset size and epochs, read as (q, T).

DP-SGD's accountants take a sampling rate q and a number of steps T; training
scripts hold a batch size B, a dataset size N and a number of epochs E.  The
two libraries most DP-SGD code is accounted with count differently, and both
are offered (``counting``):

``tf-privacy`` (the default)
    TF Privacy's ``compute_dp_sgd_privacy_statement``: q = B/N and
    T(E) = ⌈E·N/B⌉ — the expected batch is B, and an epoch is N/B steps,
    rounded up once over the whole run.
``opacus``
    Opacus's ``PrivacyEngine`` with Poisson sampling: its data loader keeps
    ⌈N/B⌉ batches an epoch and samples each record with probability
    q = 1/⌈N/B⌉, so T(E) = E·⌈N/B⌉.

Both give the q and T the certificate states and certifies; the run in
training terms is recorded beside them (``input.training``) so that a reader
can check the conversion.
"""

from fractions import Fraction

from producer.errors import InputError, LimitError
from producer.rationals import parse_integer

COUNTINGS = ("tf-privacy", "opacus")
DEFAULT_COUNTING = "tf-privacy"
MAX_DATASET_SIZE = 10**12
MAX_EPOCHS = 10**7


class TrainingRun:
    """Batch size B, dataset size N, a step counting convention, and optionally epochs E (immutable)."""

    __slots__ = ("_batch_size", "_dataset_size", "_epochs", "_counting")

    def __init__(self, batch_size, dataset_size, epochs=None, counting=DEFAULT_COUNTING, *,
                 names=("batch_size", "dataset_size", "epochs", "counting")):
        b_name, n_name, e_name, c_name = names
        if counting not in COUNTINGS:
            raise InputError(f"{c_name}: {counting!r} is not a step counting (choose {' or '.join(COUNTINGS)})")
        batch = parse_integer(batch_size, b_name)
        size = parse_integer(dataset_size, n_name)
        if size < 1 or size > MAX_DATASET_SIZE:
            raise (LimitError if size > 0 else InputError)(
                f"{n_name}: must be in [1, 10^12], got {size}")
        if batch < 1 or batch > size:
            raise InputError(f"{b_name}: must be in [1, {n_name}] = [1, {size}], got {batch}")
        if epochs is not None:
            epochs = parse_integer(epochs, e_name)
            if epochs < 1 or epochs > MAX_EPOCHS:
                raise (LimitError if epochs > 0 else InputError)(
                    f"{e_name}: must be in [1, 10^7], got {epochs}")
        self._batch_size, self._dataset_size, self._epochs, self._counting = batch, size, epochs, counting

    batch_size = property(lambda self: self._batch_size)
    dataset_size = property(lambda self: self._dataset_size)
    epochs = property(lambda self: self._epochs)
    counting = property(lambda self: self._counting)

    def __setattr__(self, name, value):
        if hasattr(self, "_counting"):
            raise AttributeError(f"{type(self).__name__} is immutable")
        object.__setattr__(self, name, value)

    def __repr__(self):
        return (f"TrainingRun(batch_size={self._batch_size}, dataset_size={self._dataset_size}, "
                f"epochs={self._epochs}, counting={self._counting!r})")

    @property
    def batches_per_epoch(self):
        """⌈N/B⌉: the batches an epoch (Opacus's len(data_loader))."""
        return -(-self._dataset_size // self._batch_size)

    @property
    def sampling_rate(self):
        """q as a Fraction: B/N (tf-privacy) or 1/⌈N/B⌉ (opacus)."""
        if self._counting == "opacus":
            return Fraction(1, self.batches_per_epoch)
        return Fraction(self._batch_size, self._dataset_size)

    def steps_after(self, epochs):
        """T(E): ⌈E·N/B⌉ (tf-privacy) or E·⌈N/B⌉ (opacus)."""
        if self._counting == "opacus":
            return epochs * self.batches_per_epoch
        return -(-epochs * self._dataset_size // self._batch_size)

    @property
    def steps(self):
        """T(E) of the run's own epochs."""
        if self._epochs is None:
            raise ValueError("this run has no epochs: use steps_after(E)")
        return self.steps_after(self._epochs)

    def to_json(self):
        """The run as written in a certificate's ``input.training`` (epochs only when given)."""
        data = {"batch_size": self._batch_size, "dataset_size": self._dataset_size, "counting": self._counting}
        if self._epochs is not None:
            data["epochs"] = self._epochs
        return data
