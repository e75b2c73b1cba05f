"""``producer hierarchy-exact``: exact hierarchy values of a finite law, the chain and its gaps."""

from producer import api
from producer.commands.common import add_output_arguments, finish, progress_of

HELP = "exact values of commitment-hierarchy games (G_C, P_H, Q_H, U_S) for a finite law, with their chain"
DESCRIPTION = (f"{HELP} (hierarchy-exact/1).  Every value is the exact root function u(t) of the game at the "
               "prior t, computed on exact piecewise-linear curves; the chain lists the gaps between "
               "consecutive models in the order given.  Limits: C <= 6, B <= 9, at most 9 weights "
               "(total <= 10^6), 16 priors, 16 models; per model 5,000 pending keys, 10,000 branches, "
               "256 selectors for Q_H, 10,000 vertices per node curve.")
USAGE = ("producer hierarchy-exact --gamma A/B --weights W,... [--offset O] --budget C --prior T[,T...] "
         "--models G,P3,P2,Q2,P1,U:1+2 [-o FILE] [--quiet]")


def add_arguments(parser):
    group = parser.add_argument_group("game")
    group.add_argument("--gamma", required=True, metavar="A/B", help="feedback coefficient γ = A/B, reduced, 0 < A < B")
    group.add_argument("--weights", required=True, metavar="W,...",
                       help="integer weights of the finite law ν (ν(z) ∝ w_z), e.g. 1,1,1")
    group.add_argument("--offset", metavar="O", help="the support point of the first weight (default −(len−1)//2)")
    group.add_argument("--budget", required=True, metavar="C", help="C: participations (1 <= C <= 6)")
    group.add_argument("--prior", required=True, metavar="T[,T...]",
                       help="prior(s) t in [0, 1] where the root functions are evaluated, e.g. 1/2")
    group.add_argument("--models", default="G,P3,P2,Q2,P1", metavar="M,...",
                       help="models in chain order: G (full game G_C), P<H> (proof hierarchy), Q<H> (fixed-selector "
                            "portfolio), U:<cuts joined by +> | U:none | U:all (cut game); default G,P3,P2,Q2,P1")
    add_output_arguments(parser)


def run(args):
    certificate = api.hierarchy_exact(args.gamma, args.weights, args.budget, args.prior, args.models,
                                      offset=args.offset, progress=progress_of(args))
    return finish(args, certificate)
