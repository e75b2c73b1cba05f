"""producer/accountants/answers.py: the float handed out is the certified upper end rounded up, targets are read
exactly and refused under the caller's names, a ledger without privacy loss answers 0 with no certificate, and
the kind's later refusals are renamed for the accountant's caller."""

import math

import pytest
from gmpy2 import mpq

from producer.accountants import answers
from producer.errors import InputError, LimitError
from producer.references.accounting import NO_OP, compose, gaussian, poisson, repeat

NAMES = {"delta": "target_delta", "epsilons": "target_epsilon", "event": "ledger"}
STEPS = repeat(50, poisson("1/100", gaussian("1")))


def test_an_answer_is_its_exact_value_rounded_up_to_a_float():
    third = answers.Answer("1/3", None)
    assert mpq(third.value) > mpq(1, 3) > mpq(math.nextafter(third.value, 0))
    assert answers.Answer("27735/4096", None).value == 27735 / 4096  # a dyadic stays itself
    with pytest.raises(AttributeError):
        third.value = 0.0


def test_targets_are_read_exactly_and_refused_by_the_callers_name():
    assert answers.read_delta(1e-5, "delta") == mpq(1, 100000)
    assert answers.read_epsilon("1/2", "target_epsilon") == mpq(1, 2)
    assert answers.read_rel_width(None) == mpq(1, 1000) and answers.read_rel_width(0.01) == mpq(1, 100)
    for call, error, message in [
        (lambda: answers.read_delta(1, "target_delta"), InputError, r"^target_delta: must lie in \(0, 1\), got 1$"),
        (lambda: answers.read_delta("1e-31", "delta"), LimitError, "^delta: 1e-31 is below accounting/1's limit"),
        (lambda: answers.read_delta(True, "delta"), InputError, "^delta: expected a number, got True$"),
        (lambda: answers.read_epsilon(-0.5, "target_epsilon"), InputError, "^target_epsilon: must be >= 0"),
        (lambda: answers.read_epsilon(600, "target_epsilon"), LimitError, "exceeds accounting/1's limit 500$"),
        (lambda: answers.read_rel_width("1e-7"), LimitError, r"^rel_width: 1e-07 is outside accounting/1's limits"),
    ]:
        with pytest.raises(error, match=message):
            call()


def test_a_tree_without_privacy_loss_answers_zero_without_a_certificate():
    for tree in (NO_OP, repeat(5, poisson(0, gaussian(1))), compose(NO_OP, repeat(0, gaussian(1)))):
        answer = answers.epsilon_hi(tree, mpq(1, 10**5), "add_or_remove_one", mpq(1, 1000), NAMES)
        assert (answer.value, answer.exact, answer.certificate) == (0.0, "0", None)
        assert answers.delta_upper(tree, mpq(0), "add_or_remove_one", mpq(1, 1000), NAMES) is answers.NO_LOSS


def test_both_answers_are_the_upper_ends_of_their_certificates():
    eps = answers.epsilon_hi(STEPS, mpq(1, 10**5), "add_or_remove_one", mpq(1, 1000), NAMES)
    assert eps.exact == eps.certificate.result["epsilon_hi"] and mpq(eps.value) >= mpq(eps.exact)
    delta = answers.delta_upper(STEPS, mpq(1), "add_or_remove_one", mpq(1, 1000), NAMES)
    point, = delta.certificate.result["points"]
    assert delta.exact == point["upper"] and mpq(delta.value) >= mpq(point["upper"])


def test_the_kinds_refusals_name_the_accountants_parameters():
    heavy = repeat(10**4, gaussian("1/10"))  # ε(10^-20) far beyond the kind's range
    with pytest.raises(LimitError, match="^target_delta: ε"):
        answers.epsilon_hi(heavy, mpq(1, 10**20), "add_or_remove_one", mpq(1, 1000), NAMES)
    too_many = compose(*(gaussian(k) for k in range(1, 18)))
    with pytest.raises(LimitError, match="^ledger: the tree reads into 17 distinct stages"):
        answers.epsilon_hi(too_many, mpq(1, 10**5), "add_or_remove_one", mpq(1, 1000), NAMES)
