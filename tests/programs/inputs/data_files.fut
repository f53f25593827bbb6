-- Inputs and expected outputs read from data files (`@ FILE`, relative to
-- this program): textual values, Futhark's binary format, and both mixed in
-- one file.
-- ==
-- input @ data/dot_text.in output @ data/dot_text.out
-- input @ data/dot_binary.in output { 32i32 }
-- input { [1, 2, 3] [4, 5, 6] } output @ data/dot_text.out
def main [n] (xs: [n]i32) (ys: [n]i32) : i32 = reduce (+) 0 (map2 (*) xs ys)
