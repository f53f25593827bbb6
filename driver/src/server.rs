//! Futhark's server protocol (`docs/server-protocol.rst`, Futhark 0.25) over
//! any [`LoadedProgram`]: the line-oriented interface through which
//! `futhark test`, `futhark bench` and the `futhark-server` Python client
//! drive a compiled program (`runestone serve`).
//!
//! The protocol, as implemented here:
//! - one command per line, words separated by spaces, a word with spaces
//!   written in double quotes (`"(i32, bool)"`); the answer's lines, then
//!   `%%% OK`; a failed command answers `%%% FAILURE`, its message, `%%% OK`;
//!   `%%% OK` once at start-up, when the program has been compiled;
//! - variables hold values of the entry points' types ([`EntryType`]); a
//!   returned tuple is several outputs (`call ENTRY O1 … ON I1 … IM`, with N
//!   and M as `outputs`/`inputs` print them), and `call` prints the run's
//!   wall time as `runtime: MICROSECONDS`;
//! - `restore` and `store` read and write Futhark's binary data format for
//!   transparent values (primitives, arrays of primitives); an opaque value is
//!   stored as runestone's text value syntax (tuples, records, sums), which
//!   `restore` reads back — the protocol leaves an opaque value's bytes to the
//!   implementation;
//! - no entry point consumes its arguments (uniqueness types are not yet
//!   checked, issue 23), so no `inputs` line has a `*`; runestone has no
//!   tuning parameters (`set_tuning_param` fails, `tuning_params` is empty)
//!   and keeps no attributes of entry points (`attributes` is empty);
//! - `report` prints a JSON object `{"backend": B, "events": [{"name": ENTRY,
//!   "microseconds": T}, …]}`, one event per `call` while profiling is not
//!   paused; `clear` forgets the events.

use crate::load::LoadedProgram;
use crate::signature::{EntrySignature, EntryType};
use spec::value::{self, Array, Value, ValueType};
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::time::Instant;

/// A program served over the protocol, with its variables.
pub struct Server {
    program: Box<dyn LoadedProgram>,
    variables: BTreeMap<String, Variable>,
    /// Every type of an entry point's parameters and results, and the types
    /// inside them: the opaque types commands may name.
    known_types: Vec<EntryType>,
    profiling_paused: bool,
    events: Vec<(String, u128)>,
}

struct Variable {
    value: Value,
    entry_type: EntryType,
}

/// Why a command failed: the message after `%%% FAILURE`.
type Failure = String;

/// Answers the commands of `input` on `output` until the end of `input`.
pub fn serve(
    program: Box<dyn LoadedProgram>,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut server = Server::new(program);
    writeln!(output, "%%% OK")?;
    output.flush()?;
    for line in input.lines() {
        let line = line?;
        match server.command(&line) {
            Ok(lines) => {
                for answer in lines {
                    writeln!(output, "{answer}")?;
                }
            }
            Err(message) => writeln!(output, "%%% FAILURE\n{message}")?,
        }
        writeln!(output, "%%% OK")?;
        output.flush()?;
    }
    Ok(())
}

impl Server {
    pub fn new(program: Box<dyn LoadedProgram>) -> Server {
        let mut known_types: Vec<EntryType> = Vec::new();
        for entry in program.entry_points() {
            let Some(signature) = program.signature(&entry) else {
                continue;
            };
            for t in signature.inputs.iter().chain(&signature.outputs) {
                for component in t.with_components() {
                    if !known_types.contains(&component) {
                        known_types.push(component);
                    }
                }
            }
        }
        Server {
            program,
            variables: BTreeMap::new(),
            known_types,
            profiling_paused: false,
            events: Vec::new(),
        }
    }

