//! `filter`: see below.
