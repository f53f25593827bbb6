-- `loop x for ...` takes the initial value from the variable in scope.
-- ==
-- input { 2 } output { 32 }
def main (x: i32) = loop x for _i < 4 do x * 2
