-- Every item of a `futhark test` block is understood. A block or case
-- tagged `no_B` is not run on backend B (as Futhark's `no_opencl`): the
-- second block's expected outputs are wrong on purpose, so the program
-- passes only if each backend skips it. `warning:` items are reported as
-- skipped (runestone emits no warnings) and so are `structure` items (they
-- count statements of Futhark's own intermediate representation).
-- ==
-- entry: halve
-- tags { arithmetic }
-- warning: unused
-- structure { BinOp 1 }
-- structure gpu-mem { Alloc 0 }
-- input { 8 } output { 4 }
-- "negative" nobench input { -8 } output { -4 }

-- ==
-- entry: halve
-- no_reference no_cpu no_gpu input { 8 } output { 5 }

-- ==
-- entry: double
-- tags { no_reference no_cpu no_gpu }
-- input { 8 } output { 17 }

entry halve (x: i32) : i32 = x / 2

entry double (x: i32) : i32 = x * 2
