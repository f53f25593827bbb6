//! libFuzzer target for the parser: no input may panic, and every program that
//! parses must print to a program that parses back to the same tree.

#![no_main]

use libfuzzer_sys::fuzz_target;
use spec::source::FileId;
use spec::syntax::{parse_program, printer::print_program};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(program) = parse_program(FileId(0), text) {
        let printed = print_program(&program);
        match parse_program(FileId(0), &printed) {
            Ok(reparsed) => assert!(reparsed == program, "round trip changed the tree:\n{printed}"),
            Err(d) => panic!("printed program does not parse: {}\n{printed}", d.message),
        }
    }
});
