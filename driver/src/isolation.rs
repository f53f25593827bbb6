//! Testing a program in a worker process, as `runestone test` does: a stack
//! overflow, an abort or an infinite loop of an implementation ends the
//! worker, never the run, and is that program's failure.
//!
//! The supervisor ([`test_program_in_worker`]) starts the worker command it
//! is given (`runestone test-worker PROGRAM --backend B ...`, which runs
//! [`crate::cases::test_program_observed`] with a
//! [`crate::worker_events::EventWriter`]) and reads its events
//! ([`WorkerEvent`]) on a thread, through a channel, as they come. With a
//! time limit, a worker silent for longer than the limit (one case, or
//! loading the program, that runs too long) is killed: that case timed out.
//! A worker that dies (a signal, an exit status other than 0, or an end
//! before its `finished` event) crashed in the case it last started (or
//! while loading the program); what it reported before counts. Its stderr is passed on as it
//! comes, and its last lines end the crash's report.

use crate::backend::Backend;
use crate::cases::{CaseObserver, ProgramReport};
use crate::load::GpuUsage;
use crate::worker_events::WorkerEvent;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How many of a crashed worker's last stderr lines its report quotes.
const STDERR_TAIL_LINES: usize = 4;

/// How long the supervisor waits, once a worker has ended, for the rest of
/// its stderr (a process it started could keep the pipe open).
const STDERR_GRACE: Duration = Duration::from_secs(2);

/// What testing a program in a worker gave.
#[derive(Debug, Default)]
pub struct WorkerOutcome {
    pub report: ProgramReport,
    /// What the GPU driver did in the worker, when it opened a device.
    pub gpu_usage: Option<GpuUsage>,
}

/// Tests one program by running `worker` (which must write
/// [`WorkerEvent`]s on its stdout, `finished` last, and exit with status
/// 0); `program` is the program's name in the reports, `time_limit` how
/// long the worker may stay silent.
pub fn test_program_in_worker(
    mut worker: Command,
    program: &str,
    backend: Backend,
    time_limit: Option<Duration>,
) -> WorkerOutcome {
    let mut supervision = Supervision::new(program, backend);
    worker
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match worker.spawn() {
        Ok(child) => child,
        Err(error) => {
            supervision.could_not_start(&error);
            return supervision.outcome();
        }
    };
    let events = match child.stdout.take().map(read_events) {
        Some(Ok(events)) => events,
        not_read => {
            let _ = child.kill();
            let _ = child.wait();
            let error = match not_read {
                Some(Err(error)) => error,
                _ => std::io::Error::other("its stdout is not a pipe"),
            };
            supervision.could_not_start(&error);
            return supervision.outcome();
        }
    };
    // Without a thread to read it, the worker's stderr is closed.
    let stderr_tail = child
        .stderr
        .take()
        .and_then(|stderr| pass_stderr_on(stderr).ok());
    let mut deadline = time_limit.map(|limit| Instant::now() + limit);
    loop {
        let received = match deadline {
            Some(at) => events.recv_timeout(at.saturating_duration_since(Instant::now())),
            None => events.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(event) => {
                supervision.receive(event);
                deadline = time_limit.map(|limit| Instant::now() + limit);
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                let _ = child.wait();
                supervision.timed_out(time_limit.unwrap_or_default());
                return supervision.outcome();
            }
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    let exit = match child.wait() {
        Ok(status) => WorkerExit::of(status),
        Err(error) => WorkerExit::Unobserved(error.to_string()),
    };
    let tail = stderr_tail
        .and_then(|tail| tail.recv_timeout(STDERR_GRACE).ok())
        .unwrap_or_default();
    supervision.ended(exit, &tail);
    supervision.outcome()
}

/// The events of the worker's stdout, as they come; a line that is no
/// event comes as an [`UnreadableLine`]. The channel closes with the
/// stdout; `Err` when no thread can be started to read it.
fn read_events(
    stdout: impl Read + Send + 'static,
) -> std::io::Result<Receiver<Result<WorkerEvent, UnreadableLine>>> {
    let (sender, receiver) = channel();
    std::thread::Builder::new()
        .name("worker events".to_string())
        .spawn(move || {
            for line in lines(stdout) {
                let event = WorkerEvent::decode(&line).map_err(|why| UnreadableLine { why, line });
                if sender.send(event).is_err() {
                    return;
                }
            }
        })?;
    Ok(receiver)
}

/// Copies the worker's stderr to ours as it comes, and sends its last
/// [`STDERR_TAIL_LINES`] lines once it closes; `Err` when no thread can
/// be started to read it.
fn pass_stderr_on(stderr: impl Read + Send + 'static) -> std::io::Result<Receiver<Vec<String>>> {
    let (sender, receiver): (Sender<Vec<String>>, _) = channel();
    std::thread::Builder::new()
        .name("worker stderr".to_string())
        .spawn(move || {
            let mut tail = VecDeque::new();
            for line in lines(stderr) {
                let _ = writeln!(std::io::stderr(), "{line}");
                if tail.len() == STDERR_TAIL_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
            let _ = sender.send(tail.into());
        })?;
    Ok(receiver)
}

/// The lines of `input` (lossily decoded, without their line ends) until
/// it closes or fails.
fn lines(input: impl Read) -> impl Iterator<Item = String> {
    let mut reader = BufReader::new(input);
    std::iter::from_fn(move || {
        let mut bytes = Vec::new();
        match reader.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let line = String::from_utf8_lossy(&bytes);
                Some(line.trim_end_matches(['\n', '\r']).to_string())
            }
        }
    })
}

/// A line of a worker's stdout that encodes no event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnreadableLine {
    pub why: String,
    pub line: String,
}

