-- error: rule 9: E(t) is undefined
-- E + E₁ ⊢ spec₂: a specification sees only the ones before it.
module type S = {val x: t type t}
