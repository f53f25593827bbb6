-- A case may carry free-form tags before its input, as `futhark test`
-- reads them (`runestone test --exclude-tag T` skips it); `compiled`
-- cases are not run by the reference, an interpreter.
-- ==
-- no_python input { 2 } output { 4 }
-- "tagged and named" no_opencl slow input { -3 } output { -6 }
-- compiled no_python input { 5 } output { 10 }

entry main (x: i32) : i32 = x * 2
