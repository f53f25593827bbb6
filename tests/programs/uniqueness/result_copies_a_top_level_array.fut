-- The accepted form of result_aliases_a_top_level_array.fut: a copy of the
-- row, and a constant (no parameters) that aliases another constant.
-- ==
-- input { 1i64 } output { [3, 4] 2 }

def table : [][]i32 = [[1, 2], [3, 4]]

def first_row : []i32 = table[0]

def row (i: i64) : []i32 = copy table[i]

def main (i: i64) : ([]i32, i32) = (row i, first_row[1])
