//! `scatter`: see below.
