-- error: rule 23: Dom E₁ ∩ Dom E₂ = ∅: val x is specified twice
-- an include repeats a value specification.
module type A = {val x: i32}
module type B = {val x: i32 include A}
