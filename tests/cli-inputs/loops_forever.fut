-- Case #1 never ends on a backend without the reference's step limit (fuel):
-- `runestone test --timeout` must stop it and go on (tests/cli_isolation.rs).
-- ==
-- input { false } output { 0i32 }
-- input { true } output { 0i32 }

def main (forever: bool) : i32 =
  loop x = 0i32 while forever do x + 1
