-- error: rule 29: argument does not match the parameter module type: in module G: parameter: type t is
-- contravariance (ICFP18-4): a functor that only accepts t = i32 is no instance of one accepting any t.
module F (X: {module G: (Y: {type t}) -> {}}) = {}
module N = F({module G = \(Y: {type t = i32}) -> {}})