/// How a worker process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerExit {
    /// Exit status 0.
    Success,
    /// Another exit status.
    Status(i32),
    /// Killed by this signal.
    Signal(i32),
    /// Its end could not be observed (waiting for it failed), or it ended
    /// in a way that is neither.
    Unobserved(String),
}

impl WorkerExit {
    pub fn of(status: ExitStatus) -> WorkerExit {
        if status.success() {
            WorkerExit::Success
        } else if let Some(code) = status.code() {
            WorkerExit::Status(code)
        } else if let Some(signal) = signal_of(status) {
            WorkerExit::Signal(signal)
        } else {
            WorkerExit::Unobserved(status.to_string())
        }
    }
}

#[cfg(unix)]
fn signal_of(status: ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal_of(_: ExitStatus) -> Option<i32> {
    None
}

/// The names of the signals whose numbers POSIX fixes.
fn signal_name(signal: i32) -> Option<&'static str> {
    match signal {
        1 => Some("SIGHUP"),
        2 => Some("SIGINT"),
        3 => Some("SIGQUIT"),
        4 => Some("SIGILL"),
        6 => Some("SIGABRT"),
        8 => Some("SIGFPE"),
        9 => Some("SIGKILL"),
        11 => Some("SIGSEGV"),
        13 => Some("SIGPIPE"),
        14 => Some("SIGALRM"),
        15 => Some("SIGTERM"),
        _ => None,
    }
}

/// What the worker was doing when its last event came.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Activity {
    /// Reading and compiling the program: no case has started.
    Loading,
    /// Running a case (`entry main case #2`).
    Running(String),
    /// Past a case: between cases, or finishing.
    After(String),
}

/// The supervisor's account of one worker: the events it reported and how
/// it ended, turned into the program's report.
struct Supervision {
    program: String,
    backend: Backend,
    outcome: WorkerOutcome,
    activity: Activity,
    finished: bool,
}

impl Supervision {
    fn new(program: &str, backend: Backend) -> Supervision {
        Supervision {
            program: program.to_string(),
            backend,
            outcome: WorkerOutcome::default(),
            activity: Activity::Loading,
            finished: false,
        }
    }

    fn receive(&mut self, event: Result<WorkerEvent, UnreadableLine>) {
        let report = &mut self.outcome.report;
        match event {
            Ok(WorkerEvent::CaseStarted(case)) => self.activity = Activity::Running(case),
            Ok(WorkerEvent::Passed) => {
                report.passed();
                self.activity.end_case();
            }
            Ok(WorkerEvent::Failed(what)) => {
                report.failed(what);
                self.activity.end_case();
            }
            Ok(WorkerEvent::Skipped(what)) => report.skipped(what),
            Ok(WorkerEvent::GpuUsage(usage)) => {
                self.outcome.gpu_usage = Some(match self.outcome.gpu_usage {
                    Some(earlier) => earlier.merge(usage),
                    None => usage,
                });
            }
            Ok(WorkerEvent::Finished) => self.finished = true,
            Err(UnreadableLine { why, line }) => report.failed(format!(
                "{}: internal error: the {} backend's worker wrote a line that is no event \
                 ({why}): {line:?}",
                self.program, self.backend
            )),
        }
    }

