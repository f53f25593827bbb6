-- error: rule 28: E ⊢ mty : ∃T.E' requires a non-parameterised parameter module type
-- a functor whose parameter is a functor.
module F = \(X: (Y: {}) -> {}) -> {}
