//! Include and exclude globs: which files under a directory a walk takes.
//!
//! Policy (the rules of ripgrep's `-g`, which are gitignore's):
//! - A glob is matched against a path relative to the directory given to the walk, with `/`
//!   between components, case-sensitively.
//! - A glob without a `/` (but for a trailing one) matches a name at any depth: `*.bak` is
//!   every file ending `.bak`, `drafts` every entry named `drafts`. A glob with a `/` matches
//!   from the top of the walk (a leading `/` is dropped): `old/*.kif`. `*` and `?` never
//!   match a `/`; `**` matches any number of directories. A glob ending in `/` matches
//!   directories only.
//! - An exclude glob applies to directories and files: an excluded directory is not walked at
//!   all.
//! - Include globs, when given, choose files: a file is taken only if some include glob
//!   matches it or a directory above it (`pro` and `pro/` take the files under a directory
//!   named `pro`, as they would leave them out as exclude globs). A file an include glob names
//!   explicitly is read whatever its extension.
//! - An exclude glob wins over an include glob.
//! - Files named on the command line are always taken.
//! - A glob may not be empty, nor start with `!` (ripgrep's negation, which an exclude glob is
//!   here): such a glob is refused rather than read another way than meant.
//!
//! Each glob remembers whether it matched anything, so that a run can say which matched
//! nothing (a typo, or the wrong case).
//!
//! Errors and the globs that matched nothing say which list a glob is in ([`GlobKind`]) as
//! data; how a user gives each list (the command's `--include` and `--exclude`) is the front
//! end's to say.

use std::{
    fmt,
    path::Path,
    sync::atomic::{AtomicBool, Ordering},
};

use globset::{Candidate, GlobBuilder, GlobMatcher};

/// Which list a glob is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobKind {
    /// It chooses the files taken.
    Include,
    /// It leaves files and directories out.
    Exclude,
}

impl GlobKind {
    /// `include` or `exclude`.
    pub fn name(self) -> &'static str {
        match self {
            GlobKind::Include => "include",
            GlobKind::Exclude => "exclude",
        }
    }
}

impl fmt::Display for GlobKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A glob that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("the {kind} glob '{glob}' is not a glob: {problem}")]
pub struct GlobError {
    pub kind: GlobKind,
    /// The glob as given.
    pub glob: String,
    pub problem: GlobProblem,
}

/// What is wrong with a glob.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GlobProblem {
    #[error("it is empty")]
    Empty,
    /// It starts with `!`, which negates nothing here.
    #[error(
        "a leading '!' negates nothing here: exclude the glob itself, or include it (\\! for a name that starts with '!')"
    )]
    Negated,
    /// The glob syntax's own complaint.
    #[error("{0}")]
    Syntax(String),
}

/// One glob, compiled.
#[derive(Debug)]
struct Rule {
    /// As given, for messages.
    text: String,
    matcher: GlobMatcher,
    dir_only: bool,
    matched: AtomicBool,
}

impl Rule {
    fn new(kind: GlobKind, text: &str) -> Result<Rule, GlobError> {
        let refuse = |problem| GlobError { kind, glob: text.to_string(), problem };
        if text.is_empty() {
            return Err(refuse(GlobProblem::Empty));
        }
        if text.starts_with('!') {
            // ripgrep's `-g '!x'` leaves x out; here that is an exclude glob `x`.
            return Err(refuse(GlobProblem::Negated));
        }
        let (body, dir_only) = match text.strip_suffix('/') {
            Some(body) if !body.is_empty() => (body, true),
            _ => (text, false),
        };
        let pattern = match body.strip_prefix('/') {
            Some(anchored) => anchored.to_string(),
            None if body.contains('/') => body.to_string(),
            None => format!("**/{body}"),
        };
        let glob = GlobBuilder::new(&pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| refuse(GlobProblem::Syntax(e.kind().to_string())))?;
        Ok(Rule {
            text: text.to_string(),
            matcher: glob.compile_matcher(),
            dir_only,
            matched: AtomicBool::new(false),
        })
    }

    fn is_match(&self, path: &Candidate<'_>) -> bool {
        let yes = self.matcher.is_match_candidate(path);
        if yes {
            self.matched.store(true, Ordering::Relaxed);
        }
        yes
    }
}

/// What the globs say of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// An exclude glob matches it, or include globs are given and none matches it.
    Left,
    /// Taken, with no include glob given.
    Taken,
    /// Taken because an include glob matches it.
    Included,
}

/// The include and exclude globs of a walk.
#[derive(Debug, Default)]
pub struct Globs {
    include: Vec<Rule>,
    exclude: Vec<Rule>,
}

impl Globs {
    /// Compiles the globs.
    ///
    /// # Errors
    ///
    /// The first glob that is not one.
    pub fn new(include: &[String], exclude: &[String]) -> Result<Globs, GlobError> {
        Ok(Globs {
            include: include.iter().map(|g| Rule::new(GlobKind::Include, g)).collect::<Result<_, _>>()?,
            exclude: exclude.iter().map(|g| Rule::new(GlobKind::Exclude, g)).collect::<Result<_, _>>()?,
        })
    }

    /// Whether there is no glob at all.
    pub fn is_empty(&self) -> bool {
        self.include.is_empty() && self.exclude.is_empty()
    }

    /// Whether the directory at `relative` (to the walk's top) is excluded: not walked.
    pub fn excludes_dir(&self, relative: &Path) -> bool {
        let path = Candidate::new(relative);
        // Every glob is tried, so that each knows whether it matched.
        self.exclude.iter().fold(false, |excluded, r| r.is_match(&path) | excluded)
    }

