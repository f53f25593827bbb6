-- A structure's values reached by a path (ICFP'18 static interpretation to
-- the TFP'18 core). This program was rejected by the module-free front end
-- before the module calculus' TFP'18 core instance existed.
-- ==
-- input { } output { 1 }
module m = { def x = 1i32 }
def main = m.x
