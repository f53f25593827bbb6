-- error: rule 37: the module does not match the module type: parameter: type t is
-- contravariance (ICFP18-4) in rule 37.
module M : (X: {type t}) -> {} = \(X: {type t = i32}) -> {}
