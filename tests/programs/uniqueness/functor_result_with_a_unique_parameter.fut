-- A functor's body consuming a unique parameter of one of its functions,
-- called with fresh storage and with a unique parameter (accepted).
-- ==
-- input { [1, 2, 3] } output { [1, 3, 3] [2, 2, 3] }

module type step = { val at : i64 }

module bumper (s: step) = {
  def bump (cs: *[]i32) : *[]i32 = cs with [s.at] = cs[s.at] + 1
}

module second = bumper { def at : i64 = 1 }
module first = bumper { def at : i64 = 0 }

def main (xs: *[]i32) : ([]i32, []i32) =
  (second.bump (copy xs), first.bump xs)
