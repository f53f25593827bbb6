//! libFuzzer target for the `-- ==` test-block reader: no input may panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use spec::source::FileId;
use spec::testblock::parse_test_file;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = parse_test_file(FileId(0), text);
    }
});
