-- Bubble sort with nested loops and in-place updates.
-- ==
-- input { [5, 2, 9, 1, 5, 6] } output { [1, 2, 5, 5, 6, 9] }
-- input { empty([0]i32) } output { empty([0]i32) }
def main (xs: *[]i32) =
  let n = length xs
  in loop xs for i < n do
       loop xs for j < n - i - 1 do
         if xs[j] > xs[j + 1]
         then let a = xs[j] let b = xs[j + 1] in xs with [j] = b with [j + 1] = a
         else xs
