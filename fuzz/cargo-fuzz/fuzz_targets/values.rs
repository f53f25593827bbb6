//! libFuzzer target for the value reader (text, binary, or mixed): no input may
//! panic, and every accepted input prints to text that reads back to the same
//! values.

#![no_main]

use libfuzzer_sys::fuzz_target;
use spec::value::{print_values, read_values};

fuzz_target!(|data: &[u8]| {
    if let Ok(values) = read_values(data) {
        let printed = print_values(&values);
        match read_values(printed.as_bytes()) {
            Ok(again) => assert!(again == values, "printing changed the values:\n{printed}"),
            Err(e) => panic!("printed values do not read back: {}\n{printed}", e.message),
        }
    }
});
