#![no_main]

use kifudex_fuzz::{Allocations, checks};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::run("blocks", data, &Allocations));
