-- error: rule 37: the module does not match the module type: missing val x
-- a missing value.
module M = {} : {val x: i32}
