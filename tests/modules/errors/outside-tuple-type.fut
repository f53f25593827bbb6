-- error: outside the paper's core: this type expression
-- tuple types are outside the paper's core.
module type S = {type t} with t = (i32, i32)
