//! The values of test cases (`super::data`): one table, each row a program
//! with one case, the data files beside it, and the input and expected output
//! the case gives (printed), or the error as `file:line:col: message`.

use super::*;
use crate::source::SourceMap;
use crate::value::{print_values, PrimValue, Value};

/// Writes `files` into a fresh directory, parses `program` there and reads
/// its first case's input and expected output.
fn case_values(name: &str, program: &str, files: &[(&str, &[u8])]) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!(
        "runestone-testblock-data-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for (file, bytes) in files {
        std::fs::write(dir.join(file), bytes).map_err(|e| e.to_string())?;
    }
    let mut sources = SourceMap::new();
    let file = sources.add("prog.fut", program);
    let parsed = parse_test_file(file, program).map_err(|_| "bad block".to_string())?;
    let BlockKind::Cases(cases) = &parsed.blocks[0].kind else {
        return Err("no cases".into());
    };
    let located = |d: Diagnostic, sources: &SourceMap| {
        let span = d.primary_span().expect("a located diagnostic");
        let source = sources.get(span.file);
        let (line, column) = source.line_column(span.start as usize);
        format!("{}:{line}:{column}: {}", source.name, d.message)
    };
    let result = case_input(&cases[0], &dir, &mut sources)
        .and_then(|input| {
            let output = case_expected_output(&cases[0].expected, &dir, &mut sources)?;
            Ok((input, output))
        })
        .map_err(|d| located(d, &sources));
    std::fs::remove_dir_all(&dir).map_err(|e| e.to_string())?;
    let (input, output) = result?;
    let shown = |vs: &[Value]| print_values(vs).trim_end().replace('\n', " ");
    Ok(match output {
        Some(out) => format!("{} -> {}", shown(&input), shown(&out)),
        None => shown(&input),
    })
}

fn check(name: &str, program: &str, files: &[(&str, &[u8])], expected: &str) -> Option<String> {
    let actual = case_values(name, program, files).unwrap_or_else(|e| format!("error {e}"));
    let dir_free = actual.replace(&std::env::temp_dir().display().to_string(), "<tmp>");
    let dir_free = dir_free.replace(
        &format!("runestone-testblock-data-{}-{name}", std::process::id()),
        "<dir>",
    );
    (dir_free != expected)
        .then(|| format!("{name}:\n  expected: {expected}\n  actual:   {dir_free}"))
}

/// A binary `[3]i32` value: `b`, version 2, rank 1, ` i32`, shape, data.
fn binary_i32s(values: &[i32]) -> Vec<u8> {
    let mut out = vec![b'b', 2, 1];
    out.extend_from_slice(b" i32");
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// Data files: (name, contents).
type Files<'a> = &'a [(&'a str, &'a [u8])];

/// (name, program, data files, expected input -> output or error).
type Row<'a> = (&'a str, &'a str, Files<'a>, &'a str);

#[test]
fn case_values_table() {
    let binary = binary_i32s(&[7, -1, 3]);
    let rows: &[Row] = &[
        (
            "inline",
            "-- ==\n-- input { [1, 2] 3i64 } output { 6i64 }\n",
            &[],
            "[1i32, 2i32] 3i64 -> 6i64",
        ),
        (
            "text_file",
            "-- ==\n-- input @ in.txt output @ out.txt\n",
            &[("in.txt", b"[1.5f32, 2f32]\n-- a comment\ntrue"), ("out.txt", b"3.5f32")],
            "[1.5f32, 2.0f32] true -> 3.5f32",
        ),
        (
            "binary_file",
            "-- ==\n-- input @ in.bin\n",
            &[("in.bin", &binary)],
            "[7i32, -1i32, 3i32]",
        ),
        (
            "missing_file",
            "-- ==\n-- input @ nowhere.in\n",
            &[],
            "error prog.fut:2:12: cannot read data file <tmp>/<dir>/nowhere.in: No such file or directory (os error 2)",
        ),
        (
            "malformed_file",
            "-- ==\n-- input @ bad.in\n",
            &[("bad.in", b"1i32\n[1, true]")],
            "error <tmp>/<dir>/bad.in:2:5: array elements differ in type: earlier elements are i32, this one is bool",
        ),
        (
            "bad_inline_value",
            "-- ==\n-- input { 1 2 } output { 300u8 }\n",
            &[],
            "error prog.fut:2:27: `300u8` is out of range for u8",
        ),
        (
            "random_scalars",
            "-- ==\n-- random input { bool (i8, u8) }\n",
            &[],
            // Whatever the generator gives, it gives again: pinned.
            "true (99i8, 19u8)",
        ),
        (
            "random_bad_type",
            "-- ==\n-- random input { [10]f16 }\n",
            &[],
            "error prog.fut:2:23: f16 is not supported",
        ),
        (
            "random_too_large",
            "-- ==\n-- random input { [100000][100000]f32 }\n",
            &[],
            "error prog.fut:2:18: random input too large: at most 268435456 scalars can be generated",
        ),
        (
            "script",
            "-- ==\n-- script input { f 1 }\n",
            &[],
            "error prog.fut:2:18: `script input` is not supported: runestone has no FutharkScript",
        ),
    ];
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|(name, program, files, expected)| check(name, program, files, expected))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Random values: the requested shapes, floats in [0, 1), integers spread over
/// their whole range, the same values for the same types wherever written, and
/// other values for other types.
#[test]
fn random_inputs_follow_futhark_dataset_ranges_and_repeat() {
    let types = crate::value::read_types("[2000]f32 [2000]f64 [2000]i8 [3][4]u64").unwrap();
    let seed = random_seed("[2000]f32  [2000]f64\n [2000]i8 [3][4]u64");
    let values = crate::value::random_values(&types, seed).unwrap();
    let again = crate::value::random_values(&types, seed).unwrap();
    assert_eq!(values, again);
    assert_eq!(seed, random_seed("[2000]f32 [2000]f64 [2000]i8 [3][4]u64"));
    assert_ne!(seed, random_seed("[2001]f32 [2000]f64 [2000]i8 [3][4]u64"));
    let floats32 = values[0]
        .as_array()
        .unwrap()
        .data()
        .as_slice::<f32>()
        .unwrap();
    assert!(floats32.iter().all(|x| (0.0..1.0).contains(x)));
    assert!(floats32.iter().any(|&x| x < 0.01) && floats32.iter().any(|&x| x > 0.99));
    let floats64 = values[1]
        .as_array()
        .unwrap()
        .data()
        .as_slice::<f64>()
        .unwrap();
    assert!(floats64.iter().all(|x| (0.0..1.0).contains(x)));
    let bytes = values[2]
        .as_array()
        .unwrap()
        .data()
        .as_slice::<i8>()
        .unwrap();
    assert!(bytes.contains(&i8::MIN) && bytes.contains(&i8::MAX));
    assert_eq!(values[3].as_array().unwrap().shape(), &[3, 4]);
    let other = crate::value::random_values(&types, seed ^ 1).unwrap();
    assert_ne!(values, other);
    let unit = crate::value::random_values(
        &[crate::value::ValueType::Prim(crate::value::PrimType::Bool)],
        0,
    )
    .unwrap();
    assert!(matches!(unit[0], Value::Prim(PrimValue::Bool(_))));
}
