-- error: rule 16: E ⊢ mty : ∃T.E' requires a non-parameterised module type
-- `with` on a parameterised module type.
module type F = (X: {type t}) -> {type u}
module type G = F with u = i32
