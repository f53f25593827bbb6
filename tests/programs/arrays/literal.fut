-- Array literals and indexing (T-Array, T-Index).
-- ==
-- input { 1i64 } output { 20 }
def main (i: i64) = [10, 20, 30][i]
