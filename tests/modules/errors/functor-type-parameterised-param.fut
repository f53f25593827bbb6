-- error: rule 18: E ⊢ mty₁ : ∃T.E' requires a non-parameterised parameter module type
-- the parameter of a functor type is itself parameterised.
module type S = (X: (Y: {type t}) -> {type t}) -> {type u}
