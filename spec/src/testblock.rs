//! Futhark's `-- ==` test blocks.
