//! Flattening (`optimized::flatten`) on the programs of
//! `tests/programs/flattening/`: the segmented operations each one becomes
//! (the shape of the nest each rule of the pass recognises, or declines),
//! and the IR checker's judgement of segmented operations that break the
//! segmented IR's invariants (`optimized::ir::segmented`). That the
//! segmented IR computes the SOAC IR's values is checked on every program
//! of the corpus (`driver/tests/programs.rs`, `cpu-segmented::…`) and on
//! generated ones (the value oracle runs both paths).

use optimized::flatten::{count_segmented_operations, flatten_program, SegmentedCounts};
use optimized::ir::{check_program, Body, Exp, Program, SegOp, SubExp};
use optimized::pipeline::{compile, PipelineOptions};
use spec::source::SourceMap;
use std::path::Path;

/// The fused IR of `tests/programs/flattening/NAME.fut`.
fn fused(name: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/programs/flattening")
        .join(format!("{name}.fut"));
    let text = std::fs::read_to_string(&path).expect("the test program");
    let mut sources = SourceMap::new();
    let file = sources.add(path.display().to_string(), text.clone());
    match compile(
        &mut sources,
        file,
        None,
        PipelineOptions::from_source(&text),
    ) {
        Ok(compiled) => compiled.fused,
        Err(diagnostics) => panic!(
            "{}",
            diagnostics
                .iter()
                .map(|d| d.render(&sources))
                .collect::<String>()
        ),
    }
}

fn counts(maps: usize, reductions: usize, scans: usize, deepest: usize) -> SegmentedCounts {
    SegmentedCounts {
        maps,
        reductions,
        scans,
        deepest_space: deepest,
        host_soacs: 0,
    }
}

#[test]
fn each_nest_becomes_the_segmented_operations_of_its_shape() {
    let expected = [
        // F-Map, then F-Nest with an inner map.
        ("map_map", counts(1, 0, 0, 2)),
        // F-Nest twice: three dimensions, a scalar of the enclosing scope.
        ("map_map_map_free", counts(1, 0, 0, 3)),
        // F-Nest with an inner reduce or redomap: a segmented reduction.
        ("map_reduce", counts(0, 1, 0, 2)),
        ("map_redomap_noncommutative", counts(0, 1, 0, 2)),
        // F-Nest with an inner scan.
        ("map_scan", counts(0, 0, 1, 2)),
        // The innermost level's body binds an `iota` (and its assertion)
        // before its reduction: F-Iota computes the iota's elements, F-Assert
        // hoists the check, and the nest is a segmented reduction over three
        // dimensions.
        ("map_map_reduce_tuple", counts(0, 1, 0, 3)),
        // The outer body computes a scalar from its index and maps over
        // `iota w`: F-Sink and F-Iota, a map over two dimensions.
        ("map_iota_rows", counts(1, 0, 0, 2)),
        // The inner map uses the row's sum: F-Distribute makes the sum a
        // segmented reduction and the map over the row a segmented map
        // reading it.
        ("imperfect_nest", counts(1, 1, 0, 2)),
        // F-Distribute: a reduction, a scalar, a map over the row (two
        // operations); a reduction then scalars (two); a nest whose both
        // parts may fail stays one segmented map over the rows.
        ("distributed_nests", counts(3, 2, 0, 2)),
        // `map2` over rows leaves an assertion on the rows' sizes and a
        // reshape of a row in the outer body: F-Assert and F-Reshape hoist
        // their checks, and the nest goes on.
        ("nest_errors_first_in_order", counts(1, 0, 0, 2)),
        // Nests in a host branch and a host loop (whose body's two nests
        // fusion made one).
        ("host_loop_of_nests", counts(2, 0, 0, 2)),
        // The inner body reduces over the outer row of `a` (F-Carry): one
        // segmented reduction over three dimensions.
        ("matrix_multiplication", counts(0, 1, 0, 3)),
        // The inner body indexes the outer row itself: F-Carry is undone,
        // the nest stays at the outer level.
        ("outer_row_indexed_in_inner_body", counts(1, 0, 0, 1)),
    ];
    for (name, expected) in expected {
        let flattened = flatten_program(&fused(name));
        if let Err(error) = check_program(&flattened) {
            panic!("{name}: the flattened IR is ill-typed: {error}");
        }
        assert_eq!(
            count_segmented_operations(&flattened),
            expected,
            "{name}:\n{}",
            optimized::ir::print_program(&flattened)
        );
    }
}

