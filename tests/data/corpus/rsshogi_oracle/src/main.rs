//! Second oracle for kifudex's corpus expectations.
//!
//! Reads kifu files with the record readers of `rsshogi` and prints one JSON
//! object per game on stdout. Paths are given on the command line (directories
//! are walked in sorted order); the first argument is the corpus root, printed
//! paths are relative to it.
//!
//! rsshogi's readers reject a whole record when one move is illegal (they only
//! report the index). To still get the position before the illegal move, the
//! text is cut just before that move and read again; such games are reported
//! with `status = "illegal"` and `plies` = the number of legal moves.

use std::fs;
use std::path::{Path, PathBuf};

use rsshogi::board::Position;
use rsshogi::records::{Record, csa, jkf, kif};
use rsshogi::types::Move;
use serde_json::{Value, json};

fn decode(bytes: &[u8]) -> (String, &'static str) {
    if let Some(rest) = bytes.strip_prefix(b"\xef\xbb\xbf") {
        return (String::from_utf8_lossy(rest).into_owned(), "utf-8-bom");
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (s.to_string(), "utf-8");
    }
    let (s, _, bad) = encoding_rs::SHIFT_JIS.decode(bytes);
    if !bad {
        return (s.into_owned(), "cp932");
    }
    let (s, _, bad) = encoding_rs::EUC_JP.decode(bytes);
    if !bad {
        return (s.into_owned(), "euc-jp");
    }
    (encoding_rs::SHIFT_JIS.decode(bytes).0.into_owned(), "cp932-lossy")
}

fn drop_ply_field(sfen: &str) -> String {
    sfen.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// Replays the main line of a parsed record and summarises it.
fn summarise(record: &Record) -> Value {
    let mut pos = Position::empty();
    let start = record.init_position_sfen().to_string();
    if let Err(e) = pos.set_sfen(&start) {
        return json!({"status": "error", "error": format!("start sfen: {e}")});
    }
    let mut plies = 0usize;
    let mut usi = Vec::new();
    for entry in record.main_moves() {
        let mv = entry.mv();
        if !pos.is_legal_move(mv) {
            return json!({"status": "illegal", "plies": plies,
                          "final_sfen": drop_ply_field(&pos.to_sfen(None)),
                          "error": format!("replay: illegal {}", mv.to_usi())});
        }
        usi.push(mv.to_usi());
        pos.apply_move(mv);
        plies += 1;
    }
    let (kind, raw, result) = match record.main_terminal() {
        Some(t) => (format!("{:?}", t.kind()), t.raw().unwrap_or("").to_string(),
                    format!("{:?}", t.result())),
        None => (String::new(), String::new(), String::new()),
    };
    let off_main = record.node_count().saturating_sub(1 + record.main_line_ids().len());
    json!({"status": "ok", "plies": plies, "start_sfen": drop_ply_field(&start),
           "final_sfen": drop_ply_field(&pos.to_sfen(None)),
           "side_to_move": if pos.turn() == rsshogi::types::Color::BLACK {"b"} else {"w"},
           "terminal": kind, "terminal_raw": raw, "result": result,
           "off_main_nodes": off_main, "moves": usi.join(" ")})
}

fn illegal_index(msg: &str) -> Option<usize> {
    let tail = msg.strip_prefix("illegal move at index ")?;
    tail.trim().parse().ok()
}

/// KIF: keep everything before the `index`-th (0-based) main-line move line.
fn cut_kif(text: &str, index: usize) -> Option<String> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut in_moves = false;
    for line in text.replace("\r\n", "\n").replace('\r', "\n").split('\n') {
        let t = line.trim();
        if t.starts_with("手数") {
            in_moves = true;
        }
        if t.starts_with("変化") {
            break;
        }
        if t.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            in_moves = true;
            if seen == index {
                return Some(out.join("\n"));
            }
            seen += 1;
        }
        let _ = in_moves;
        out.push(line.to_string());
    }
    None
}

const KI2_MARKS: [char; 6] = ['▲', '△', '▼', '▽', '☗', '☖'];

