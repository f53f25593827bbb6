-- Found by the cargo-fuzz `parse` target: a numeral field needs `= e`;
-- only a name may stand alone in a record (`{x}` means `{x = x}`).
def r = {9}