/// How many array literals `body` binds, at any depth of its branches,
/// loops and segmented operations.
fn array_literals(body: &Body) -> usize {
    body.statements
        .iter()
        .map(|statement| match &statement.expression {
            Exp::ArrayLiteral { .. } => 1,
            other => other.bodies().into_iter().map(array_literals).sum(),
        })
        .sum()
}

#[test]
fn constant_arrays_only_read_leave_the_segmented_body() {
    // (program, literals in the host code around the segmented map, in its
    // body)
    for (name, host, inside) in [
        // Read only: F-Constant builds it once, before the map.
        ("constant_array_in_a_nest", 1, 0),
        // Updated by each point: it stays, one copy per point.
        ("constant_array_updated_in_a_nest", 0, 1),
    ] {
        let mut flattened = flatten_program(&fused(name));
        check_program(&flattened).expect("the flattened IR checks");
        let around = flattened.functions[0]
            .body
            .statements
            .iter()
            .filter(|statement| matches!(statement.expression, Exp::ArrayLiteral { .. }))
            .count();
        let within = array_literals(first_seg_op(&mut flattened).body());
        assert_eq!((around, within), (host, inside), "{name}");
    }
}

/// The first segmented operation of the program's first function.
fn first_seg_op(program: &mut Program) -> &mut SegOp {
    program.functions[0]
        .body
        .statements
        .iter_mut()
        .find_map(|statement| match &mut statement.expression {
            Exp::Seg(op) => Some(op),
            _ => None,
        })
        .expect("a segmented operation")
}

#[test]
fn the_checker_rejects_segmented_operations_that_break_the_invariants() {
    let flattened = flatten_program(&fused("map_map"));
    check_program(&flattened).expect("the flattened IR checks");
    // An empty index space.
    let mut broken = flattened.clone();
    if let SegOp::Map { space, .. } = first_seg_op(&mut broken) {
        space.dims.clear();
    }
    assert!(
        check_program(&broken).is_err(),
        "an empty space is accepted"
    );
    // A size that depends on an index of the same space.
    let mut broken = flattened.clone();
    if let SegOp::Map { space, .. } = first_seg_op(&mut broken) {
        let outer = space.dims[0].index.clone();
        space.dims[1].size = SubExp::Var(outer);
    }
    assert!(
        check_program(&broken).is_err(),
        "a size that depends on an index is accepted"
    );
    // Result types that are not the body's.
    let mut broken = flattened.clone();
    if let SegOp::Map { return_types, .. } = first_seg_op(&mut broken) {
        return_types.push(return_types[0].clone());
    }
    assert!(
        check_program(&broken).is_err(),
        "a body returning fewer values than its types is accepted"
    );
    // An index bound twice.
    let mut broken = flattened;
    if let SegOp::Map { space, .. } = first_seg_op(&mut broken) {
        space.dims[1].index = space.dims[0].index.clone();
    }
    assert!(
        check_program(&broken).is_err(),
        "an index bound twice is accepted"
    );
}

#[test]
fn the_cpu_backend_expands_a_segmented_operation_into_soacs() {
    let flattened = flatten_program(&fused("map_reduce"));
    let expanded = optimized::cpu::segmented::expand_segmented_operations(flattened);
    check_program(&expanded).expect("the expanded IR checks");
    assert_eq!(
        count_segmented_operations(&expanded),
        SegmentedCounts {
            host_soacs: 1,
            ..SegmentedCounts::default()
        },
        "{}",
        optimized::ir::print_program(&expanded)
    );
}

#[test]
fn direct_rows_become_the_inputs_of_the_expanded_map() {
    use optimized::ir::Soac;
    // `xss[gtid₁, gtid₂]` is the only use of the indices in map_map's
    // segmap: the expansion maps over `xss` reshaped, with no `iota`;
    // outer_row_indexed_in_inner_body's rows are read by index the same way.
    for name in [
        "map_map",
        "map_map_map_free",
        "outer_row_indexed_in_inner_body",
    ] {
        let flattened = flatten_program(&fused(name));
        let expanded = optimized::cpu::segmented::expand_segmented_operations(flattened);
        check_program(&expanded).expect("the expanded IR checks");
        let statements = &expanded.functions[0].body.statements;
        let printed = optimized::ir::print_program(&expanded);
        assert!(
            !statements
                .iter()
                .any(|s| matches!(s.expression, Exp::Iota { .. })),
            "{name}: an iota of the points is left:\n{printed}"
        );
        let maps_over_arrays = statements.iter().any(|s| {
            matches!(&s.expression, Exp::Soac(Soac::Map { arrays, lambda, .. })
                if arrays.len() == 1 && lambda.params.len() == 1)
        });
        assert!(maps_over_arrays, "{name}:\n{printed}");
    }
}
