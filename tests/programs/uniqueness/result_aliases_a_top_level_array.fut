-- A function's result may alias its parameters but no free variable
-- (proofs-notes/uniqueness.md U-Def; code return-aliases-free): here the
-- row of a top-level array.
-- ==
-- error: Function result aliases the free variable `table`

def table : [][]i32 = [[1, 2], [3, 4]]

def row (i: i64) : []i32 = table[i]

def main (i: i64) : []i32 = row i