    fn could_not_start(&mut self, error: &std::io::Error) {
        self.outcome.report.failed(format!(
            "{}: internal error: cannot start a worker for the {} backend: {error}",
            self.program, self.backend
        ));
    }

    fn timed_out(&mut self, limit: Duration) {
        let during = match &self.activity {
            Activity::Loading => "loading the program".to_string(),
            Activity::Running(case) => case.clone(),
            Activity::After(case) => format!("after {case}"),
        };
        self.outcome.report.failed(format!(
            "{}: {during}: timed out after {} s",
            self.program,
            limit.as_secs_f64()
        ));
    }

    fn ended(&mut self, exit: WorkerExit, stderr_tail: &[String]) {
        let cause = match exit {
            WorkerExit::Success if self.finished => return,
            WorkerExit::Success => "exit status 0 before its last event".to_string(),
            WorkerExit::Status(code) => format!("exit status {code}"),
            WorkerExit::Signal(signal) => match signal_name(signal) {
                Some(name) => format!("signal {signal}, {name}"),
                None => format!("signal {signal}"),
            },
            WorkerExit::Unobserved(why) => format!("an end not observed: {why}"),
        };
        let during = match &self.activity {
            Activity::Loading => "while loading the program".to_string(),
            Activity::Running(case) => format!("while running {case}"),
            Activity::After(case) => format!("after {case}"),
        };
        let mut what = format!(
            "{}: internal error: the {} backend crashed ({cause}) {during}",
            self.program, self.backend
        );
        if !stderr_tail.is_empty() {
            what.push_str("; the end of its stderr:");
            for line in stderr_tail {
                what.push_str("\n  ");
                what.push_str(line);
            }
        }
        self.outcome.report.failed(what);
    }

    fn outcome(self) -> WorkerOutcome {
        self.outcome
    }
}

impl Activity {
    fn end_case(&mut self) {
        if let Activity::Running(case) = self {
            *self = Activity::After(std::mem::take(case));
        }
    }
}

#[cfg(test)]
mod tests {
    //! The supervisor's account of a worker from its events and its end (a
    //! crash keeps what was reported before it), then real processes (`sh`
    //! standing in for the worker): one killed by a signal, one that never
    //! finishes its case and is killed at the time limit.

    use super::*;

    fn started(case: &str) -> Result<WorkerEvent, UnreadableLine> {
        Ok(WorkerEvent::CaseStarted(case.to_string()))
    }

    #[test]
    fn a_worker_that_dies_keeps_what_it_reported() {
        let mut supervision = Supervision::new("p.fut", Backend::Cpu);
        supervision.receive(started("entry main case #0"));
        supervision.receive(Ok(WorkerEvent::Passed));
        supervision.receive(started("entry main case #1"));
        supervision.receive(Ok(WorkerEvent::Failed(
            "p.fut: entry main case #1: wrong\n  expected: 1".into(),
        )));
        supervision.receive(Ok(WorkerEvent::Skipped(
            "p.fut: case #2 expects fuel".into(),
        )));
        supervision.receive(started("entry main case #3"));
        supervision.ended(
            WorkerExit::Signal(6),
            &["thread 'main' has overflowed its stack".to_string()],
        );
        let report = supervision.outcome().report;
        assert_eq!(report.passed, 1);
        assert_eq!(report.skipped, ["p.fut: case #2 expects fuel"]);
        assert_eq!(
            report.failures,
            [
                "FAIL p.fut: entry main case #1: wrong\n  expected: 1",
                "FAIL p.fut: internal error: the cpu backend crashed (signal 6, SIGABRT) while \
                 running entry main case #3; the end of its stderr:\n  thread 'main' has \
                 overflowed its stack",
            ]
        );
    }

