//! The reads every database the tests build must allow, whatever went into it.

use std::{path::Path, process::Stdio};

use super::kifudex;

/// The invariant every database the tests build must keep, whatever went into it: every
/// export (`games`, `moves`, `positions`, `tree`, `rejects`, `warnings`) exits 0, and so does
/// `show` (or exits 1, saying only what the format loses of the game) of every game, or of `shown_at_most` games spread evenly over the ids when there are
/// more: in its default format (KIF; Western for yari shogi), and in every format that holds
/// its game when it has at most 1,000 plies (a longer game's JKF text runs to hundreds of
/// megabytes) and is one of the first five shown or one of at most fifty.
/// Returns the number of games listed.
pub fn assert_every_read_works(db: &Path, context: &str, shown_at_most: usize) -> usize {
    let run = |args: &[&str]| {
        // The output is not kept: a million-ply game makes a million rows.
        let mut cmd = kifudex(args);
        cmd.db(db).cmd().stdout(Stdio::null());
        let out = cmd.output();
        assert!(
            out.status.success(),
            "{context}: `kifudex {}` exited {:?}: {}",
            args.join(" "),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // `show` exits 1 when the format loses something of the game (an ending USI has no word
    // for), and then says only that, game by game.
    let show = |args: &[&str]| {
        let mut cmd = kifudex(args);
        cmd.db(db).cmd().stdout(Stdio::null());
        let out = cmd.output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let said = format!("kifudex: game {}: ", args[1]);
        assert!(
            out.status.success()
                || out.status.code() == Some(1) && stderr.lines().all(|l| l.starts_with(&said)),
            "{context}: `kifudex {}` exited {:?}: {stderr}",
            args.join(" "),
            out.status.code(),
        );
    };
    for table in ["games", "moves", "positions", "tree", "rejects", "warnings"] {
        run(&["export", table]);
    }
    let out = kifudex(["export", "games"]).db(db).output();
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let headers = reader.headers().expect("a header row").clone();
    let column = |name: &str| headers.iter().position(|h| h == name).expect("a column of export games");
    let (id_at, plies_at, variant_at) = (column("game_id"), column("plies"), column("variant"));
    let mut games: Vec<(i64, u64, bool)> = reader
        .records()
        .map(|r| {
            let r = r.expect("a CSV row");
            let yari = &r[variant_at] == "yari";
            (r[id_at].parse().expect("a game id"), r[plies_at].parse().expect("a ply count"), yari)
        })
        .collect();
    games.sort_unstable();
    games.dedup();
    let step = games.len().div_ceil(shown_at_most.max(1)).max(1);
    let few = games.len().min(shown_at_most) <= 50;
    for (shown, &(id, plies, yari)) in games.iter().step_by(step).take(shown_at_most).enumerate() {
        show(&["show", &id.to_string()]);
        if (few || shown < 5) && plies <= 1_000 {
            let formats: &[&str] = match yari {
                false => &["kif", "ki2", "csa", "usi", "jkf", "western", "hosking"],
                true => &["usi", "western", "hosking"],
            };
            for to in formats {
                show(&["show", &id.to_string(), "--to", to]);
            }
        }
    }
    games.len()
}
