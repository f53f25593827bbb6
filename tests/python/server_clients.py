"""runestone with Futhark's real Python clients (PyPI: futhark-server,
futhark-data): the server protocol (`runestone serve`) and the binary data
format (`runestone values`).

Usage: server_clients.py RUNESTONE PROGRAM_DIR BACKEND...

1. For every program under PROGRAM_DIR and every BACKEND, each `-- ==` case
   with inline values: `futhark_server.Server` starts `runestone serve`, the
   inputs (read by `futhark_data` from the block) are stored with
   `put_value`, the entry point is called with as many output variables as
   `outputs` lists, and every result read back with `get_value` is compared
   with the block's `output` as `futhark test` compares (dtype and shape
   exactly, floats within a relative 0.2 %); an `error:` case must raise
   `futhark_server.Failure` with a message matching it.
2. On PROGRAM_DIR/opaque_values.fut, every other command of the protocol:
   records, tuples and sums built with `new`/`construct`/`zip` and taken
   apart with `project`/`destruct`/`unzip`/`variant`; arrays with
   `new_array`/`shape`/`index`/`set`; `rename`, `free`, `type`, `kind`,
   `fields`, `variants`, `report`, store/restore of an opaque value; and
   failures (wrong types, unknown variables, bad files).
3. The data format both ways: every value `futhark_data.dumpb` writes is
   read by `runestone values` (and written back byte for byte by `runestone
   values --binary`); every value `runestone values --binary` writes from
   text is read by `futhark_data` with the expected dtype, shape and bits.

futhark-data 1.0.3 calls `numpy.product`, which numpy 2 removed: install it
with `numpy<2`. Exits 1 on the first failed check, printing it.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import futhark_data
from futhark_server import Failure, Server

CHECKS = 0


def check(condition, message):
    global CHECKS
    CHECKS += 1
    if not condition:
        sys.exit("FAIL: " + message)


def test_cases(path):
    """The `-- ==` cases of a program with inline values: (entry, input
    text, expected output text or None, error regex or None)."""
    cases = []
    block = None
    with open(path) as f:
        lines = f.read().splitlines()
    for line in lines + [""]:
        if line.strip() == "-- ==":
            block = []
        elif block is not None and line.startswith("--"):
            block.append(line[2:])
        elif block is not None:
            text = "\n".join(block)
            block = None
            entry = re.search(r"entry:\s*(\w+)", text)
            entry = entry.group(1) if entry else "main"
            pattern = r"input\s*\{(.*?)\}\s*(?:output\s*\{(.*?)\}|error:\s*(.*))"
            for m in re.finditer(pattern, text, re.S):
                cases.append((entry, m.group(1), m.group(2), m.group(3)))
    return cases


def as_numpy(value):
    """A value `futhark_data.loads` read, as the numpy value `put_value`
    takes (it reads `true`/`false` as Python booleans)."""
    if isinstance(value, bool):
        return np.bool_(value)
    return value


def same_value(expected, actual):
    expected, actual = np.asarray(expected), np.asarray(actual)
    if expected.dtype != actual.dtype or expected.shape != actual.shape:
        return False
    if expected.dtype.kind == "f":
        return bool(np.all(np.isclose(actual, expected, rtol=0.002, atol=0, equal_nan=True)))
    return bool(np.array_equal(expected, actual))


def run_cases(runestone, program, backend):
    cases = test_cases(program)
    check(cases, f"{program}: no test cases found")
    with Server(runestone, "serve", program, "--backend", backend) as server:
        for index, (entry, input_text, output_text, error) in enumerate(cases):
            where = f"{program} ({backend}) entry {entry} case {index}"
            inputs = [as_numpy(v) for v in futhark_data.loads(input_text)]
            names = [f"in{index}_{i}" for i in range(len(inputs))]
            for name, value in zip(names, inputs):
                server.put_value(name, value)
            outputs = server.cmd("outputs", entry)
            results = [f"out{index}_{i}" for i in range(len(outputs))]
            try:
                answer = server.cmd_call(entry, *results, *names)
            except Failure as failure:
                check(error is not None, f"{where}: failed: {failure}")
                check(
                    re.search(error.strip(), str(failure)) is not None,
                    f"{where}: error {failure!r} does not match {error.strip()!r}",
                )
                server.cmd_free(*names)
                continue
            check(error is None, f"{where}: expected an error, the call succeeded")
            check(
                len(answer) == 1 and re.fullmatch(r"runtime: \d+", answer[0]),
                f"{where}: call answered {answer}",
            )
            expected = [as_numpy(v) for v in futhark_data.loads(output_text)]
            check(len(expected) == len(results), f"{where}: {len(results)} outputs")
            for i, (name, want) in enumerate(zip(results, expected)):
                got = server.get_value(name)
                check(same_value(want, got), f"{where}: output {i}: expected {want!r}, got {got!r}")
            server.cmd_free(*names, *results)
    return len(cases)


def expect_failure(server, *command):
    try:
        server.cmd(*command)
    except Failure:
        return
    check(False, f"`{' '.join(command)}` should have failed")


def protocol_commands(runestone, program, backend):
    point = '"{x: f32, y: f32}"'
    reading = '"#missing | #value i32"'
    particles = '"[](f64, f64)"'
    with Server(runestone, "serve", program, "--backend", backend) as s:
        entries = s.cmd_entry_points()
        check("make_point" in entries and "weighted" in entries, f"entry_points: {entries}")
        check(s.cmd_inputs("make_point") == ["f32", "f32"], "inputs make_point")
        check(s.cmd("outputs", "make_point") == ["{x: f32, y: f32}"], "outputs make_point")
        check(s.cmd_output("point_norm") == ["f32"], "output point_norm")
        types = s.cmd_types()
        for t in ["{x: f32, y: f32}", "#missing | #value i32", "[](f64, f64)"]:
            check(t in types, f"types lacks {t}: {types}")

        # Records: made by an entry point and by `new`, taken apart by `project`.
        s.put_value("x", np.float32(3))
        s.put_value("y", np.float32(4))
        s.cmd_call("make_point", "p", "x", "y")
        check(s.cmd("type", "p") == ["{x: f32, y: f32}"], "type p")
        check(s.cmd("kind", point) == ["record"], "kind of a record")
        check(s.cmd_fields(point) == ["x f32", "y f32"], "fields")
        s.cmd_project("py", "p", "y")
        check(s.get_value("py") == np.float32(4), "project")
        s.cmd("new", "q", point, "y", "x")
        s.cmd_call("point_norm", "n", "q")
        check(s.get_value("n") == np.float32(5), "point_norm of a new record")
        expect_failure(s, "new", "bad", point, "x")
        expect_failure(s, "project", "bad", "p", "z")

        # An opaque value survives store and restore.
        with tempfile.NamedTemporaryFile() as f:
            s.cmd_store(f.name, "p")
            s.cmd_restore(f.name, ("p2", point))
        s.cmd_call("point_norm", "n2", "p2")
        check(s.get_value("n2") == np.float32(5), "a restored opaque value")

        # Sums: `construct`, `variant`, `destruct`, and from an entry point.
        check(s.cmd("kind", reading) == ["sum"], "kind of a sum")
        check(s.cmd("variants", reading) == ["missing", "value", "- i32"], "variants")
        s.put_value("seven", np.int32(7))
        s.put_value("zero", np.int32(0))
        s.cmd("construct", "r", reading, "value", "seven")
        check(s.cmd("variant", "r") == ["value"], "variant")
        s.cmd_call("reading_or", "got", "r", "zero")
        check(s.get_value("got") == 7, "reading_or #value")
        s.cmd("destruct", "r", "payload")
        check(s.get_value("payload") == 7, "destruct")
        s.put_value("minus", np.int32(-2))
        s.cmd_call("make_reading", "m", "minus")
        check(s.cmd("variant", "m") == ["missing"], "variant of an entry's result")
        expect_failure(s, "construct", "bad", reading, "value")
        expect_failure(s, "construct", "bad", reading, "other")

        # Arrays of tuples: `zip`, `unzip`; transparent arrays: `new_array`,
        # `shape`, `index`, `set`.
        masses = np.array([1.0, 2.0], dtype=np.float64)
        speeds = np.array([0.5, 4.0], dtype=np.float64)
        s.put_value("ms", masses)
        s.put_value("vs", speeds)
        s.cmd("zip", "ps", particles, "ms", "vs")
        check(s.cmd("kind", particles) == ["opaque"], "kind of an array of tuples")
        check(s.cmd("shape", "ps") == ["2"], "shape of zipped")
        s.cmd_call("weighted", "energy", "ps")
        check(s.get_value("energy") == 32.25, "weighted")
        s.cmd("unzip", "ps", "ms2", "vs2")
        check(np.array_equal(s.get_value("vs2"), speeds), "unzip")
        s.put_value("short", np.array([1.0], dtype=np.float64))
        expect_failure(s, "zip", "bad", particles, "ms", "short")
        s.cmd("new_array", "grid", "[][]i32", "2", "2", "seven", "zero", "zero", "seven")
        check(s.cmd("rank", "[][]i32") == ["2"], "rank")
        check(s.cmd("elemtype", "[][]i32") == ["i32"], "elemtype")
        check(s.cmd("shape", "grid") == ["2", "2"], "shape")
        s.cmd("set", "grid", "minus", "0", "1")
        check(np.array_equal(s.get_value("grid"), [[7, -2], [0, 7]]), "set")
        s.cmd("index", "corner", "grid", "1", "1")
        check(s.get_value("corner") == 7, "index")
        expect_failure(s, "index", "bad", "grid", "2", "0")

        # Variables: rename, free; failures leave the server usable.
        s.cmd_rename("corner", "c")
        expect_failure(s, "type", "corner")
        s.cmd_free("c")
        expect_failure(s, "free", "c")
        expect_failure(s, "call", "point_norm", "bad", "x")
        expect_failure(s, "call", "no_such_entry", "bad")
        expect_failure(s, "restore", "/nonexistent/file", "v", "i32")
        expect_failure(s, "set_tuning_param", "threshold", "1")
        expect_failure(s, "no_such_command")
        check(s.cmd_tuning_params("make_point") == [], "tuning_params")
        report = json.loads("\n".join(s.cmd_report()))
        check(report["backend"] == backend and report["events"], f"report: {report}")
        s.cmd_pause_profiling()
        s.cmd_unpause_profiling()
        s.cmd_clear()
        check(json.loads("\n".join(s.cmd_report()))["events"] == [], "clear")


def prim_samples():
    """Numpy values of every primitive type runestone has: scalars at the
    extremes, arrays of ranks 1 to 3, empty arrays, special floats."""
    values = []
    for t in [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]:
        info = np.iinfo(t)
        values += [t(info.min), t(info.max), np.array([info.min, 0, info.max], dtype=t)]
    for t in [np.float32, np.float64]:
        info = np.finfo(t)
        values += [
            t(np.nan), t(np.inf), t(-np.inf), t(-0.0), t(info.tiny / 4), t(info.max),
            np.array([[1.5, -2.25], [np.nan, 1e-3]], dtype=t),
        ]
    values += [
        np.bool_(True),
        np.array([True, False, True]),
        np.arange(24, dtype=np.int32).reshape(2, 3, 4),
        np.zeros((0,), dtype=np.int32),
        np.zeros((2, 0), dtype=np.float64),
        np.zeros((0, 3), dtype=np.uint8),
    ]
    return values


def runestone_values(runestone, data, *flags):
    result = subprocess.run(
        [runestone, "values", *flags], input=data, capture_output=True, check=False
    )
    check(result.returncode == 0, f"runestone values {flags}: {result.stderr.decode()}")
    return result.stdout


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def data_format(runestone):
    samples = prim_samples()
    # futhark_data writes, runestone reads (and writes the same bytes back).
    written = b"".join(futhark_data.dumpb(v) for v in samples)
    check(runestone_values(runestone, written, "--binary") == written,
          "runestone values --binary does not reproduce futhark_data's bytes")
    text = runestone_values(runestone, written)
    # runestone writes (from its own text), futhark_data reads.
    read_back = list(futhark_data.loadb(runestone_values(runestone, text, "--binary")))
    check(len(read_back) == len(samples), "value count after the text round trip")
    for want, got in zip(samples, read_back):
        check(same_bits(want, got), f"futhark_data read {got!r} for {want!r}")
    # Text runestone reads that futhark_data cannot write (special floats).
    specials = runestone_values(runestone, b"f32.nan -f64.inf f64.inf 1.4e-45f32 -0f64", "--binary")
    expected = [np.float32(np.nan), np.float64(-np.inf), np.float64(np.inf),
                np.float32(1.4e-45), np.float64(-0.0)]
    got = list(futhark_data.loadb(specials))
    for want, value in zip(expected, got):
        check(same_bits(want, value), f"special float {want!r} read as {value!r}")
    return len(samples) + len(expected)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    runestone = os.path.abspath(sys.argv[1])
    directory = sys.argv[2]
    backends = sys.argv[3:]
    programs = sorted(
        os.path.join(directory, name) for name in os.listdir(directory) if name.endswith(".fut")
    )
    for backend in backends:
        cases = sum(run_cases(runestone, program, backend) for program in programs)
        protocol_commands(runestone, os.path.join(directory, "opaque_values.fut"), backend)
        print(f"{backend}: {cases} test cases of {len(programs)} programs through "
              f"futhark_server, and every protocol command: passed")
    values = data_format(runestone)
    print(f"data format: {values} values both ways between runestone and futhark_data: passed")
    print(f"{CHECKS} checks passed")


if __name__ == "__main__":
    main()
