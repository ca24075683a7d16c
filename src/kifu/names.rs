//! What a file's name says about its content: the one list of the extensions records use.
//!
//! Policy:
//! - `.kif .kifu .ki2 .ki2u .csa .jkf .usi .sfen .usen .psn` are *record extensions*: a file
//!   with one is meant to hold a record, and the format it names breaks ties when the
//!   content could be read several ways. The content decides in the end.
//! - `.txt` and `.json` are *maybe* extensions: records are saved under them (KIF as `.txt`,
//!   JKF as `.json`), and so are notes and `package.json`. Such a file is a record only when
//!   its content is one.
//! - Any other name says nothing.
//!
//! Extensions match in any case (`.KIF` is `.kif`).

use std::path::Path;

use super::Format;

/// What an extension says about a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// An extension records use, naming their format.
    Record(Format),
    /// An extension records share with other files; the likely format, when it names one.
    Maybe(Option<Format>),
}

/// Every extension kifudex knows, lowercase, with what it says.
const EXTENSIONS: [(&str, NameKind); 12] = [
    ("kif", NameKind::Record(Format::Kif)),
    ("kifu", NameKind::Record(Format::Kif)),
    ("ki2", NameKind::Record(Format::Ki2)),
    ("ki2u", NameKind::Record(Format::Ki2)),
    ("csa", NameKind::Record(Format::Csa)),
    ("jkf", NameKind::Record(Format::Jkf)),
    ("usi", NameKind::Record(Format::Usi)),
    ("sfen", NameKind::Record(Format::Usi)),
    ("usen", NameKind::Record(Format::Usi)),
    ("psn", NameKind::Record(Format::Western)),
    ("json", NameKind::Maybe(Some(Format::Jkf))),
    ("txt", NameKind::Maybe(None)),
];

impl NameKind {
    /// What the extension of `path` says, if it is one kifudex knows.
    pub fn of(path: &Path) -> Option<NameKind> {
        let ext = path.extension()?.to_str()?;
        EXTENSIONS.iter().find(|(e, _)| e.eq_ignore_ascii_case(ext)).map(|&(_, kind)| kind)
    }

    /// The format the name suggests, if any.
    pub fn format(self) -> Option<Format> {
        match self {
            NameKind::Record(format) => Some(format),
            NameKind::Maybe(format) => format,
        }
    }

    /// The record extensions, without their dots, for messages and documentation.
    pub fn record_extensions() -> impl Iterator<Item = &'static str> {
        EXTENSIONS.iter().filter(|(_, k)| matches!(k, NameKind::Record(_))).map(|(e, _)| *e)
    }
}

impl Format {
    /// The extension a file of this format is given: the first record extension that names
    /// it (`kif`, `ki2`, `csa`, `jkf`, `usi`, `psn`).
    pub fn extension(self) -> &'static str {
        EXTENSIONS
            .iter()
            .find(|&&(_, kind)| kind == NameKind::Record(self))
            .map_or(self.name(), |&(ext, _)| ext)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_and_maybe_extensions_in_any_case() {
        let kind = |name: &str| NameKind::of(Path::new(name));
        assert_eq!(kind("a/b.KIF"), Some(NameKind::Record(Format::Kif)));
        assert_eq!(kind("game.ki2u"), Some(NameKind::Record(Format::Ki2)));
        assert_eq!(kind("x.Psn"), Some(NameKind::Record(Format::Western)));
        assert_eq!(kind("notes.txt"), Some(NameKind::Maybe(None)));
        assert_eq!(kind("package.json"), Some(NameKind::Maybe(Some(Format::Jkf))));
        for other in ["README.md", "page.html", "kif", ".kif.bak", "noext"] {
            assert_eq!(kind(other), None, "{other}");
        }
        let listed: Vec<_> = NameKind::record_extensions().collect();
        assert_eq!(listed, ["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen", "usen", "psn"]);
        let given: Vec<_> = Format::ALL.iter().map(|f| f.extension()).collect();
        assert_eq!(given, ["kif", "ki2", "csa", "jkf", "usi", "psn"]);
    }
}