/// KI2: keep the text before the `index`-th main-line move token.
fn cut_ki2(text: &str, index: usize) -> Option<String> {
    let mut out = String::new();
    let mut seen = 0usize;
    for line in text.replace("\r\n", "\n").replace('\r', "\n").split('\n') {
        let t = line.trim_start();
        if t.starts_with("変化") {
            break;
        }
        if !t.starts_with(KI2_MARKS) {
            out.push_str(line);
            out.push('\n');
            continue;
        }
        for (i, ch) in line.char_indices() {
            if KI2_MARKS.contains(&ch) {
                if seen == index {
                    out.push_str(&line[..i]);
                    out.push('\n');
                    return Some(out);
                }
                seen += 1;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    None
}

fn is_csa_move(tok: &str) -> bool {
    let b = tok.as_bytes();
    b.len() >= 7 && (b[0] == b'+' || b[0] == b'-') && b[1..5].iter().all(u8::is_ascii_digit)
}

/// CSA (one game): keep the lines before the `index`-th move token.
fn cut_csa(text: &str, index: usize) -> Option<String> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.starts_with('\'') || line.starts_with('N') || line.starts_with('$') {
            out.push(line.to_string());
            continue;
        }
        for tok in line.split(',') {
            if is_csa_move(tok) {
                if seen == index {
                    return Some(out.join("\n"));
                }
                seen += 1;
            }
            out.push(tok.to_string());
        }
    }
    None
}

fn with_illegal(mut v: Value, index: usize, err: &str) -> Value {
    if v["status"] == "ok" && v["plies"].as_u64() == Some(index as u64) {
        v["status"] = json!("illegal");
        v["error"] = json!(err);
        v["terminal"] = json!("");
        v["terminal_raw"] = json!("");
        v["result"] = json!("");
    } else {
        v = json!({"status": "error", "error": format!("{err}; re-read after cut failed: {v}")});
    }
    v
}

fn read_kif(text: &str) -> Vec<Value> {
    match kif::parse_kif_str(text) {
        Ok(r) => vec![summarise(&r)],
        Err(e) => {
            let msg = e.to_string();
            if let Some(i) = illegal_index(&msg) {
                if let Some(cut) = cut_kif(text, i) {
                    if let Ok(r) = kif::parse_kif_str(&cut) {
                        return vec![with_illegal(summarise(&r), i, &msg)];
                    }
                }
            }
            vec![json!({"status": "error", "error": msg})]
        }
    }
}

fn read_ki2(text: &str) -> Vec<Value> {
    match kif::parse_ki2_str(text) {
        Ok(r) => vec![summarise(&r)],
        Err(e) => {
            let msg = e.to_string();
            if let Some(i) = illegal_index(&msg) {
                if let Some(cut) = cut_ki2(text, i) {
                    if let Ok(r) = kif::parse_ki2_str(&cut) {
                        return vec![with_illegal(summarise(&r), i, &msg)];
                    }
                }
            }
            vec![json!({"status": "error", "error": msg})]
        }
    }
}

/// Splits a CSA text into games at lines holding only `/`, like the reader
/// does, so that one bad game does not hide the others.
fn csa_chunks(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    for line in text.lines() {
        if line.trim_end_matches('\r').trim() == "/" {
            chunks.push(cur.join("\n"));
            cur.clear();
        } else {
            cur.push(line);
        }
    }
    chunks.push(cur.join("\n"));
    chunks
        .into_iter()
        .filter(|c| c.lines().any(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('\'')
        }))
        .collect()
}

fn read_csa(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for chunk in csa_chunks(text) {
        let v = match csa::parse_csa_str(&chunk) {
            Ok(r) => summarise(&r),
            Err(e) => {
                let msg = e.to_string();
                let mut v = json!({"status": "error", "error": msg.clone()});
                if let Some(i) = illegal_index(&msg) {
                    if let Some(cut) = cut_csa(&chunk, i) {
                        if let Ok(r) = csa::parse_csa_str(&cut) {
                            v = with_illegal(summarise(&r), i, &msg);
                        }
                    }
                }
                v
            }
        };
        out.push(v);
    }
    out
}

