//! The least fixpoint both totality judgements share: a node holds when it
//! holds locally and every node it uses holds. `static_interp::totality`
//! judges the declarations static interpretation emits (which unused
//! constants may be dropped), `ir::effects::TotalFunctions` the IR's
//! functions (which unused calls dead-code removal may delete).
//!
//! Computed leaves first: a candidate becomes ready once every node it uses
//! holds, so a node on a cycle of uses (recursion, which could run
//! forever), a node using a non-candidate, and a node using something
//! outside the graph never hold.

/// For each of `node_count` nodes, whether it holds. `candidates` are the
/// nodes that hold locally, each with its uses: `Some(node)` for a node of
/// the graph (repeats allowed), `None` for something outside it.
pub fn least_fixpoint(
    node_count: usize,
    candidates: impl IntoIterator<Item = (usize, Vec<Option<usize>>)>,
) -> Vec<bool> {
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); node_count];
    let mut pending = vec![0usize; node_count];
    let mut ready = Vec::new();
    for (node, uses) in candidates {
        pending[node] = uses.len();
        if uses.is_empty() {
            ready.push(node);
        }
        for used in uses.into_iter().flatten() {
            users[used].push(node);
        }
    }
    let mut holds = vec![false; node_count];
    while let Some(node) = ready.pop() {
        holds[node] = true;
        for &user in &users[node] {
            pending[user] -= 1;
            if pending[user] == 0 {
                ready.push(user);
            }
        }
    }
    holds
}

#[cfg(test)]
mod tests {
    use super::least_fixpoint;

    fn check(node_count: usize, candidates: &[(usize, &[Option<usize>])], expected: &[bool]) {
        let candidates = candidates.iter().map(|(node, uses)| (*node, uses.to_vec()));
        assert_eq!(least_fixpoint(node_count, candidates), expected);
    }

    #[test]
    fn a_node_holds_when_every_node_it_uses_holds() {
        // A chain, used twice by its head: all hold.
        check(
            3,
            &[(0, &[Some(1), Some(1)]), (1, &[Some(2)]), (2, &[])],
            &[true, true, true],
        );
        // Node 2 fails locally (not a candidate): its users fail too.
        check(
            3,
            &[(0, &[Some(1)]), (1, &[Some(2)])],
            &[false, false, false],
        );
        // A cycle never holds, nor what uses it; a leaf beside it does.
        check(
            4,
            &[(0, &[Some(1)]), (1, &[Some(0)]), (2, &[Some(0)]), (3, &[])],
            &[false, false, false, true],
        );
        // Recursion is a cycle of one.
        check(1, &[(0, &[Some(0)])], &[false]);
        // A use outside the graph never holds.
        check(2, &[(0, &[None]), (1, &[])], &[false, true]);
    }
}
