//! 10,000 random byte and line mutations of corpus files never make decoding, a reader,
//! replay or a writer panic, and the work they do grows no faster than the input.
//!
//! The files are those of `../shared/corpus` when it is present, else the corpus files copied
//! into `tests/data/kifu`. Mutants are numbered and made from a fixed seed (`util/mutants.rs`).
//!
//! Work is counted, not timed: this binary's allocator counts the bytes allocated on each
//! thread, a deterministic measure that grows with every copy, string and position the code
//! makes. A mutant may allocate at most [`PER_BYTE`] bytes per input byte (plus a fixed
//! allowance), and inputs built to grow by a factor (`mutants::grown`) must cost no more per
//! added byte when doubled again than when doubled first: quadratic work would cost twice
//! as much per byte at each step. Time itself is measured by the records benchmark
//! (`cargo bench --bench records -- --mutations`), on the same mutants and inputs.

#[allow(dead_code)]
mod util;

use std::{
    alloc::{GlobalAlloc, Layout, System},
    cell::Cell,
    panic::{AssertUnwindSafe, catch_unwind},
    path::{Path, PathBuf},
};

use kifudex::{
    kifu::{self, Format, encoding},
    replay::replay,
};
use util::{kifudex, mutants};

/// Counts the bytes each thread allocates (growth by `realloc` counts as new bytes).
struct Counting;

thread_local! {
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

fn count(bytes: usize) {
    let _ = ALLOCATED.try_with(|a| a.set(a.get().wrapping_add(bytes as u64)));
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()));
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The bytes allocated on this thread while `f` runs.
fn allocated_by(f: impl FnOnce()) -> u64 {
    let before = ALLOCATED.with(Cell::get);
    f();
    ALLOCATED.with(Cell::get) - before
}

const MUTANTS: u64 = 10_000;

/// The most a mutant may allocate per input byte, above [`ALLOWANCE`]. Decoding, the game
/// model, replay (a position and a key per move) and the writers' texts each take a small
/// multiple of the input; a position copied for every variation or a text rescanned for
/// every line takes the input's size again for every line.
const PER_BYTE: u64 = 1_500;
/// What any input may allocate, whatever its size (tables, start positions, buffers).
const ALLOWANCE: u64 = 4 << 20;

/// The files to mutate.
fn sources() -> mutants::Sources {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let root = match std::env::var_os("KIFUDEX_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None if corpus.is_dir() => corpus,
        None => {
            eprintln!("the corpus is not present: mutating the corpus files in tests/data/kifu");
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu")
        }
    };
    mutants::Sources::load(&root)
}

/// Decodes and reads `bytes`, replays every game, and (when `write` is set) writes every
/// game in every format and reads the KIF text back.
fn exercise(path: &Path, bytes: &[u8], write: bool) {
    let Ok(parsed) = kifu::read_file(Some(path), bytes) else { return };
    for game in &parsed.games {
        let r = replay(game);
        if write {
            for format in Format::ALL {
                let text = kifudex::write::write(format, game, &r);
                let _ = encoding::encode_cp932(&text);
                if format == Format::Kif {
                    let _ = kifu::read_file(None, text.as_bytes());
                }
            }
        }
    }
}

#[test]
fn ten_thousand_mutations_never_panic_and_allocate_in_proportion() {
    let sources = sources();
    assert!(sources.files.len() >= 50, "only {} files to mutate", sources.files.len());
    let mut failures = Vec::new();
    let (mut bytes_in, mut bytes_allocated) = (0u64, 0u64);
    for n in 0..MUTANTS {
        let (path, bytes, edits) = sources.mutant(n);
        // Reading and replay for every mutant; the writers too for one in four.
        let mut outcome = Ok(());
        let used = allocated_by(|| {
            outcome = catch_unwind(AssertUnwindSafe(|| exercise(path, &bytes, n % 4 == 0)));
        });
        let name = format!("mutant {n} of {} ({})", path.display(), edits.join("; "));
        if outcome.is_err() {
            failures.push(format!("{name}: panicked"));
            continue;
        }
        let len = bytes.len() as u64;
        if used > PER_BYTE * len + ALLOWANCE {
            failures.push(format!("{name}: {used} bytes allocated for {len} bytes of input"));
        }
        bytes_in += len;
        bytes_allocated += used;
    }
    eprintln!(
        "{MUTANTS} mutants, {:.1} MB in, {:.0} bytes allocated per input byte on average",
        bytes_in as f64 / 1e6,
        bytes_allocated as f64 / bytes_in.max(1) as f64
    );
    assert!(failures.is_empty(), "{} of {MUTANTS} mutants fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn inputs_that_grow_cost_the_same_per_byte() {
    let mut failures = Vec::new();
    for family in 0..mutants::FAMILIES {
        let scales = [1, 2, 4];
        let costs: Vec<(u64, u64)> = scales
            .iter()
            .map(|&k| {
                let (name, text) = mutants::grown(family, k);
                let used = allocated_by(|| exercise(Path::new(name), text.as_bytes(), true));
                (text.len() as u64, used)
            })
            .collect();
        let name = mutants::grown(family, 1).0;
        // The cost of each added byte from scale 1 to 2, and from 2 to 4: the same for linear
        // work, twice as much for quadratic work.
        let per_byte = |a: (u64, u64), b: (u64, u64)| b.1.saturating_sub(a.1) as f64 / (b.0 - a.0) as f64;
        let (low, high) = (per_byte(costs[0], costs[1]), per_byte(costs[1], costs[2]));
        eprintln!("{name}: {low:.0} then {high:.0} bytes allocated per added input byte");
        if high > 1.5 * low + 64.0 {
            failures
                .push(format!("{name}: {low:.0} then {high:.0} bytes allocated per added byte ({costs:?})"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Mutants indexed together as one archive: whatever they hold, the run finishes, and every
/// export and `show` of what it stored exits 0 (no stored game makes others unreadable).
#[test]
fn an_archive_of_mutants_reads_back_through_every_export_and_show() {
    const INDEXED: u64 = 1_000;
    let sources = sources();
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dir = tmp.path().join("mutants");
    std::fs::create_dir(&dir).expect("a directory for the mutants");
    for n in 0..INDEXED {
        let (path, bytes, _) = sources.mutant(n);
        // The source's extension, so that each mutant is read as its format would be.
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("txt");
        std::fs::write(dir.join(format!("m{n:05}.{ext}")), bytes).expect("a mutant written");
    }
    let db = tmp.path().join("mutants.sqlite");
    let out = kifudex(["index", "--quiet"]).args([&dir]).db(&db).output();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    let games = util::assert_every_read_works(&db, "mutants", 300);
    eprintln!("{INDEXED} mutants indexed: {games} games stored");
    assert!(games > INDEXED as usize / 4, "only {games} games stored from {INDEXED} mutants");
}
