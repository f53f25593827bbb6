//! Differential testing: generators of well-typed programs, the oracles that
//! compare implementations and check the papers' theorems, and campaigns.
//!
//! Nothing is implemented yet (the differential-testing issue). The generators of
//! surface syntax trees used by the parser's round-trip property live with the
//! parser's tests in `spec/tests/` until this crate takes them over.
