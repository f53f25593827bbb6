-- error: rule 37: the module does not match the module type: in module N: missing val x
-- a missing value in a nested module.
module M = {module N = {}} : {module N: {val x: i32}}