fn read_jkf(text: &str) -> Vec<Value> {
    match jkf::parse_jkf_str(text) {
        Ok(r) => vec![summarise(&r)],
        Err(e) => vec![json!({"status": "error", "error": e.to_string()})],
    }
}

/// USI / SFEN lists: one game per non-empty line. Lines are
/// `[position] startpos|sfen <4 fields>|<bare sfen> [moves ...]`.
fn read_usi(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut s = line.trim();
        if s.is_empty() || s.starts_with('#') {
            continue;
        }
        if let Some(rest) = s.strip_prefix("position ") {
            s = rest.trim();
        }
        let toks: Vec<&str> = s.split_whitespace().collect();
        let (sfen, rest) = if toks[0] == "startpos" {
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".to_string(), &toks[1..])
        } else if toks[0] == "sfen" && toks.len() >= 5 {
            (toks[1..5].join(" "), &toks[5..])
        } else if toks.len() >= 4 {
            (toks[..4].join(" "), &toks[4..])
        } else {
            out.push(json!({"status": "error", "error": format!("unreadable line: {s}")}));
            continue;
        };
        let rest = if rest.first() == Some(&"moves") { &rest[1..] } else { rest };
        let mut pos = Position::empty();
        if let Err(e) = pos.set_sfen(&sfen) {
            out.push(json!({"status": "error", "error": format!("sfen: {e}")}));
            continue;
        }
        let mut plies = 0usize;
        let mut status = "ok";
        let mut error = String::new();
        let mut terminal = String::new();
        let mut usi = Vec::new();
        for tok in rest {
            if ["resign", "win", "draw"].contains(tok) {
                terminal = (*tok).to_string();
                break;
            }
            match Move::from_usi(tok) {
                Some(mv) if mv.is_normal() && pos.is_legal_move(mv) => {
                    pos.apply_move(mv);
                    usi.push(mv.to_usi());
                    plies += 1;
                }
                _ => {
                    status = "illegal";
                    error = format!("move {} ({tok}) is illegal", plies + 1);
                    break;
                }
            }
        }
        out.push(json!({"status": status, "plies": plies, "start_sfen": drop_ply_field(&sfen),
                        "final_sfen": drop_ply_field(&pos.to_sfen(None)),
                        "terminal": terminal, "error": error, "moves": usi.join(" ")}));
    }
    out
}

fn walk(p: &Path, acc: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> =
            fs::read_dir(p).map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
        entries.sort();
        for e in entries {
            walk(&e, acc);
        }
    } else {
        acc.push(p.to_path_buf());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(root) = args.first().map(PathBuf::from) else {
        eprintln!("usage: rsshogi_oracle CORPUS_ROOT [PATH...]");
        std::process::exit(2);
    };
    let targets: Vec<PathBuf> = if args.len() > 1 {
        args[1..].iter().map(PathBuf::from).collect()
    } else {
        vec![root.clone()]
    };
    let mut files = Vec::new();
    for t in &targets {
        walk(t, &mut files);
    }
    for f in files {
        let rel = f.strip_prefix(&root).unwrap_or(&f).to_string_lossy().into_owned();
        let ext = f.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
        let Ok(bytes) = fs::read(&f) else { continue };
        let (text, enc) = decode(&bytes);
        let (fmt, games) = match ext.as_str() {
            "kif" | "kifu" => ("KIF", read_kif(&text)),
            "ki2" | "ki2u" => ("KI2", read_ki2(&text)),
            "csa" => ("CSA", read_csa(&text)),
            "jkf" | "json" => ("JKF", read_jkf(&text)),
            "usi" | "sfen" => ("USI", read_usi(&text)),
            _ => continue,
        };
        let games = if games.is_empty() {
            vec![json!({"status": "error", "error": "no game found"})]
        } else {
            games
        };
        for (i, mut g) in games.into_iter().enumerate() {
            g["path"] = json!(rel);
            g["game"] = json!(i);
            g["format"] = json!(fmt);
            g["encoding"] = json!(enc);
            println!("{g}");
        }
    }
}