    #[test]
    fn how_a_worker_ended_decides_its_report() {
        // (events, exit, the failure reported, if any)
        let rows: Vec<(Vec<WorkerEvent>, WorkerExit, Option<&str>)> = vec![
            (vec![WorkerEvent::Passed, WorkerEvent::Finished], WorkerExit::Success, None),
            (
                vec![],
                WorkerExit::Signal(11),
                Some("FAIL p.fut: internal error: the gpu backend crashed (signal 11, SIGSEGV) while loading the program"),
            ),
            (
                vec![WorkerEvent::Passed],
                WorkerExit::Success,
                Some("FAIL p.fut: internal error: the gpu backend crashed (exit status 0 before its last event) while loading the program"),
            ),
            (
                vec![WorkerEvent::CaseStarted("entry f case #0".into()), WorkerEvent::Passed, WorkerEvent::Finished],
                WorkerExit::Status(101),
                Some("FAIL p.fut: internal error: the gpu backend crashed (exit status 101) after entry f case #0"),
            ),
            (
                vec![WorkerEvent::CaseStarted("entry f case #0".into())],
                WorkerExit::Signal(64),
                Some("FAIL p.fut: internal error: the gpu backend crashed (signal 64) while running entry f case #0"),
            ),
        ];
        for (events, exit, expected) in rows {
            let mut supervision = Supervision::new("p.fut", Backend::Gpu);
            for event in events.iter().cloned() {
                supervision.receive(Ok(event));
            }
            supervision.ended(exit.clone(), &[]);
            let failures = supervision.outcome().report.failures;
            assert_eq!(
                failures.first().map(String::as_str),
                expected,
                "{events:?} {exit:?}"
            );
            assert!(failures.len() <= 1, "{failures:?}");
        }
    }

    #[test]
    fn a_timeout_names_the_case_that_ran_and_gpu_usage_is_summed() {
        let usage = |kernel_runs, messages| {
            let mut usage = GpuUsage::default();
            usage.statistics.kernel_runs = kernel_runs;
            usage.validation_messages = messages;
            WorkerEvent::GpuUsage(usage)
        };
        let mut supervision = Supervision::new("p.fut", Backend::Gpu);
        supervision.receive(Ok(usage(2, None)));
        supervision.receive(Ok(usage(3, Some(1))));
        supervision.receive(started("entry main case #4"));
        supervision.timed_out(Duration::from_millis(2500));
        let outcome = supervision.outcome();
        assert_eq!(
            outcome.report.failures,
            ["FAIL p.fut: entry main case #4: timed out after 2.5 s"]
        );
        let usage = outcome.gpu_usage.unwrap_or_default();
        assert_eq!(usage.statistics.kernel_runs, 5);
        assert_eq!(usage.validation_messages, Some(1));
    }

    #[test]
    fn an_unreadable_line_is_a_failure_and_reading_goes_on() {
        let mut supervision = Supervision::new("p.fut", Backend::Reference);
        supervision.receive(Err(UnreadableLine {
            why: "not an event".into(),
            line: "hello".into(),
        }));
        supervision.receive(Ok(WorkerEvent::Passed));
        supervision.receive(Ok(WorkerEvent::Finished));
        supervision.ended(WorkerExit::Success, &[]);
        let report = supervision.outcome().report;
        assert_eq!(report.passed, 1);
        assert_eq!(
            report.failures,
            [
                "FAIL p.fut: internal error: the reference backend's worker wrote a line that is \
              no event (not an event): \"hello\""
            ]
        );
    }

    /// `sh -c script` as a worker.
    #[cfg(unix)]
    fn shell(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[cfg(unix)]
    #[test]
    fn a_worker_killed_by_a_signal_crashed_in_its_case() {
        let script = "echo 'started entry main case #0'; echo passed; \
                      echo 'started entry main case #1'; \
                      echo 'its last words' >&2; kill -9 $$";
        let outcome = test_program_in_worker(shell(script), "p.fut", Backend::Cpu, None);
        assert_eq!(outcome.report.passed, 1);
        assert_eq!(
            outcome.report.failures,
            [
                "FAIL p.fut: internal error: the cpu backend crashed (signal 9, SIGKILL) while \
                 running entry main case #1; the end of its stderr:\n  its last words"
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_silent_worker_is_killed_at_the_time_limit() {
        let script = "echo 'started entry main case #0'; echo passed; \
                      echo 'started entry main case #1'; exec sleep 60";
        let start = Instant::now();
        let outcome = test_program_in_worker(
            shell(script),
            "p.fut",
            Backend::Cpu,
            Some(Duration::from_millis(300)),
        );
        assert!(start.elapsed() < Duration::from_secs(30));
        assert_eq!(outcome.report.passed, 1);
        assert_eq!(
            outcome.report.failures,
            ["FAIL p.fut: entry main case #1: timed out after 0.3 s"]
        );
    }

    #[test]
    fn a_worker_that_cannot_start_is_a_failure() {
        let worker = Command::new("/no/such/runestone-worker");
        let outcome = test_program_in_worker(worker, "p.fut", Backend::Cpu, None);
        assert_eq!(outcome.report.failures.len(), 1);
        assert!(
            outcome.report.failures[0].starts_with(
                "FAIL p.fut: internal error: cannot start a worker for the cpu backend"
            ),
            "{:?}",
            outcome.report.failures
        );
    }
}
