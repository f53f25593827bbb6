-- error: rule 15: E(Nope) = Σ: unknown module type Nope
-- the premise E ⊢ mty₁ of rule 18 fails.
module type S = (X: Nope) -> {}
