-- error: rule 37: the module does not match the module type: val x has type i32 but the specification requires i32 → i32
-- a value of the wrong type.
module M = {def x = 1} : {val x: i32 -> i32}
