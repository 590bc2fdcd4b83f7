"""The spec: what an MXFP4 GEMM for `amd-mxfp4-mm` must compute, as code.

`formats` (E2M1 and E8M0), `quant` (the bit-exact quantizer, both rounding rules), `layouts` (the
preshuffled weight and scale layouts with their inverses), `reference` (the contest's inputs, reference
and check), `shapes` (the contest's shapes), `validate` (argument checks that name the argument and
the rule), `ints` (integer and shape rules in plain Python), `devices` (facts about the MI355X and H200
and how a running device is read), `seed` (the seed submission's route and launch facts) and
`aiter_rules` (aiter's own kernel-choice rules). Everything else in mxlib must agree with these modules;
they import only torch (some, none at all).
"""
