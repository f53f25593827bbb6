-- `map2` of a `[3]` and a `[4]` array in a program that names a numeric
-- module (`f32.u16`, so the reference takes the module calculus): rejected,
-- as in Futhark (SPEC_NOTES TFP18-19). Found by `runestone fuzz --oracle
-- verdict --seed 7` (program 2479, a `SizeMismatch` mutant), whose
-- reference verdict skipped T-ConstantSizes on that path.
-- ==
-- error: sizes do not match
def main (x: u16) : f32 =
  let n = length (map2 (\(p: i32) (q: i8) -> p) [1i32, 2i32, 3i32] (replicate 4i64 1i8))
  in f32.u16 x + f32.i64 n
