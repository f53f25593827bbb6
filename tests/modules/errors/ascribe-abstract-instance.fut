-- error: rule 37: the module does not match the module type: val x has type i32 but the specification requires i32 → i32
-- S(t) = i32 from the type, then x does not fit t → t.
module M = {type t = i32 def x : t = 1} : {type t val x: t -> t}
