//! What a `runestone test` worker tells its supervisor, one event per line
//! of its stdout, written as it happens ([`EventWriter`], a
//! [`CaseObserver`]) and read back by [`crate::isolation`].
//!
//! A line is a word, then for some events a space and a payload:
//! `started entry main case #2`, `passed`, `failed TEXT`, `skipped TEXT`,
//! `gpu` and the GPU driver's counters (`gpu 3 1 7 0 1 0 4 0 2 9 on 0`, in
//! `DriverStatistics::to_array`'s order: planned, on the host, kernel runs,
//! handed back empty, failing, refused, runs on the host with work and over
//! nothing, resident, uploaded inputs; then `off`, or `on` and the
//! validation messages), and `finished` last. Texts
//! span lines: `\` is written `\\`, a newline `\n` and a carriage return
//! `\r`.

use crate::cases::CaseObserver;
use crate::load::GpuUsage;
use gpu::driver::DriverStatistics;
use std::io::Write;

/// One thing a worker reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerEvent {
    /// A case begins: `entry main case #2`.
    CaseStarted(String),
    Passed,
    /// A failure, without `FAIL ` ([`CaseObserver::failed`]).
    Failed(String),
    Skipped(String),
    /// What the GPU driver did in the worker (gpu backend only).
    GpuUsage(GpuUsage),
    /// The worker tested the whole program; nothing follows.
    Finished,
}

impl WorkerEvent {
    /// The event as one line, without its newline.
    pub fn encode(&self) -> String {
        match self {
            WorkerEvent::CaseStarted(case) => format!("started {}", escape(case)),
            WorkerEvent::Passed => "passed".to_string(),
            WorkerEvent::Failed(what) => format!("failed {}", escape(what)),
            WorkerEvent::Skipped(what) => format!("skipped {}", escape(what)),
            WorkerEvent::GpuUsage(usage) => {
                let s = usage.statistics;
                let validation = match usage.validation_messages {
                    Some(messages) => format!("on {messages}"),
                    None => "off".to_string(),
                };
                let counters: Vec<String> =
                    s.to_array().iter().map(|count| count.to_string()).collect();
                format!("gpu {} {validation}", counters.join(" "))
            }
            WorkerEvent::Finished => "finished".to_string(),
        }
    }

    /// The event a line (without its newline) encodes; `Err` says why it
    /// encodes none.
    pub fn decode(line: &str) -> Result<WorkerEvent, String> {
        let (word, payload) = match line.split_once(' ') {
            Some((word, payload)) => (word, Some(payload)),
            None => (line, None),
        };
        match (word, payload) {
            ("started", Some(text)) => unescape(text).map(WorkerEvent::CaseStarted),
            ("passed", None) => Ok(WorkerEvent::Passed),
            ("failed", Some(text)) => unescape(text).map(WorkerEvent::Failed),
            ("skipped", Some(text)) => unescape(text).map(WorkerEvent::Skipped),
            ("gpu", Some(numbers)) => decode_gpu_usage(numbers).map(WorkerEvent::GpuUsage),
            ("finished", None) => Ok(WorkerEvent::Finished),
            _ => Err("not an event".to_string()),
        }
    }
}

fn decode_gpu_usage(fields: &str) -> Result<GpuUsage, String> {
    let fields: Vec<&str> = fields.split(' ').collect();
    let number = |field: &str| {
        field
            .parse::<u64>()
            .map_err(|_| format!("{field:?} is not a count"))
    };
    let (counters, validation) = match fields.as_slice() {
        [counters @ .., "off"] => (counters, None),
        [counters @ .., "on", messages] => (counters, Some(number(messages)?)),
        _ => return Err("no validation state".to_string()),
    };
    let counters: Vec<u64> = counters
        .iter()
        .map(|field| number(field))
        .collect::<Result<_, _>>()?;
    let counters: [u64; 10] = counters
        .try_into()
        .map_err(|counters: Vec<u64>| format!("{} driver counters, not 10", counters.len()))?;
    Ok(GpuUsage {
        statistics: DriverStatistics::from_array(counters),
        validation_messages: validation,
    })
}

/// `text` on one line: `\` as `\\`, newline as `\n`, carriage return as `\r`.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            other => escaped.push(other),
        }
    }
    escaped
}

/// The text [`escape`] wrote; `Err` on an escape it never writes.
pub fn unescape(line: &str) -> Result<String, String> {
    let mut text = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            text.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => text.push('\\'),
            Some('n') => text.push('\n'),
            Some('r') => text.push('\r'),
            Some(other) => return Err(format!("unknown escape \\{other}")),
            None => return Err("a lone \\ at the end".to_string()),
        }
    }
    Ok(text)
}

