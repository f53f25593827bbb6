-- error: rule 12: the expression does not have the ascribed type
-- after an opaque ascription M.t is not i32.
module M = {type t = i32 def x : t = 1} : {type t val x: t}
def y : i32 = M.x
