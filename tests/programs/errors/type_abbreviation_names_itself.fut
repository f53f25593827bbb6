-- A type abbreviation is not recursive: its definition is resolved where it
-- is declared, where `t` is not yet bound (the reference once expanded
-- `type t = t` forever; SPEC_NOTES ICFP18-21).
-- ==
-- error: unknown type .?t
type t = t
def main (x: i32) : t = x