    /// What the globs say of the file at `relative` (to the walk's top).
    pub fn choose_file(&self, relative: &Path) -> Choice {
        let path = Candidate::new(relative);
        let excluded = self.exclude.iter().filter(|r| !r.dir_only).fold(false, |e, r| r.is_match(&path) | e);
        if self.include.is_empty() {
            return if excluded { Choice::Left } else { Choice::Taken };
        }
        let mut included = false;
        for rule in &self.include {
            // A directory matched takes the files under it, as an excluded one leaves them.
            let under = || {
                relative
                    .ancestors()
                    .skip(1)
                    .any(|dir| !dir.as_os_str().is_empty() && rule.is_match(&Candidate::new(dir)))
            };
            included |= if rule.dir_only { under() } else { rule.is_match(&path) || under() };
        }
        match (excluded, included) {
            (false, true) => Choice::Included,
            _ => Choice::Left,
        }
    }

    /// Every glob as given, `--include` ones first, each list in the order given: which files
    /// a run chooses, for telling whether another run chose the same.
    pub fn given(&self) -> Vec<(GlobKind, String)> {
        let given = |kind: GlobKind, rules: &[Rule]| -> Vec<(GlobKind, String)> {
            rules.iter().map(|r| (kind, r.text.clone())).collect()
        };
        [given(GlobKind::Include, &self.include), given(GlobKind::Exclude, &self.exclude)].concat()
    }

    /// The globs that matched nothing so far, each with its list and as given: the include
    /// globs first, each list in the order given.
    pub fn unmatched(&self) -> Vec<(GlobKind, String)> {
        let unmatched = |kind: GlobKind, rules: &[Rule]| -> Vec<(GlobKind, String)> {
            rules
                .iter()
                .filter(|r| !r.matched.load(Ordering::Relaxed))
                .map(|r| (kind, r.text.clone()))
                .collect()
        };
        [unmatched(GlobKind::Include, &self.include), unmatched(GlobKind::Exclude, &self.exclude)].concat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn globs(include: &[&str], exclude: &[&str]) -> Globs {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Globs::new(&strings(include), &strings(exclude)).unwrap()
    }

    #[test]
    fn names_match_at_any_depth_and_paths_from_the_top() {
        let g = globs(&[], &["*.bak", "old/*.kif", "/top.kif", "drafts", "cache/"]);
        let file = |p: &str| g.choose_file(Path::new(p));
        assert_eq!(file("a.bak"), Choice::Left);
        assert_eq!(file("x/y/a.bak"), Choice::Left);
        assert_eq!(file("old/a.kif"), Choice::Left);
        assert_eq!(file("x/old/a.kif"), Choice::Taken, "a glob with a slash is anchored at the top");
        assert_eq!(file("old/sub/a.kif"), Choice::Taken, "* does not cross a slash");
        assert_eq!(file("top.kif"), Choice::Left);
        assert_eq!(file("x/top.kif"), Choice::Taken);
        assert_eq!(file("cache"), Choice::Taken, "a glob ending in / is for directories");
        assert_eq!(file("a.BAK"), Choice::Taken, "case counts");
        assert!(g.excludes_dir(Path::new("x/drafts")));
        assert!(g.excludes_dir(Path::new("cache")));
        assert!(!g.excludes_dir(Path::new("old")));
        assert!(g.unmatched().is_empty(), "{:?}", g.unmatched());
    }

    #[test]
    fn includes_choose_files_and_excludes_win() {
        let g = globs(&["*.txt", "pro/**", "keep/", "named"], &["secret*"]);
        let file = |p: &str| g.choose_file(Path::new(p));
        assert_eq!(file("named/game.dat"), Choice::Included, "a directory named, without a slash");
        assert_eq!(file("x/named/y/game.kif"), Choice::Included);
        assert_eq!(file("named"), Choice::Included, "a file so named");
        assert_eq!(file("notes.txt"), Choice::Included);
        assert_eq!(file("a/b/c.txt"), Choice::Included);
        assert_eq!(file("pro/x/game.dat"), Choice::Included);
        assert_eq!(file("keep/deep/game.dat"), Choice::Included);
        assert_eq!(file("game.kif"), Choice::Left, "with includes, other files are left");
        assert_eq!(file("secret.txt"), Choice::Left);
        assert_eq!(globs(&[], &[]).choose_file(Path::new("a.kif")), Choice::Taken);
    }

    #[test]
    fn globs_that_match_nothing_are_told_and_bad_ones_refused() {
        let g = globs(&["*.KIF", "*.kif"], &["*.tmp"]);
        g.choose_file(Path::new("a.kif"));
        assert_eq!(
            g.unmatched(),
            [(GlobKind::Include, "*.KIF".to_string()), (GlobKind::Exclude, "*.tmp".to_string())]
        );
        let bad = Globs::new(&["a[".to_string()], &[]).unwrap_err();
        assert!(matches!(bad.problem, GlobProblem::Syntax(_)), "{bad}");
        assert!(bad.to_string().starts_with("the include glob 'a[' is not a glob: "), "{bad}");
        let bad = Globs::new(&[], &["!x".to_string()]).unwrap_err();
        assert_eq!(
            (bad.kind, bad.glob.as_str(), &bad.problem),
            (GlobKind::Exclude, "!x", &GlobProblem::Negated)
        );
        assert!(bad.to_string().starts_with("the exclude glob '!x' is not a glob: a leading '!'"), "{bad}");
        let empty = Globs::new(&[String::new()], &[]).unwrap_err();
        assert_eq!(empty.problem, GlobProblem::Empty);
        let bang = globs(&[r"\!x"], &[]);
        assert_eq!(bang.choose_file(Path::new("d/!x")), Choice::Included);
    }
}
