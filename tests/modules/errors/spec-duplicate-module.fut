-- error: rule 23: Dom E₁ ∩ Dom E₂ = ∅: module M is specified twice
-- two specifications of one module.
module type S = {module M: {} module M: {}}
