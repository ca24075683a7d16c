//! The board diagram `query` prints above its answer: a KIF board diagram (BOD) for shogi,
//! which every Japanese reader knows; for yari shogi, which has no Japanese piece names, a
//! grid of SFEN letters with Western coordinates (files 7 to 1, ranks a to i). `query --bod`
//! reads either back.

use kifudex::{
    kifu::{bod::write_bod, grid::write_grid},
    shogi::{Setup, Variant},
};

/// The diagram of `setup`.
pub fn diagram(setup: &Setup) -> String {
    if setup.variant == Variant::Standard { write_bod(setup) } else { write_grid(setup) }
}
