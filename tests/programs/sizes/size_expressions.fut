-- Size expressions in types (Futhark's `[n+1]`, `[n+m]`, `[n/2]`,
-- `[i64.max a b]`): `i64` expressions over the names in scope, in
-- parameter and result types, ascriptions and coercions. runestone takes
-- each for an unknown size (SPEC_NOTES TFP18-25).
-- ==
-- input { [1, 2, 3] [4, 5] }
-- output { [1, 2, 3, 0] [1, 2, 3, 4, 5] [[1, 2], [3, 4], [5, 6]] 7i64 }

def snoc [n] (xs: [n]i32) (x: i32) : [n + 1]i32 = xs ++ [x]

def append [n] [m] (xs: [n]i32) (ys: [m]i32) : [n + m]i32 = xs ++ ys

def pairs [n] (xs: [n]i32) : [n / 2][2]i32 = unflatten (n / 2) 2 xs

entry main (xs: []i32) (ys: []i32) =
  let zs : [i64.max 3 2]i32 = xs :> [i64.max 3 2]i32
  let v : [1 + 1]i32 = [1, 2]
  in ( snoc zs 0
     , append xs ys
     , pairs [1, 2, 3, 4, 5, 6] :> [3][2]i32
     , length (snoc (append xs ys) 1) + length v - 1
     )
