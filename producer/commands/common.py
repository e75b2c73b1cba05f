"""Pieces shared by the producer's commands: argument groups, output and the answer line.

Every command ends the same way (:func:`finish`): the certificate's canonical
bytes go to ``-o FILE`` (atomically) or to standard output, then one human
line on stderr echoes the parsed inputs and states the answer, and for a
certificate beyond the auditor's default budget one more names the
``auditor verify --budget N`` that checks it, unless ``--quiet``.
"""

import argparse
import sys

from producer.game.values import METHODS
from producer.game.work import MAX_BUDGET as GAME_MAX_BUDGET
from producer.errors import InputError
from producer.plain import MAX_BUDGET as PLAIN_MAX_BUDGET
from producer.output import write_output
from producer.rationals import EPSILONS_EXAMPLE, split_items

PAPER = "Exact Compilation and Resource Laws for Hidden Integer Feedback"
GAMMA_HELP = ("feedback coefficient γ = A/B, reduced, 0 < A < B (e.g. 1/3; an exact decimal such as 0.5 is read as "
              "1/2), or 0 for no hidden feedback "
              "(plain adaptive composition)")


GAME_BUDGET_HELP = (f"C: the number of participations, an integer 0 <= C <= {GAME_MAX_BUDGET} (the exact game's "
                    f"limit; beyond it: `producer hierarchy` for γ > 0, `producer plain` for δ(ε) at γ = 0 up to "
                    f"C = {PLAIN_MAX_BUDGET})")


MODEL_BUDGET_HELP = ("C: participations, C >= 2 (no fixed upper limit: the models' work and audit limits are "
                     "checked at once, naming the estimate)")


def add_model_question(parser):
    """The ``question`` group of the cut-game model commands (``minimum-deletion``, ``minimum-depth``):
    γ, σ², C, ε and δ; the caller adds its own options to the returned group."""
    group = parser.add_argument_group("question")
    group.add_argument("--gamma", required=True, metavar="A/B", help="feedback coefficient γ = A/B, 0 < A < B")
    group.add_argument("--sigma2", required=True, metavar="Q", help="σ² of the discrete-Gaussian innovations")
    group.add_argument("--budget", required=True, metavar="C", help=MODEL_BUDGET_HELP)
    add_epsilon_argument(group, "ε of the query", required=True)
    group.add_argument("--delta", required=True, metavar="D", help="the risk target δ in (0, 1)")
    return group


def add_model_numerics(parser):
    """The grid and source options of the cut-game model commands (``minimum-deletion``, ``minimum-depth``)."""
    numerics = parser.add_argument_group("numerics")
    numerics.add_argument("--upper-priors", metavar="N", help="interior grid priors of the upper (default 6000)")
    numerics.add_argument("--lower-priors", metavar="N", help="interior grid priors of the lower lines (default 1500)")
    numerics.add_argument("--radius", metavar="L", help="source radius L (default 24)")
    numerics.add_argument("--source-scale", metavar="S", help="source scale S, an integer or 2^k (default 2^48)")
    return numerics


def power_of_ten(n):
    """``10^k`` when n is a power of ten, else n with thousands separators (for help texts)."""
    text = str(n)
    return f"10^{len(text) - 1}" if text == "1" + "0" * (len(text) - 1) else f"{n:,}"


def add_output_arguments(parser, what="the certificate"):
    """``-o/--output FILE`` and ``--quiet`` (every command has both)."""
    group = parser.add_argument_group("output")
    group.add_argument("-o", "--output", metavar="FILE",
                       help=f"write {what} to FILE (atomically; default: standard output)")
    group.add_argument("--quiet", action="store_true",
                       help="no progress and no answer line on stderr")
    return group


