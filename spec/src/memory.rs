//! The memory limit every implementation honours (DESIGN.md, "Errors, limits
//! and bad input"): an allocation a program asks for past the limit ends the
//! run with a located error instead of a process the kernel kills.
//!
//! Two checks decide, both at the places where a program creates an array
//! whose size comes from its values (`iota`, `replicate`, ranges, `concat`):
//! - the array's *data size* — its elements times the bytes of their
//!   primitive leaves, as Futhark lays arrays out — must fit the limit. For
//!   an array of a primitive type the data size does not depend on the
//!   implementation, so a program asking for `replicate 100000000000 1i32`
//!   fails in the same way, at the same place, on every backend;
//! - the process's live heap plus that data size must fit too: arrays built
//!   row by row (`map (\i -> replicate m i) (iota n)`) grow the heap in small
//!   steps, each of which is checked. The live heap is counted by
//!   [`CountingAllocator`] where the binary installs it (the `runestone`
//!   command does); without it this check sees no heap. Representations
//!   differ between implementations, so near the limit this check may stop one
//!   backend and not another: the differential oracles treat a memory-limit
//!   error as no result, like running out of fuel (SPEC_NOTES TFP18-29).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::OnceLock;

/// The most bytes of arrays a run may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct MemoryLimit {
    bytes: u64,
}

/// The share of physical memory the default limit allows: a half, leaving
/// room for the implementation's own structures and for other processes.
const DEFAULT_SHARE_OF_PHYSICAL_MEMORY: u64 = 2;

/// The default limit where physical memory cannot be read.
const FALLBACK_LIMIT_BYTES: u64 = 4 << 30;

impl MemoryLimit {
    /// A limit of `bytes` bytes.
    pub const fn from_bytes(bytes: u64) -> MemoryLimit {
        MemoryLimit { bytes }
    }

    /// The limit in bytes.
    pub fn bytes(self) -> u64 {
        self.bytes
    }

    /// The default: half of this machine's physical memory (`MemTotal` of
    /// `/proc/meminfo`), 4 GiB where that cannot be read.
    pub fn of_this_machine() -> MemoryLimit {
        static DEFAULT: OnceLock<MemoryLimit> = OnceLock::new();
        *DEFAULT.get_or_init(|| {
            let physical = std::fs::read_to_string("/proc/meminfo")
                .ok()
                .and_then(|text| physical_memory_bytes(&text));
            MemoryLimit::from_bytes(physical.map_or(FALLBACK_LIMIT_BYTES, |b| {
                b / DEFAULT_SHARE_OF_PHYSICAL_MEMORY
            }))
        })
    }

    /// Reads a size as `--memory-limit` and `-- runestone-options:
    /// memory-limit=SIZE` take it: a number of bytes with an optional unit,
    /// `K`, `M`, `G`, `T` (powers of 1024; `KiB`, `MB`, ... are read the same).
    pub fn parse(text: &str) -> Result<MemoryLimit, String> {
        let trimmed = text.trim();
        let digits_end = trimmed
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(trimmed.len());
        let (digits, unit) = trimmed.split_at(digits_end);
        let number: u64 = digits
            .parse()
            .map_err(|_| format!("`{text}` is not a size: expected bytes such as 512M or 8G"))?;
        let shift = match unit.trim().to_ascii_uppercase().as_str() {
            "" | "B" => 0,
            "K" | "KB" | "KIB" => 10,
            "M" | "MB" | "MIB" => 20,
            "G" | "GB" | "GIB" => 30,
            "T" | "TB" | "TIB" => 40,
            other => {
                return Err(format!(
                    "`{text}`: unknown unit `{other}` (expected K, M, G or T)"
                ))
            }
        };
        number
            .checked_mul(1u64 << shift)
            .map(MemoryLimit::from_bytes)
            .ok_or_else(|| format!("`{text}` is too large a size"))
    }

    /// The size of `-- runestone-options: memory-limit=SIZE` in a program's
    /// text, if it has one (a malformed size is ignored, as unknown options are).
    pub fn from_program_options(text: &str) -> Option<MemoryLimit> {
        text.lines()
            .filter_map(|line| line.trim().strip_prefix("-- runestone-options:"))
            .flat_map(str::split_whitespace)
            .filter_map(|word| word.strip_prefix("memory-limit="))
            .filter_map(|size| MemoryLimit::parse(size).ok())
            .next_back()
    }

    /// Whether a new array of `elements` elements of `element_bytes` bytes
    /// of data each may be allocated now (both checks of the module header).
    pub fn admit(self, elements: u64, element_bytes: u64) -> Result<(), MemoryLimitExceeded> {
        let requested = elements.checked_mul(element_bytes);
        let exceeded = |in_use| MemoryLimitExceeded {
            requested,
            in_use,
            limit: self,
        };
        let Some(bytes) = requested.filter(|bytes| *bytes <= self.bytes) else {
            return Err(exceeded(None));
        };
        let in_use = live_heap_bytes();
        if in_use.saturating_add(bytes) > self.bytes {
            return Err(exceeded(Some(in_use)));
        }
        Ok(())
    }
}

impl fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", HumanBytes(self.bytes))
    }
}

/// `MemTotal` of `/proc/meminfo`'s text, in bytes.
fn physical_memory_bytes(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kibibytes: u64 = line
        .trim_start_matches("MemTotal:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kibibytes.checked_mul(1024)
}

/// An allocation the limit refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimitExceeded {
    /// The bytes asked for; `None` when the size overflows 64 bits.
    pub requested: Option<u64>,
    /// The live heap when the second check refused; `None` when the request
    /// alone is past the limit.
    pub in_use: Option<u64>,
    pub limit: MemoryLimit,
}