/// A [`CaseObserver`] that writes each event to `out` (the worker's
/// stdout) at once, flushed. After the first write error it writes nothing
/// more (its supervisor is gone); [`EventWriter::finish`] returns the error.
pub struct EventWriter<W: Write> {
    out: W,
    broken: Option<std::io::Error>,
}

impl<W: Write> EventWriter<W> {
    pub fn new(out: W) -> EventWriter<W> {
        EventWriter { out, broken: None }
    }

    pub fn send(&mut self, event: &WorkerEvent) {
        if self.broken.is_some() {
            return;
        }
        let written = writeln!(self.out, "{}", event.encode()).and_then(|()| self.out.flush());
        if let Err(error) = written {
            self.broken = Some(error);
        }
    }

    /// Whether every event was written.
    pub fn finish(self) -> std::io::Result<()> {
        match self.broken {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

impl<W: Write> CaseObserver for EventWriter<W> {
    fn case_started(&mut self, case: &str) {
        self.send(&WorkerEvent::CaseStarted(case.to_string()));
    }

    fn passed(&mut self) {
        self.send(&WorkerEvent::Passed);
    }

    fn failed(&mut self, what: String) {
        self.send(&WorkerEvent::Failed(what));
    }

    fn skipped(&mut self, what: String) {
        self.send(&WorkerEvent::Skipped(what));
    }
}

#[cfg(test)]
mod tests {
    //! Every event survives a line: texts with newlines, backslashes and
    //! carriage returns, and the GPU counters; lines that encode nothing are
    //! refused, never guessed at.

    use super::*;

    fn usage(validation_messages: Option<u64>) -> GpuUsage {
        GpuUsage {
            statistics: DriverStatistics {
                statements_planned: 3,
                statements_on_host: 1,
                kernel_runs: 7,
                handed_back_empty: 0,
                handed_back_failing: 1,
                handed_back_refused: 0,
                host_runs: 4,
                host_runs_empty: 1,
                inputs_resident: 2,
                inputs_uploaded: 9,
            },
            validation_messages,
        }
    }

    #[test]
    fn events_round_trip_through_one_line() {
        let events = [
            WorkerEvent::CaseStarted("entry main case #2".to_string()),
            WorkerEvent::Passed,
            WorkerEvent::Failed(
                "p.fut: entry main case #0: wrong\n  expected: 1i32\n  actual:   2i32".to_string(),
            ),
            WorkerEvent::Failed("a \\n that is not a newline, \\\\, \r\n and \\".to_string()),
            WorkerEvent::Skipped("p.fut: case #1 expects\nfuel".to_string()),
            WorkerEvent::Failed(String::new()),
            WorkerEvent::Failed("trailing newline\n".to_string()),
            WorkerEvent::GpuUsage(usage(None)),
            WorkerEvent::GpuUsage(usage(Some(4))),
            WorkerEvent::Finished,
        ];
        for event in events {
            let line = event.encode();
            assert!(!line.contains(['\n', '\r']), "{line:?}");
            assert_eq!(WorkerEvent::decode(&line), Ok(event), "{line:?}");
        }
    }

    #[test]
    fn lines_that_encode_no_event_are_refused() {
        for line in [
            "",
            "thread 'main' panicked",
            "passed 3",
            "started",
            "failed bad \\q escape",
            "failed ends in \\",
            "gpu 1 2 3",
            "gpu 1 2 3 4 5 6 7 8 9 10",
            "gpu 1 2 3 4 5 6 7 8 9 ten off",
            "gpu 1 2 3 4 5 6 7 8 9 10 on",
            "gpu 1 2 3 4 5 6 7 8 9 off",
            "gpu 1 2 3 4 5 6 7 8 9 10 11 off",
        ] {
            assert!(WorkerEvent::decode(line).is_err(), "{line:?}");
        }
    }

    #[test]
    fn the_writer_streams_one_line_per_event() {
        let mut writer = EventWriter::new(Vec::new());
        writer.case_started("entry main case #0");
        writer.failed("p.fut: two\nlines".to_string());
        writer.send(&WorkerEvent::Finished);
        let EventWriter { out, broken } = writer;
        assert!(broken.is_none());
        assert_eq!(
            String::from_utf8_lossy(&out),
            "started entry main case #0\nfailed p.fut: two\\nlines\nfinished\n"
        );
    }
}
