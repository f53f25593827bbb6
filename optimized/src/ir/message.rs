//! The messages of IR assertions: a template whose placeholders the values
//! of the assertion's operands fill when it fails (`Range {value}..{value}
//! ...{value} is invalid.`), so a run-time error can name the values the
//! reference names. Every backend reports a failed assertion through
//! [`fill`].
//!
//! Placeholders, filled in order, one operand each: `{value}` writes the
//! value as the Futhark value format does (`4i64`, `-1i8`); `{number}`
//! writes it without its type (`-3`). A template with no operands is the
//! message itself (braces in it are plain text).

use super::PrimValue;

/// The placeholder for a value as Futhark writes it (`4i64`).
pub const VALUE: &str = "{value}";

/// The placeholder for a number without its type (`-3`).
pub const NUMBER: &str = "{number}";

/// `template` with its first `values.len()` placeholders replaced, in order,
/// by `values`; a placeholder left over stays as it is.
pub fn fill(template: &str, values: &[PrimValue]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    for value in values {
        let next = [VALUE, NUMBER]
            .into_iter()
            .filter_map(|p| rest.find(p).map(|at| (at, p)))
            .min();
        let Some((at, placeholder)) = next else {
            break;
        };
        out.push_str(&rest[..at]);
        if placeholder == VALUE {
            out.push_str(&value.to_string());
        } else {
            out.push_str(&bare_number(*value));
        }
        rest = &rest[at + placeholder.len()..];
    }
    out.push_str(rest);
    out
}

/// How many placeholders `template` has.
pub fn placeholder_count(template: &str) -> usize {
    template.matches(VALUE).count() + template.matches(NUMBER).count()
}

fn bare_number(value: PrimValue) -> String {
    match value {
        PrimValue::I8(x) => x.to_string(),
        PrimValue::I16(x) => x.to_string(),
        PrimValue::I32(x) => x.to_string(),
        PrimValue::I64(x) => x.to_string(),
        PrimValue::U8(x) => x.to_string(),
        PrimValue::U16(x) => x.to_string(),
        PrimValue::U32(x) => x.to_string(),
        PrimValue::U64(x) => x.to_string(),
        PrimValue::F32(x) => x.to_string(),
        PrimValue::F64(x) => x.to_string(),
        PrimValue::Bool(x) => x.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(template: &str, values: &[PrimValue], expected: &str) {
        assert_eq!(fill(template, values), expected, "{template} {values:?}");
    }

    #[test]
    fn fills_placeholders_in_order() {
        check(
            "Range {value}..{value}..<{value} is invalid.",
            &[PrimValue::I64(4), PrimValue::I64(5), PrimValue::I64(0)],
            "Range 4i64..5i64..<0i64 is invalid.",
        );
        check(
            "Range 0..1..<{number} is invalid.",
            &[PrimValue::I64(-3)],
            "Range 0..1..<-3 is invalid.",
        );
        check(
            "{number} and {value}",
            &[PrimValue::I8(-1), PrimValue::U8(2)],
            "-1 and 2u8",
        );
        check("a {record: i32} type", &[], "a {record: i32} type");
        check(
            "only {value} of {value}",
            &[PrimValue::Bool(true)],
            "only true of {value}",
        );
    }
}
