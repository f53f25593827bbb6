-- In-place updates (issue 23, deliverable 5): a loop of `k` updates of an
-- `n`-element array. In `in_place` each update consumes the loop's own
-- array, which the uniqueness judgment accepts (proofs-notes/uniqueness.md,
-- U-Loop: a loop parameter the body consumes), so the backend updates it
-- without copying. `copying` makes the same updates to a copy and reads the
-- original after each update (a running sum of its next elements), so
-- the copy is real: what an update costs when it cannot be made in place.
-- Same arrays, so the ratio of the two is the cost of the copies.
-- ==
-- entry: in_place copying
-- input { 5i64 3i64 } output { [0i64, 1i64, 2i64, 0i64, 0i64] }
-- input { 3i64 7i64 } output { [9i64, 5i64, 7i64] }
-- input { 0i64 0i64 } output { empty([0]i64) }

-- ==
-- entry: in_place copying
-- tags { large }
-- notest input { 10000000i64 100i64 }

entry in_place (n: i64) (k: i64) : []i64 =
  loop xs = replicate n 0 for i < k do
    let at = i % n
    in xs with [at] = xs[at] + i

entry copying (n: i64) (k: i64) : []i64 =
  let (xs, _) =
    loop (xs, overwritten) = (replicate n 0, 0) for i < k do
      let at = i % n
      let ys = (copy xs) with [at] = xs[at] + i
      in (ys, overwritten + xs[(at + 1) % n])
  in xs
