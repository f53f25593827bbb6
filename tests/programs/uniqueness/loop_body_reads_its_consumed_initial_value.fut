-- A loop that consumes its initial value `xs` (the body updates the
-- parameter) may not read `xs` in its body: the updates, made in place,
-- would change what it reads (U-Loop; found reviewing the reference's
-- transcription).
-- ==
-- error: Using `xs`, but this was consumed

def main (xs: *[]i32) : []i32 =
  loop acc = xs for i < 2 do acc with [i] = xs[i + 1]
