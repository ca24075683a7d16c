//! The fuzz targets' shared code: the invariants ([`checks`], also run by the regression
//! tests) and the meter that makes the linearity check deterministic: a global allocator
//! that counts allocations and the bytes they ask for.

use std::{
    alloc::{GlobalAlloc, Layout, System},
    sync::atomic::{AtomicU64, Ordering},
};

pub mod checks;

use checks::{Meter, Work};

/// The system allocator, counting.
pub struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

fn count(size: usize) {
    ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(size as u64, Ordering::Relaxed);
}

// SAFETY: every call goes straight to the system allocator with the caller's arguments.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Measures work by the allocations made while it runs (the fuzzers run one input at a time
/// on one thread, so the counts are the work's own).
pub struct Allocations;

impl Meter for Allocations {
    fn measure(&self, f: &mut dyn FnMut()) -> Option<Work> {
        let (a, b) = (ALLOCATIONS.load(Ordering::Relaxed), BYTES.load(Ordering::Relaxed));
        f();
        Some(Work {
            allocations: ALLOCATIONS.load(Ordering::Relaxed) - a,
            bytes: BYTES.load(Ordering::Relaxed) - b,
        })
    }
}
