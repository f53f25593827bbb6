//! The signature of a finding: what repeated findings of one bug share, so
//! that a campaign's disagreements (and CI's, across runs) bucket together,
//! as GraphicsFuzz buckets crashes by signature. A signature is the oracle,
//! the check that failed (the oracle's own name for it: `values differ`,
//! `Theorem 2`, `reference accepts, optimized rejects`), and the set of
//! constructs of the shrunk program (`fuzz::gen::coverage`'s names), whose
//! hash keeps the key short: `value/values differ/3f9a0c12`.

use spec::source::SourceMap;
use std::collections::BTreeSet;

/// A finding's signature and its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub oracle: String,
    pub check: String,
    /// The constructs of the (shrunk) program, when it is a surface
    /// program that parses.
    pub constructs: Vec<String>,
}

impl Signature {
    /// The signature of a finding of `oracle` on `program` (a `.fut`
    /// program; any other text contributes no constructs).
    pub fn of(oracle: &str, check: &str, program: &str) -> Signature {
        let mut sources = SourceMap::new();
        let file = sources.add("finding.fut", program);
        let constructs: BTreeSet<&str> = spec::syntax::parse_program(file, program)
            .map(|ast| crate::gen::coverage::constructs(&ast))
            .unwrap_or_default();
        Signature {
            oracle: oracle.to_string(),
            check: check.to_string(),
            constructs: constructs.into_iter().map(str::to_string).collect(),
        }
    }

    /// `oracle/check/hash of the constructs` (FNV-1a, 32 bits).
    pub fn key(&self) -> String {
        let mut hash: u32 = 0x811c_9dc5;
        for byte in self.constructs.join(",").bytes() {
            hash ^= u32::from(byte);
            hash = hash.wrapping_mul(0x0100_0193);
        }
        format!("{}/{}/{hash:08x}", self.oracle, self.check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_bucket_by_check_and_constructs_not_by_names_or_values() {
        let a = Signature::of(
            "value",
            "values differ",
            "def main (x: i32) = map (+1) [x, 2]\n",
        );
        let b = Signature::of(
            "value",
            "values differ",
            "def main (y: i32) = map (+7) [3, y]\n",
        );
        let c = Signature::of(
            "value",
            "values differ",
            "def main (x: i32) = reduce (+) 0 [x]\n",
        );
        assert_eq!(a.key(), b.key());
        assert_ne!(a.key(), c.key());
        assert!(a.constructs.contains(&"map".to_string()), "{a:?}");
        assert_ne!(
            a.key(),
            Signature::of(
                "value",
                "errors differ",
                "def main (x: i32) = map (+1) [x, 2]\n"
            )
            .key()
        );
    }
}
