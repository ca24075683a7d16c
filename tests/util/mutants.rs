//! Random byte and line mutations of record files, and inputs that grow by a factor, for the
//! test of mutated records (`tests/mutated_records.rs`) and the records benchmark
//! (`benches/records.rs`).
//!
//! Every mutant is a function of its number alone (a fixed seed), so a failure names the
//! mutant that shows it and the benchmark times the very inputs the test checks.

use std::path::{Path, PathBuf};

use crate::util::Rng;

/// The record files mutants are made from: a path (for its extension) and the bytes.
pub struct Sources {
    pub files: Vec<(PathBuf, Vec<u8>)>,
}

impl Sources {
    /// Every file under `root` but Markdown and scripts, in path order.
    pub fn load(root: &Path) -> Sources {
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = entry.expect("a readable directory");
            let path = entry.path();
            if entry.file_type().is_file() && !path.extension().is_some_and(|e| e == "md" || e == "py") {
                files.push((path.to_path_buf(), std::fs::read(path).expect("a readable file")));
            }
        }
        Sources { files }
    }

    /// Mutant number `n`: a source file with one to four random byte or line edits. Returns
    /// the source's path, the bytes, and the edits made (for a failure's message).
    pub fn mutant(&self, n: u64) -> (&Path, Vec<u8>, Vec<String>) {
        let mut rng = Rng::new(0x5EED_0000 + n);
        let (path, original) = &self.files[rng.below(self.files.len())];
        let mut bytes = original.clone();
        let mut edits = Vec::new();
        for _ in 0..1 + rng.below(4) {
            edits.push(self.edit(&mut bytes, &mut rng));
        }
        (path, bytes, edits)
    }

    /// A random line of a random file.
    fn donor_line(&self, rng: &mut Rng) -> Vec<u8> {
        let (_, bytes) = &self.files[rng.below(self.files.len())];
        let lines = split_lines(bytes);
        lines[rng.below(lines.len())].to_vec()
    }

    /// One edit of `bytes`; returns what it did.
    fn edit(&self, bytes: &mut Vec<u8>, rng: &mut Rng) -> String {
        if bytes.is_empty() {
            bytes.extend(self.donor_line(rng));
            return "empty: a donor line".into();
        }
        let at = rng.below(bytes.len());
        match rng.below(12) {
            0 => {
                let b = rng.next() as u8;
                bytes[at] = b;
                format!("byte {at} = {b:#04x}")
            }
            1 => {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                bytes.drain(at..end);
                format!("delete bytes {at}..{end}")
            }
            2 => {
                let new: Vec<u8> = (0..1 + rng.below(4)).map(|_| rng.next() as u8).collect();
                let text = format!("insert {new:02x?} at {at}");
                bytes.splice(at..at, new);
                text
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
                format!("repeat bytes {at}..{end}")
            }
            4 => {
                bytes.truncate(at);
                format!("truncate at {at}")
            }
            5 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                bytes.splice(at..at, token.iter().copied());
                format!("insert {:?} at {at}", String::from_utf8_lossy(token))
            }
            kind => {
                let mut lines: Vec<Vec<u8>> = split_lines(bytes).into_iter().map(<[u8]>::to_vec).collect();
                let i = rng.below(lines.len());
                let text = match kind {
                    6 => {
                        lines.remove(i);
                        format!("delete line {}", i + 1)
                    }
                    7 | 8 => {
                        let copies = if kind == 8 && rng.below(4) == 0 { 50 } else { 1 + rng.below(3) };
                        let line = lines[i].clone();
                        for _ in 0..copies {
                            lines.insert(i, line.clone());
                        }
                        format!("line {} repeated {copies} more times", i + 1)
                    }
                    9 => {
                        let j = rng.below(lines.len());
                        lines.swap(i, j);
                        format!("swap lines {} and {}", i + 1, j + 1)
                    }
                    10 => {
                        lines.insert(i, self.donor_line(rng));
                        format!("donor line inserted at {}", i + 1)
                    }
                    _ => {
                        lines[i] = self.donor_line(rng);
                        format!("line {} replaced by a donor line", i + 1)
                    }
                };
                *bytes = lines.concat();
                text
            }
        }
    }
}

/// Pieces of the formats, inserted whole: structure that gets past a reader's first checks.
const TOKENS: &[&[u8]] = &[
    b"\n",
    b"\r",
    "\u{3000}".as_bytes(),
    "同".as_bytes(),
    "変化：3手\n".as_bytes(),
    "まで".as_bytes(),
    "手数----指手--\n".as_bytes(),
    "▲".as_bytes(),
    "△".as_bytes(),
    "|v玉".as_bytes(),
    "先手 反則負け".as_bytes(),
    b"*",
    b"+",
    b"%TORYO\n",
    b"/\n",
    b"{",
    b"}",
    b"[",
    b"\"",
    b"(",
    b"P-7f ",
    b"7g7f ",
    b"moves ",
    b"\x81",
    b"\xef\xbb\xbf",
];