    /// Runs one command line; the answer's lines or why it failed.
    pub fn command(&mut self, line: &str) -> Result<Vec<String>, Failure> {
        let words = split_words(line)?;
        let Some((command, args)) = words.split_first() else {
            return Err("empty command".to_string());
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        match (command.as_str(), args.as_slice()) {
            ("entry_points", []) => Ok(self.program.entry_points()),
            ("types", []) => Ok(self.types()),
            ("call", [entry, rest @ ..]) => self.call(entry, rest),
            ("restore", [file, pairs @ ..]) if pairs.len() % 2 == 0 => self.restore(file, pairs),
            ("store", [file, names @ ..]) => self.store(file, names),
            ("free", names) => {
                for name in names {
                    self.variable(name)?;
                }
                for name in names {
                    self.variables.remove(*name);
                }
                Ok(Vec::new())
            }
            ("rename", [old, new]) => {
                self.fresh(&[new])?;
                let variable = self.take(old)?;
                self.variables.insert(new.to_string(), variable);
                Ok(Vec::new())
            }
            ("inputs", [entry]) => Ok(display_all(&self.signature(entry)?.inputs)),
            ("outputs", [entry]) => Ok(display_all(&self.signature(entry)?.outputs)),
            ("output", [entry]) => match self.signature(entry)?.outputs.as_slice() {
                [one] => Ok(vec![one.to_string()]),
                several => Err(format!(
                    "entry point `{entry}` returns {} values; `outputs` lists them and `call` takes one variable for each",
                    several.len()
                )),
            },
            ("clear", []) => {
                self.events.clear();
                Ok(Vec::new())
            }
            ("kind", [t]) => Ok(vec![self.resolve_type(t)?.kind().name().to_string()]),
            ("type", [name]) => Ok(vec![self.variable(name)?.entry_type.to_string()]),
            ("pause_profiling", []) => {
                self.profiling_paused = true;
                Ok(Vec::new())
            }
            ("unpause_profiling", []) => {
                self.profiling_paused = false;
                Ok(Vec::new())
            }
            ("report", []) => Ok(vec![self.report()]),
            ("set_tuning_param", [param, _]) | ("tuning_param_class", [param]) => Err(format!(
                "unknown tuning parameter `{param}`: runestone's backends have no tuning parameters"
            )),
            ("tuning_params", [entry]) | ("attributes", [entry]) => {
                self.signature(entry)?;
                Ok(Vec::new())
            }
            ("rank", [t]) => {
                let (rank, _) = array_type(&self.resolve_type(t)?)?;
                Ok(vec![rank.to_string()])
            }
            ("elemtype", [t]) => {
                let t = self.resolve_type(t)?;
                let (_, element) = array_type(&t)?;
                Ok(vec![element.to_string()])
            }
            ("new_array", [name, t, rest @ ..]) => self.new_array(name, t, rest),
            ("set", [array, element, indices @ ..]) => self.set(array, element, indices),
            ("shape", [name]) => match &self.variable(name)?.value {
                Value::Array(a) => Ok(a.shape().iter().map(usize::to_string).collect()),
                _ => Err(format!("variable `{name}` is not an array")),
            },
            ("index", [name, array, indices @ ..]) => self.index(name, array, indices),
            ("zip", [name, t, arrays @ ..]) => self.zip(name, t, arrays),
            ("unzip", [array, names @ ..]) => self.unzip(array, names),
            ("fields", [t]) => Ok(record_fields(&self.resolve_type(t)?)?
                .into_iter()
                .map(|(name, t)| format!("{name} {t}"))
                .collect()),
            ("new", [name, t, fields @ ..]) => self.new_record(name, t, fields),
            ("project", [name, record, field]) => self.project(name, record, field),
            ("variants", [t]) => {
                let mut lines = Vec::new();
                for (name, payload) in sum_constructors(&self.resolve_type(t)?)? {
                    lines.push(name.clone());
                    lines.extend(payload.iter().map(|t| format!("- {t}")));
                }
                Ok(lines)
            }
            ("construct", [name, t, constructor, payload @ ..]) => {
                self.construct(name, t, constructor, payload)
            }
            ("destruct", [sum, names @ ..]) => self.destruct(sum, names),
            ("variant", [name]) => match &self.variable(name)?.value {
                Value::Sum(s) => Ok(vec![s.constructor().to_string()]),
                _ => Err(format!("variable `{name}` is not of a sum type")),
            },
            (command, _) if COMMANDS.contains(&command) => {
                Err(format!("wrong number of arguments to `{command}`"))
            }
            (command, _) => Err(format!("unknown command `{command}`")),
        }
    }

    fn types(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .known_types
            .iter()
            .filter(|t| !matches!(t, EntryType::Prim(_)))
            .map(EntryType::to_string)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn signature(&self, entry: &str) -> Result<EntrySignature, Failure> {
        self.program
            .signature(entry)
            .ok_or_else(|| format!("unknown entry point `{entry}`"))
    }

    /// `call ENTRY O1 … ON I1 … IM`.
    fn call(&mut self, entry: &str, variables: &[&str]) -> Result<Vec<String>, Failure> {
        let signature = self.signature(entry)?;
        let (outputs, inputs) = (signature.outputs.len(), signature.inputs.len());
        if variables.len() != outputs + inputs {
            return Err(format!(
                "entry point `{entry}` takes {inputs} input(s) and gives {outputs} output(s): `call {entry}` needs {} variables, not {}",
                outputs + inputs,
                variables.len()
            ));
        }
        let (output_names, input_names) = variables.split_at(outputs);
        self.fresh(output_names)?;
        let mut arguments = Vec::with_capacity(inputs);
        for (i, (name, expected)) in input_names.iter().zip(&signature.inputs).enumerate() {
            let variable = self.variable(name)?;
            if !expected.admits(&variable.value) {
                return Err(format!(
                    "input {i} of `{entry}` has type {expected}; variable `{name}` has type {}",
                    variable.entry_type
                ));
            }
            arguments.push(variable.value.clone());
        }
        let start = Instant::now();
        let results = self
            .program
            .run(entry, &arguments)
            .map_err(|e| e.to_string())?;
        let microseconds = start.elapsed().as_micros();
        if results.len() != outputs {
            return Err(format!(
                "internal error: `{entry}` returned {} values, its type says {outputs}",
                results.len()
            ));
        }
        for ((name, value), entry_type) in output_names.iter().zip(results).zip(signature.outputs) {
            self.variables
                .insert(name.to_string(), Variable { value, entry_type });
        }
        if !self.profiling_paused {
            self.events.push((entry.to_string(), microseconds));
        }
        Ok(vec![format!("runtime: {microseconds}")])
    }

    /// `restore FILE V1 T1 … VN TN`.
    fn restore(&mut self, file: &str, pairs: &[&str]) -> Result<Vec<String>, Failure> {
        let names: Vec<&str> = pairs.iter().step_by(2).copied().collect();
        self.fresh(&names)?;
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        let values = value::read_values(&bytes).map_err(|e| {
            let mut sources = spec::source::SourceMap::new();
            let id = sources.add(file, value::diagnostic_text(&bytes));
            e.to_diagnostic(id).render(&sources)
        })?;
        if values.len() != names.len() {
            return Err(format!(
                "{file} holds {} value(s); {} asked for",
                values.len(),
                names.len()
            ));
        }
        let mut restored = Vec::new();
        for ((pair, value), i) in pairs.chunks(2).zip(values).zip(0..) {
            let entry_type = self.resolve_type(pair[1])?;
            if !entry_type.admits(&value) {
                return Err(format!(
                    "value {i} of {file} has type {}, not {entry_type}",
                    EntryType::of_value_type(&value.value_type())
                ));
            }
            restored.push((pair[0].to_string(), Variable { value, entry_type }));
        }
        self.variables.extend(restored);
        Ok(Vec::new())
    }

    /// `store FILE V1 … VN`.
    fn store(&self, file: &str, names: &[&str]) -> Result<Vec<String>, Failure> {
        let mut bytes = Vec::new();
        for name in names {
            let variable = self.variable(name)?;
            if variable.entry_type.is_transparent() {
                value::write_binary(&variable.value, &mut bytes).map_err(|e| e.to_string())?;
            } else {
                bytes.extend(value::print_values(std::slice::from_ref(&variable.value)).bytes());
            }
        }
        std::fs::write(file, bytes).map_err(|e| format!("cannot write {file}: {e}"))?;
        Ok(Vec::new())
    }

    fn report(&self) -> String {
        let events: Vec<String> = self
            .events
            .iter()
            .map(|(name, microseconds)| {
                format!("{{\"name\": \"{name}\", \"microseconds\": {microseconds}}}")
            })
            .collect();
        format!(
            "{{\"backend\": \"{}\", \"events\": [{}]}}",
            self.program.backend().name(),
            events.join(", ")
        )
    }

    /// `new_array V0 T S0 … SN-1 V1 … VM`.
    fn new_array(&mut self, name: &str, t: &str, rest: &[&str]) -> Result<Vec<String>, Failure> {
        let array_type_ = self.resolve_type(t)?;
        let (rank, element) = array_type(&array_type_)?;
        self.fresh(&[name])?;
        if rest.len() < rank {
            return Err(format!("an array of type {t} needs {rank} sizes"));
        }
        let (sizes, elements) = rest.split_at(rank);
        let shape = sizes
            .iter()
            .map(|s| {
                s.parse::<usize>()
                    .map_err(|_| format!("`{s}` is not a size"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let count = value::array::shape_product(&shape)
            .ok_or_else(|| "the array's size overflows".to_string())?;
        if elements.len() != count {
            return Err(format!(
                "an array of shape {} has {count} elements; {} given",
                value::array::shape_to_string(&shape),
                elements.len()
            ));
        }
        let values = elements
            .iter()
            .map(|e| self.value_of_type(e, element))
            .collect::<Result<Vec<_>, _>>()?;
        let value = build_array(&shape, values, element)?;
        self.insert(name, value, array_type_);
        Ok(Vec::new())
    }

    /// `set V0 V1 I0 … IN-1`: `V0[I0]…[IN-1] = V1`, in place.
    fn set(
        &mut self,
        array: &str,
        element: &str,
        indices: &[&str],
    ) -> Result<Vec<String>, Failure> {
        let target = self.variable(array)?;
        let (rank, element_type) = array_type(&target.entry_type)?;
        let Value::Array(a) = &target.value else {
            return Err(format!("variable `{array}` is not an array"));
        };
        let position = flat_index(a.shape(), rank, indices)?;
        let new_element = self.value_of_type(element, element_type)?;
        let shape = a.shape().to_vec();
        let mut elements = array_elements(&target.value, rank);
        elements[position] = new_element;
        let element_type = element_type.clone();
        let value = build_array(&shape, elements, &element_type)?;
        if let Some(variable) = self.variables.get_mut(array) {
            variable.value = value;
        }
        Ok(Vec::new())
    }

    /// `index V0 V1 I0 … IN-1`: `V0 = V1[I0]…[IN-1]`.
    fn index(&mut self, name: &str, array: &str, indices: &[&str]) -> Result<Vec<String>, Failure> {
        self.fresh(&[name])?;
        let source = self.variable(array)?;
        let (rank, element_type) = array_type(&source.entry_type)?;
        let Value::Array(a) = &source.value else {
            return Err(format!("variable `{array}` is not an array"));
        };
        let position = flat_index(a.shape(), rank, indices)?;
        let element = array_elements(&source.value, rank).swap_remove(position);
        let element_type = element_type.clone();
        self.insert(name, element, element_type);
        Ok(Vec::new())
    }

    /// `zip V0 T V1 … VN`: an array of records from one array per field.
    fn zip(&mut self, name: &str, t: &str, arrays: &[&str]) -> Result<Vec<String>, Failure> {
        let zipped_type = self.resolve_type(t)?;
        let (rank, element) = array_type(&zipped_type)?;
        let fields = record_fields(element)?;
        self.fresh(&[name])?;
        if arrays.len() != fields.len() {
            return Err(format!(
                "{t} has {} fields; {} arrays given",
                fields.len(),
                arrays.len()
            ));
        }
        let mut shape = None;
        let mut columns = Vec::new();
        for (array, (field, field_type)) in arrays.iter().zip(&fields) {
            let expected = EntryType::array(rank, field_type.clone());
            let column = self.value_of_type(array, &expected)?;
            let Value::Array(a) = &column else {
                return Err(format!("variable `{array}` is not an array"));
            };
            let column_shape = a.shape()[..rank].to_vec();
            if shape.get_or_insert_with(|| column_shape.clone()) != &column_shape {
                return Err(format!(
                    "field `{field}`'s array has shape {}, the others {}",
                    value::array::shape_to_string(&column_shape),
                    value::array::shape_to_string(shape.as_deref().unwrap_or_default())
                ));
            }
            columns.push(array_elements(&column, rank));
        }
        let shape = shape.unwrap_or_default();
        let count = columns.first().map_or(0, Vec::len);
        let mut records = Vec::with_capacity(count);
        for i in 0..count {
            let record = fields
                .iter()
                .zip(&columns)
                .map(|((field, _), column)| (field.clone(), column[i].clone()))
                .collect();
            records.push(Value::record(record).map_err(|e| e.to_string())?);
        }
        let value = build_array(&shape, records, element)?;
        self.insert(name, value, zipped_type);
        Ok(Vec::new())
    }

    /// `unzip V0 V1 … VN`: one array per field of an array of records.
    fn unzip(&mut self, array: &str, names: &[&str]) -> Result<Vec<String>, Failure> {
        let source = self.variable(array)?;
        let (rank, element) = array_type(&source.entry_type)?;
        let fields = record_fields(element)?;
        if names.len() != fields.len() {
            return Err(format!(
                "the elements of `{array}` have {} fields; {} variables given",
                fields.len(),
                names.len()
            ));
        }
        self.fresh(names)?;
        let Value::Array(a) = &source.value else {
            return Err(format!("variable `{array}` is not an array"));
        };
        let shape = a.shape()[..rank].to_vec();
        let elements = array_elements(&source.value, rank);
        let mut unzipped = Vec::new();
        for (field, field_type) in &fields {
            let column = elements
                .iter()
                .map(|record| field_of(record, field))
                .collect::<Result<Vec<_>, _>>()?;
            unzipped.push((
                build_array(&shape, column, field_type)?,
                EntryType::array(rank, field_type.clone()),
            ));
        }
        for (name, (value, entry_type)) in names.iter().zip(unzipped) {
            self.insert(name, value, entry_type);
        }
        Ok(Vec::new())
    }

    /// `new V0 T V1 … VN`: a record (or tuple) from its fields' values.
    fn new_record(&mut self, name: &str, t: &str, values: &[&str]) -> Result<Vec<String>, Failure> {
        let record_type = self.resolve_type(t)?;
        let fields = record_fields(&record_type)?;
        self.fresh(&[name])?;
        if values.len() != fields.len() {
            return Err(format!(
                "{t} has {} fields; {} values given",
                fields.len(),
                values.len()
            ));
        }
        let record = fields
            .iter()
            .zip(values)
            .map(|((field, field_type), v)| Ok((field.clone(), self.value_of_type(v, field_type)?)))
            .collect::<Result<Vec<_>, Failure>>()?;
        let value = Value::record(record).map_err(|e| e.to_string())?;
        self.insert(name, value, record_type);
        Ok(Vec::new())
    }

    /// `project TO FROM FIELD`.
    fn project(&mut self, name: &str, record: &str, field: &str) -> Result<Vec<String>, Failure> {
        self.fresh(&[name])?;
        let source = self.variable(record)?;
        let field_type = record_fields(&source.entry_type)?
            .into_iter()
            .find(|(f, _)| f == field)
            .map(|(_, t)| t)
            .ok_or_else(|| format!("{} has no field `{field}`", source.entry_type))?;
        let value = field_of(&source.value, field)?;
        self.insert(name, value, field_type);
        Ok(Vec::new())
    }

    /// `construct V0 T VARIANT V1 … VN`.
    fn construct(
        &mut self,
        name: &str,
        t: &str,
        constructor: &str,
        payload: &[&str],
    ) -> Result<Vec<String>, Failure> {
        let sum_type = self.resolve_type(t)?;
        let payload_types = sum_constructors(&sum_type)?
            .iter()
            .find(|(c, _)| c == constructor)
            .map(|(_, payload)| payload.clone())
            .ok_or_else(|| format!("{t} has no variant `{constructor}`"))?;
        self.fresh(&[name])?;
        if payload.len() != payload_types.len() {
            return Err(format!(
                "variant `{constructor}` carries {} values; {} given",
                payload_types.len(),
                payload.len()
            ));
        }
        let values = payload
            .iter()
            .zip(&payload_types)
            .map(|(v, t)| self.value_of_type(v, t))
            .collect::<Result<Vec<_>, _>>()?;
        let value = Value::sum(constructor, values).map_err(|e| e.to_string())?;
        self.insert(name, value, sum_type);
        Ok(Vec::new())
    }

    /// `destruct V0 V1 … VN`: the payload of a sum value.
    fn destruct(&mut self, sum: &str, names: &[&str]) -> Result<Vec<String>, Failure> {
        let source = self.variable(sum)?;
        let Value::Sum(s) = &source.value else {
            return Err(format!("variable `{sum}` is not of a sum type"));
        };
        let payload_types = sum_constructors(&source.entry_type)?
            .iter()
            .find(|(c, _)| c == s.constructor())
            .map(|(_, payload)| payload.clone())
            .unwrap_or_default();
        if names.len() != s.payload().len() || payload_types.len() != s.payload().len() {
            return Err(format!(
                "variant `{}` of `{sum}` carries {} values; {} variables given",
                s.constructor(),
                s.payload().len(),
                names.len()
            ));
        }
        self.fresh(names)?;
        let payload = s.payload().to_vec();
        for ((name, value), entry_type) in names.iter().zip(payload).zip(payload_types) {
            self.insert(name, value, entry_type);
        }
        Ok(Vec::new())
    }

    /// The type a command names: a transparent type written out, or one of
    /// the program's entry point types (as `types` prints them).
    fn resolve_type(&self, text: &str) -> Result<EntryType, Failure> {
        if let Some(t) = EntryType::parse_transparent(text) {
            return Ok(t);
        }
        self.known_types
            .iter()
            .find(|t| t.to_string() == text)
            .cloned()
            .ok_or_else(|| format!("unknown type `{text}` (`types` lists the program's types)"))
    }

    fn variable(&self, name: &str) -> Result<&Variable, Failure> {
        self.variables
            .get(name)
            .ok_or_else(|| format!("unknown variable `{name}`"))
    }

    fn take(&mut self, name: &str) -> Result<Variable, Failure> {
        self.variables
            .remove(name)
            .ok_or_else(|| format!("unknown variable `{name}`"))
    }

    /// The value of variable `name`, which must be of type `expected`.
    fn value_of_type(&self, name: &str, expected: &EntryType) -> Result<Value, Failure> {
        let variable = self.variable(name)?;
        if !expected.admits(&variable.value) {
            return Err(format!(
                "variable `{name}` has type {}, not {expected}",
                variable.entry_type
            ));
        }
        Ok(variable.value.clone())
    }

    /// Fails unless every name is new and the names are distinct.
    fn fresh(&self, names: &[&str]) -> Result<(), Failure> {
        for (i, name) in names.iter().enumerate() {
            if self.variables.contains_key(*name) || names[..i].contains(name) {
                return Err(format!("variable `{name}` already exists"));
            }
        }
        Ok(())
    }

    fn insert(&mut self, name: &str, value: Value, entry_type: EntryType) {
        self.variables
            .insert(name.to_string(), Variable { value, entry_type });
    }
}

/// Every command of the protocol this server answers.
const COMMANDS: &[&str] = &[
    "entry_points",
    "types",
    "call",
    "restore",
    "store",
    "free",
    "rename",
    "inputs",
    "outputs",
    "output",
    "clear",
    "kind",
    "type",
    "pause_profiling",
    "unpause_profiling",
    "report",
    "set_tuning_param",
    "tuning_params",
    "tuning_param_class",
    "attributes",
    "rank",
    "elemtype",
    "new_array",
    "set",
    "shape",
    "index",
    "zip",
    "unzip",
    "fields",
    "new",
    "project",
    "variants",
    "construct",
    "destruct",
    "variant",
];

/// A command line's words: runs of non-space characters, or text in double
/// quotes (no quote or newline inside).
fn split_words(line: &str) -> Result<Vec<String>, Failure> {
    let mut words = Vec::new();
    let mut chars = line.trim_end_matches(['\r', '\n']).chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == ' ' {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut word = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => word.push(c),
                    None => return Err("unterminated quoted word".to_string()),
                }
            }
            words.push(word);
        } else {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c == ' ' {
                    break;
                }
                word.push(c);
                chars.next();
            }
            words.push(word);
        }
    }
    Ok(words)
}

fn display_all(types: &[EntryType]) -> Vec<String> {
    types.iter().map(EntryType::to_string).collect()
}

fn array_type(t: &EntryType) -> Result<(usize, &EntryType), Failure> {
    match t {
        EntryType::Array { rank, element } => Ok((*rank, element)),
        other => Err(format!("{other} is not an array type")),
    }
}

fn record_fields(t: &EntryType) -> Result<Vec<(String, EntryType)>, Failure> {
    t.fields()
        .ok_or_else(|| format!("{t} is not a record type"))
}

fn sum_constructors(t: &EntryType) -> Result<&[(String, Vec<EntryType>)], Failure> {
    match t {
        EntryType::Sum(constructors) => Ok(constructors),
        other => Err(format!("{other} is not a sum type")),
    }
}

/// Field `field` of a record or tuple value.
fn field_of(record: &Value, field: &str) -> Result<Value, Failure> {
    match record {
        Value::Record(r) => r.get(field).cloned(),
        Value::Tuple(components) => field
            .parse::<usize>()
            .ok()
            .and_then(|i| components.get(i).cloned()),
        _ => None,
    }
    .ok_or_else(|| format!("the value has no field `{field}`"))
}

/// The elements of the outer `rank` dimensions of `value`, row-major.
fn array_elements(value: &Value, rank: usize) -> Vec<Value> {
    match value {
        Value::Array(a) if rank > 0 => a
            .rows()
            .flat_map(|row| array_elements(&row, rank - 1))
            .collect(),
        other => vec![other.clone()],
    }
}

/// The row-major position of `indices` in an array of outer shape `shape`.
fn flat_index(shape: &[usize], rank: usize, indices: &[&str]) -> Result<usize, Failure> {
    if indices.len() != rank {
        return Err(format!(
            "an array of rank {rank} takes {rank} indices; {} given",
            indices.len()
        ));
    }
    let mut position = 0;
    for (index, size) in indices.iter().zip(shape) {
        let i = index
            .parse::<usize>()
            .ok()
            .filter(|i| i < size)
            .ok_or_else(|| {
                format!(
                    "index [{}] out of bounds for an array of shape {}",
                    indices.join("]["),
                    value::array::shape_to_string(&shape[..rank])
                )
            })?;
        position = position * size + i;
    }
    Ok(position)
}

/// The array of outer shape `shape` holding `elements` (row-major) of type
/// `element`.
fn build_array(
    shape: &[usize],
    elements: Vec<Value>,
    element: &EntryType,
) -> Result<Value, Failure> {
    if elements.is_empty() {
        let element_type = sizeless_value_type(element).ok_or_else(|| {
            format!("an empty array of {element} cannot be made: its elements' sizes are unknown")
        })?;
        return Array::empty(shape.to_vec(), element_type)
            .map(Value::Array)
            .map_err(|e| e.to_string());
    }
    let Some((&outer, inner)) = shape.split_first() else {
        return Ok(elements.into_iter().next().expect("one element"));
    };
    let row_size = elements.len() / outer;
    let mut rows = Vec::with_capacity(outer);
    let mut elements = elements.into_iter();
    for _ in 0..outer {
        let row: Vec<Value> = elements.by_ref().take(row_size).collect();
        rows.push(build_array(inner, row, element)?);
    }
    Array::from_rows(rows)
        .map(Value::Array)
        .map_err(|e| e.to_string())
}

/// The [`ValueType`] of `t` when no size is needed to write it (no arrays
/// inside).
fn sizeless_value_type(t: &EntryType) -> Option<ValueType> {
    let all = |ts: &[EntryType]| {
        ts.iter()
            .map(sizeless_value_type)
            .collect::<Option<Vec<_>>>()
    };
    Some(match t {
        EntryType::Prim(p) => ValueType::Prim(*p),
        EntryType::Array { .. } => return None,
        EntryType::Tuple(components) => ValueType::Tuple(all(components)?),
        EntryType::Record(fields) => ValueType::Record(
            fields
                .iter()
                .map(|(name, t)| Some((name.clone(), sizeless_value_type(t)?)))
                .collect::<Option<_>>()?,
        ),
        EntryType::Sum(constructors) => ValueType::Sum(
            constructors
                .iter()
                .map(|(name, payload)| Some((name.clone(), all(payload)?)))
                .collect::<Option<_>>()?,
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::split_words;

    #[test]
    fn words_are_space_separated_or_quoted() {
        let words = split_words(r#"new p "{x: f32, y: f32}"  a b"#).unwrap();
        assert_eq!(words, ["new", "p", "{x: f32, y: f32}", "a", "b"]);
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
        assert!(split_words(r#"kind "(i32, i32)"#).is_err());
    }
}
