-- error: rule 26: E ⊢ mexp : ∃T.E' requires a structure: cannot project K from a parameterised module
-- projection from a functor.
module F (X: {}) = {}
module N = F.K
