-- error: rule 9: E(nosuch) is undefined
-- the premise E ⊢ ty : τ of rule 16 fails.
module type S = {type t} with t = nosuch
