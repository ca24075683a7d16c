//! What the integration tests share: the one way they run the kifudex binary
//! ([`kifudex`], [`TestCommand`]), random legal games ([`Rng`], [`random_playout`], [`perft`]),
//! generated games written as records with the positions they reach worked out here
//! ([`games`]), the reads every database must allow ([`assert_every_read_works`]), and the
//! mutants of record files ([`mutants`]).

mod command;
pub mod games;
// The mutated-records test and the records benchmark make mutants; the others do not.
#[allow(dead_code)]
pub mod mutants;
mod random;
mod readback;

// Shared by the test binaries and the benchmarks, each of which uses a part.
#[allow(unused_imports)]
pub use self::{
    command::{TestCommand, command, exe, indexed, kifudex, wrapper},
    random::{Rng, perft, random_playout},
    readback::assert_every_read_works,
};
