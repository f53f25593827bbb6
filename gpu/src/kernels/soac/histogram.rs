//! `reduce_by_index`: see below.
