-- Uniqueness survives static interpretation: a module's function keeps its
-- `*` parameter, so passing it a non-unique parameter is rejected
-- (U-Apply, U-Consume).
-- ==
-- error: Would consume `xs`, which is not consumable

module counters = {
  def bump (cs: *[]i32) (i: i64) : *[]i32 = cs with [i] = cs[i] + 1
}

def main (xs: []i32) : []i32 = counters.bump xs 0
