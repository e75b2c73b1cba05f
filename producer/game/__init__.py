"""The finite-law game G_C / F_q.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §3.1, §4 and Appendices A, C, F;
docs/mechanism.md §4.)
"""