impl fmt::Display for MemoryLimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.requested {
            Some(bytes) => write!(f, "allocating {}", HumanBytes(bytes))?,
            None => write!(f, "allocating more than 2^64 bytes")?,
        }
        if let Some(in_use) = self.in_use {
            write!(f, " while {} are in use", HumanBytes(in_use))?;
        }
        write!(
            f,
            " exceeds the memory limit of {} (raise it with --memory-limit)",
            self.limit
        )
    }
}

/// A byte count as people read it: `400000000000 bytes (372.5 GiB)`.
struct HumanBytes(u64);

impl fmt::Display for HumanBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        let mut scaled = self.0 as f64;
        let mut unit = None;
        for name in UNITS {
            if scaled < 1024.0 {
                break;
            }
            scaled /= 1024.0;
            unit = Some(name);
        }
        match unit {
            None => write!(f, "{} bytes", self.0),
            Some(unit) => write!(f, "{} bytes ({scaled:.1} {unit})", self.0),
        }
    }
}

/// The live heap of the process, as [`CountingAllocator`] counted it; 0
/// where it is not the global allocator.
pub fn live_heap_bytes() -> u64 {
    LIVE_HEAP_BYTES.load(Ordering::Relaxed).max(0) as u64
}

static LIVE_HEAP_BYTES: AtomicI64 = AtomicI64::new(0);

/// Each thread adds its allocations to [`LIVE_HEAP_BYTES`] once they amount
/// to this many bytes (either way), so that small allocations cost no atomic
/// operation; the count is exact to within this much per thread.
const UNSHARED_BYTES_PER_THREAD: i64 = 1 << 20;

thread_local! {
    static UNSHARED_DELTA: Cell<i64> = const { Cell::new(0) };
}

fn record(delta: i64) {
    let shared = UNSHARED_DELTA.try_with(|unshared| {
        let total = unshared.get() + delta;
        if total.abs() >= UNSHARED_BYTES_PER_THREAD {
            unshared.set(0);
            total
        } else {
            unshared.set(total);
            0
        }
    });
    // A thread being torn down has no thread-locals left: share directly.
    let shared = shared.unwrap_or(delta);
    if shared != 0 {
        LIVE_HEAP_BYTES.fetch_add(shared, Ordering::Relaxed);
    }
}

/// A global allocator that counts the live heap for [`live_heap_bytes`]
/// around another allocator: `#[global_allocator] static A:
/// CountingAllocator<MiMalloc> = CountingAllocator::new(MiMalloc);`.
pub struct CountingAllocator<A> {
    inner: A,
}

impl<A> CountingAllocator<A> {
    pub const fn new(inner: A) -> CountingAllocator<A> {
        CountingAllocator { inner }
    }
}

// SAFETY: every call is forwarded unchanged to `inner`, a `GlobalAlloc`;
// the bookkeeping around it allocates nothing (a `const` thread-local cell
// and atomics).
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAllocator<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = self.inner.alloc(layout);
        if !pointer.is_null() {
            record(layout.size() as i64);
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let pointer = self.inner.alloc_zeroed(layout);
        if !pointer.is_null() {
            record(layout.size() as i64);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        self.inner.dealloc(pointer, layout);
        record(-(layout.size() as i64));
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = self.inner.realloc(pointer, layout, new_size);
        if !moved.is_null() {
            record(new_size as i64 - layout.size() as i64);
        }
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_with_binary_units() {
        assert_eq!(MemoryLimit::parse("512").unwrap().bytes(), 512);
        assert_eq!(MemoryLimit::parse("1K").unwrap().bytes(), 1024);
        assert_eq!(MemoryLimit::parse("3M").unwrap().bytes(), 3 << 20);
        assert_eq!(MemoryLimit::parse("2GiB").unwrap().bytes(), 2 << 30);
        assert_eq!(MemoryLimit::parse("1t").unwrap().bytes(), 1 << 40);
        assert!(MemoryLimit::parse("").is_err());
        assert!(MemoryLimit::parse("12X").is_err());
        assert!(MemoryLimit::parse("-1G").is_err());
        assert!(MemoryLimit::parse("99999999999T").is_err());
    }

    #[test]
    fn the_program_option_is_read_from_its_line() {
        let text = "-- runestone-options: fuel=10 memory-limit=64K\nentry main = 1";
        assert_eq!(
            MemoryLimit::from_program_options(text),
            Some(MemoryLimit::from_bytes(64 << 10))
        );
        assert_eq!(MemoryLimit::from_program_options("entry main = 1"), None);
    }

    #[test]
    fn a_request_past_the_limit_or_overflowing_is_refused() {
        let limit = MemoryLimit::from_bytes(1000);
        assert!(limit.admit(250, 4).is_ok());
        let refused = limit.admit(251, 4).unwrap_err();
        assert_eq!(refused.requested, Some(1004));
        assert_eq!(refused.in_use, None);
        assert_eq!(limit.admit(u64::MAX, 8).unwrap_err().requested, None);
        assert_eq!(
            MemoryLimit::from_bytes(1 << 30)
                .admit(100_000_000_000, 4)
                .unwrap_err()
                .to_string(),
            "allocating 400000000000 bytes (372.5 GiB) exceeds the memory limit of \
             1073741824 bytes (1.0 GiB) (raise it with --memory-limit)"
        );
    }

    #[test]
    fn physical_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       16318412 kB\nMemFree:         1000 kB\n";
        assert_eq!(physical_memory_bytes(meminfo), Some(16318412 * 1024));
        assert_eq!(physical_memory_bytes("nothing"), None);
        assert!(MemoryLimit::of_this_machine().bytes() > 0);
    }
}
