type t = [n i32
