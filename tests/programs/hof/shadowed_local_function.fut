-- A local function shadowing an outer binding; the outer one is visible
-- again after the local scope.
-- ==
-- input { 5 } output { 11 6 }
def main (x: i32) =
  let f (y: i32) = y + 1
  let a = (let f (y: i32) = y * 2 in f x) + 1
  in (a, f x)
