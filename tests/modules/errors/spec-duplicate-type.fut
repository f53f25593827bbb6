-- error: rule 23: Dom E₁ ∩ Dom E₂ = ∅: type t is specified twice
-- two specifications of one type.
module type S = {type t type t}
