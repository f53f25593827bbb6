-- error: rule 27: E(K) = E': unknown module K
-- an unbound module identifier.
module N = K
