//! The parser never panics, whatever it is given: arbitrary strings, and
//! "token soup" — random sequences of Futhark tokens, which reach much deeper
//! into the grammar than random characters do. Each property runs 10 000 cases.

use proptest::prelude::*;
use spec::source::FileId;
use spec::syntax::{parse_expr, parse_program, parse_type};

const TOKENS: &[&str] = &[
    "def", "entry", "let", "in", "if", "then", "else", "loop", "for", "while", "do", "with",
    "match", "case", "module", "type", "type^", "type~", "val", "open", "local", "include",
    "import", "\"f\"", "x", "y", "m", "i32", "f32", "t", "_", "0", "1", "2.5", "3i8", "1f32",
    "true", "false", "(", ")", "[", "]", "{", "}", ",", ":", ":>", ".", "..", "...", "..<", "..>",
    "=", "->", "\\", "`", "'", "'^", "'~", "?", "#c", "#[", "+", "-", "*", "/", "<", ">", "<=",
    "==", "!=", "!", "&&", "||", "|>", "<|", "|", "&", "^", "**", "%", " ", "\n",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(TOKENS), prop::bool::ANY), 0..60).prop_map(
        |tokens| {
            tokens
                .into_iter()
                .map(|(token, space)| {
                    if space {
                        format!("{token} ")
                    } else {
                        token.to_string()
                    }
                })
                .collect()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = parse_program(FileId(0), &text);
        let _ = parse_expr(FileId(0), &text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse_program(FileId(0), &String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn token_soup_never_panics(text in token_soup()) {
        let _ = parse_program(FileId(0), &text);
        let _ = parse_expr(FileId(0), &text);
        let _ = parse_type(FileId(0), &text);
    }

    #[test]
    fn declarations_of_token_soup_never_panic(body in token_soup()) {
        let _ = parse_program(FileId(0), &format!("def main = {body}"));
        let _ = parse_program(FileId(0), &format!("module m = {{ {body} }}"));
        let _ = parse_program(FileId(0), &format!("module type mt = {{ {body} }}"));
    }
}
