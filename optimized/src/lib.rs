//! The optimising compiler: inference with diagnostics, memoised static
//! interpretation, monomorphisation, defunctionalisation, a typed first-order SOAC
//! IR with its passes, and the parallel CPU backend.
//!
//! Nothing is implemented yet (the optimising-compiler issue). It never calls into
//! `reference/`: the two implementations stay independent so that the differential
//! tests mean something.
