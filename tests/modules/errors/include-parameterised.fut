-- error: rule 22: E ⊢ mty : ∃T.E' requires a non-parameterised module type: cannot include a parameterised module type
-- include of a functor type.
module type F = (X: {}) -> {}
module type S = {include F}
