-- error: rule 15: E(Nope) = Σ: unknown module type Nope
-- the premise E ⊢ mty of rule 28 fails.
module F (X: Nope) = {}