def add_mechanism_arguments(parser, releases=False, budget_help=GAME_BUDGET_HELP):
    """γ, σ², C and the finite-game method: the request of ``dg`` and ``calibrate`` (``releases``: also
    ``--release``, a list of plain releases in the place of one law and C; then --budget is checked by the
    command; ``budget_help`` states the command's own limits on C)."""
    group = parser.add_argument_group("mechanism")
    group.add_argument("--gamma", default="0", metavar="A/B", help=f"{GAMMA_HELP} (default 0)")
    law = group.add_mutually_exclusive_group(required=True)
    law.add_argument("--sigma2", metavar="Q",
                     help="variance parameter σ² of the discrete-Gaussian innovations (the square: "
                          "σ = 3 is --sigma2 9); a rational such as 9 or 9/4")
    law.add_argument("--laplace", metavar="T",
                     help="discrete-Laplace innovations L_T(n) ∝ e^{−|n|/T} instead, scale T > 0 rational "
                          "(e.g. 2 or 5/2)")
    if releases:
        law.add_argument("--release", action="append", metavar="LAW:SCALE[:S]xK",
                         help="γ = 0 only: K releases of LAW (dg: discrete Gaussian σ² = SCALE, dl: discrete "
                              "Laplace t = SCALE) with integer sensitivity S >= 1 (default 1), e.g. dg:9x100, "
                              "dl:2x5, dg:4:2x20; repeat for more; total K <= 1024; excludes --sigma2, "
                              "--laplace, --budget (as `producer plain --release`)")
    group.add_argument("--budget", required=not releases, metavar="C", help=budget_help)
    group.add_argument("--method", choices=METHODS,
                       help="how the finite game's root preparations are searched (default: the "
                            "smallest proved method); the value does not depend on it")
    return group


class _Epsilons(argparse.Action):
    """--epsilon/--epsilons taking a list: comma-separated values, the option repeatable; a list of texts."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, list(getattr(namespace, self.dest, None) or []) + _split(self, values))


class _OneEpsilon(argparse.Action):
    """--epsilon/--epsilons where the question has one ε: a list or a repeat is refused (one line, exit 2),
    saying what answers several (``several``)."""

    def __init__(self, *args, several="run the command once for each", **kwargs):
        super().__init__(*args, **kwargs)
        self.several = several

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_epsilon_given", [])
        given += _split(self, values)
        if len(given) > 1:
            raise argparse.ArgumentError(self, f"one ε per certificate here, got {len(given)} "
                                               f"({', '.join(given)}); {self.several}")
        setattr(namespace, self.dest, given[0])


def _split(action, text):
    try:
        return split_items(text, item="ε", example=EPSILONS_EXAMPLE)
    except InputError as error:
        raise argparse.ArgumentError(action, str(error)) from None


def add_epsilon_argument(group, help, *, many=False, **kwargs):
    """The ε of the question, named --epsilon or --epsilons on every command (one option under both names).
    ``many``: a comma list or the option repeated, ``args.epsilon`` a list of texts; otherwise exactly one ε,
    ``args.epsilon`` a text, and a list or a repeat is refused in one line (``several=`` says what answers
    several)."""
    action, metavar = (_Epsilons, "E[,E...]") if many else (_OneEpsilon, "E")
    return group.add_argument("--epsilon", "--epsilons", dest="epsilon", action=action, metavar=metavar,
                              help=help, **kwargs)


def add_pld_question(parser):
    """The question of a certified privacy-loss distribution (``account``, ``dpsgd``): --delta or --epsilons,
    with --rel-width and --effort."""
    question = parser.add_argument_group("question (exactly one)")
    forms = question.add_mutually_exclusive_group(required=True)
    forms.add_argument("--delta", metavar="D",
                       help="δ in [10^-30, 1): certify an enclosure [ε_lo, ε_hi] of the smallest ε with δ(ε) <= δ")
    add_epsilon_argument(forms, "ε in [0, 500], comma-separated and/or the option repeated: certify an "
                                "enclosure of δ(ε) at each", many=True)
    question.add_argument("--rel-width", metavar="R",
                          help="relative width asked for: ε_hi − ε_lo <= R·ε_hi, or upper − lower <= R·upper "
                               "(default 1/1000)")
    question.add_argument("--effort", metavar="N",
                          help="opt in to N times the search's work limit (about N minutes; N from 1 to 8) and to "
                               "a certificate needing up to 8N times the auditor's budget of one file (it names "
                               "the auditor verify --budget that checks it); recorded in input.effort")


def progress_of(args):
    """True when progress lines are wanted on stderr."""
    return not args.quiet


def say(args, line):
    """One line on stderr unless --quiet."""
    if not args.quiet and sys.stderr is not None:  # None when started with stderr closed
        print(line, file=sys.stderr, flush=True)


def finish(args, certificate):
    """Write ``certificate`` (a producer.api.Certificate) and state its claim; exit status 0.

    A certificate whose check needs more than the auditor's default budget of one file is followed by its
    notice, the ``auditor verify --budget N`` that checks it (:mod:`producer.audit_budget`).
    """
    write_output(certificate.to_json(), args.output)
    say(args, certificate.claim)
    if certificate.notice:
        say(args, certificate.notice)
    return 0
