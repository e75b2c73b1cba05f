"""``producer deadline``: finite-deadline physical lower witnesses (deadline-witness/1)."""

from producer import api
from producer.commands.common import add_epsilon_argument, add_output_arguments, finish, progress_of
from producer.kinds.deadline_witness import READINGS

HELP = "lower bounds H_{e^ε}(P_T‖Q_T) >= LB_T of the physical DG program at deadlines T (deadline-witness)"


def add_arguments(parser):
    parser.add_argument("--gamma", required=True, metavar="A/B", help="γ = A/B, reduced, 0 < A < B")
    parser.add_argument("--sigma2", required=True, metavar="Q", help="σ² of the discrete Gaussian (rational)")
    parser.add_argument("--budget", required=True, metavar="C",
                        help="C: the participation budget of the question (each suffix participates at most C "
                             "times; both readings need C >= 2)")
    add_epsilon_argument(parser, "ε >= 0, read exactly", required=True)
    parser.add_argument("--radius", required=True, metavar="L", help="L: source support [−L, L]")
    parser.add_argument("--scale", required=True, metavar="S",
                        help="S: integer total weight of the source (e.g. 10^24 as 1e24)")
    parser.add_argument("--threshold-denominator", default="1e30", metavar="N",
                        help="N: λ₋ = floor(N·e^ε)/N, λ₊ = λ₋ + 1/N (default 1e30)")
    parser.add_argument("--deadline", action="append", required=True, metavar="T",
                        help="a horizon T (repeatable)")
    parser.add_argument("--reading", choices=tuple(READINGS), default="fixed",
                        help="fixed: suffix (+1,+1,echo); max: best of the four sign patterns per start state")
    parser.add_argument("--reference", action="store_true",
                        help="embed a dg-interval/1 upper end of Δ*_C(ε) at the same source (checked in full by "
                             "the auditor) and report each lower end's ratio to it")
    add_output_arguments(parser)


def run(args):
    certificate = api.deadline_witness(args.gamma, args.sigma2, args.epsilon, args.radius, args.scale,
                                       args.deadline, budget=args.budget,
                                       threshold_denominator=args.threshold_denominator,
                                       reading=args.reading, reference=args.reference, progress=progress_of(args))
    return finish(args, certificate)
