-- error: rule 33: E ⊢ mexp : ∃T.E' requires a structure: cannot open a parameterised module
-- open of a functor.
module F (X: {}) = {}
open F
