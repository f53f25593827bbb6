-- error: rule 9: E(X.u) is undefined
-- the premise E + {mid ↦ E'} ⊢ mty₂ of rule 18 fails.
module type S = (X: {type t}) -> {val x: X.u}
