-- error: rule 12: the expression does not have the ascribed type: found i32, expected i32 → i32
-- a core ascription that does not hold.
def x = (1 : i32 -> i32)
