-- error: rule 29: E ⊢ mexp : ∃T.E' requires the argument to be a structure: the argument is a parameterised module
-- the argument is a functor.
module F (X: {}) = {}
module N = F(F)
