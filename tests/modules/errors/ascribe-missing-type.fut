-- error: rule 37: the module does not match the module type: missing type t
-- a missing type.
module M = {def x = 1} : {type t}
