"""Python tools under RestrictedPython, run in hardened worker processes.

Layers, outermost first (see docs/sandbox.md for which are active where):
the worker process (own uid, no network, rlimits, seccomp, empty root) → the restricted language
(compile-time policy, run-time guards, facade imports). Either layer alone must hold.
"""
