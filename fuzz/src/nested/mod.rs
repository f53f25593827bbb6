//! Campaigns for the nested-data-parallelism oracle (Leshchinskiy 2005).

pub mod campaign;
pub mod generate;
pub mod generate_c;