/// The lines of `bytes`, each with its line break (the last may have none).
pub fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
    if lines.is_empty() {
        lines.push(&[]);
    }
    lines
}

/// Inputs that grow with `k`: each family's text at scale `k` is about `k` times its text at
/// scale 1, built to trip a reader, replay or a writer into more than linear work (long lines,
/// many games, many variations deep in a long game, deep nesting, unclosed brackets). Main
/// lines with variations stay under 1,024 plies up to scale 4, where the rules layer
/// rebuilds its position (a constant cost per move taken back past that point).
pub fn grown(family: usize, k: usize) -> (&'static str, String) {
    // A legal cycle of four moves (the kings step out and back).
    let cycle_kif = ["５八玉(59)", "５二玉(51)", "５九玉(58)", "５一玉(52)"];
    let cycle_usi = "5i5h 5a5b 5h5i 5b5a ";
    let kif_line = |plies: usize| {
        let mut text = String::from("手合割：平手\n手数----指手--\n");
        for i in 0..plies {
            text.push_str(&format!("{:>4} {}\n", i + 1, cycle_kif[i % 4]));
        }
        text
    };
    match family {
        // Many variations at the end of a long main line.
        0 => {
            let mut text = kif_line(240 * k);
            for _ in 0..240 * k {
                text.push_str(&format!("\n変化：{}手\n{:>4} ７六歩(77)\n", 240 * k - 3, 240 * k - 3));
            }
            ("deep_variations.kif", text)
        }
        // A variation at every move.
        1 => {
            let mut text = kif_line(240 * k);
            for i in (1..=240 * k).rev() {
                let mv = if i % 2 == 1 { "７六歩(77)" } else { "３四歩(33)" };
                text.push_str(&format!("\n変化：{i}手\n{i:>4} {mv}\n"));
            }
            ("every_move_varies.kif", text)
        }
        2 => ("long_ki2_line.ki2", "▲５八玉△５二玉▲５九玉△５一玉".repeat(250 * k)),
        3 => ("many_games.csa", "V2.2\nPI\n+\n+5958OU\n-5152OU\n%TORYO\n/\n".repeat(300 * k)),
        4 => ("long_usi_line.usi", format!("position startpos moves {}\n", cycle_usi.repeat(250 * k))),
        5 => ("many_moves.psn", "K-5h {a} K-5b K-5i K-5a ".repeat(250 * k)),
        6 => ("many_tags.psn", "[Key \"value\"\n".repeat(2_000 * k)),
        7 => ("open_braces.psn", format!("P-7f{}", "{".repeat(10_000 * k))),
        8 => ("comment_commas.csa", "'comment,'".repeat(3_000 * k)),
        9 => (
            "move_times.csa",
            format!("PI\n+\n{}", "+5958OU,T1,-5152OU,T1,+5859OU,T1,-5251OU,T1,".repeat(250 * k)),
        ),
        10 => ("open_parentheses.psn", "(P-7f ".repeat(2_000 * k)),
        11 => ("empty_jkf_moves.jkf", format!("{{\"moves\": [{}{{}}]}}", "{}, ".repeat(5_000 * k))),
        12 => ("open_brackets.psn", "[".repeat(10_000 * k)),
        _ => {
            // JKF forks at every move of a long line.
            let mv = |from: (u8, u8), to: (u8, u8), color: u8| {
                format!(
                    "{{\"move\": {{\"from\": {{\"x\": {}, \"y\": {}}}, \"to\": {{\"x\": {}, \"y\": {}}}, \"piece\": \"OU\", \"color\": {color}}}",
                    from.0, from.1, to.0, to.1
                )
            };
            let cycle =
                [mv((5, 9), (5, 8), 0), mv((5, 1), (5, 2), 1), mv((5, 8), (5, 9), 0), mv((5, 2), (5, 1), 1)];
            // The king steps aside instead.
            let aside =
                [mv((5, 9), (4, 8), 0), mv((5, 1), (4, 2), 1), mv((5, 8), (6, 8), 0), mv((5, 2), (6, 2), 1)];
            let mut text = String::from("{\"moves\": [{}");
            for i in 0..240 * k {
                let fork = &aside[i % 4];
                text.push_str(&format!(", {}, \"forks\": [[{fork}}}]]}}", cycle[i % 4]));
            }
            text.push_str("]}");
            ("forks_everywhere.jkf", text)
        }
    }
}

/// The number of families [`grown`] has.
pub const FAMILIES: usize = 14;
