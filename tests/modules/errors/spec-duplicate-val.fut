-- error: rule 23: Dom E₁ ∩ Dom E₂ = ∅: val x is specified twice
-- two specifications of one value.
module type S = {val x: i32 val x: i32}
