//! The command itself: version and help.

use crate::util::kifudex;

#[test]
fn version_names_the_crate_version() {
    let (code, out, err) = kifudex(["--version"]).run();
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, format!("kifudex {}\n", env!("CARGO_PKG_VERSION")));
    assert_eq!(kifudex(["-V"]).run().1, out);
}

#[test]
fn help_lists_the_commands() {
    let (code, out, err) = kifudex(["--help"]).run();
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("Index directories of shogi game records"), "{out}");
    for command in ["index", "export", "moves", "convert", "help"] {
        assert!(out.lines().any(|l| l.trim_start().starts_with(command)), "{command} missing from:\n{out}");
    }
    // Each command has its own help.
    let (code, out, _) = kifudex(["moves", "--help"]).run();
    assert_eq!(code, 0);
    assert!(out.contains("--start") && out.contains("--to"), "{out}");
    // No command at all is a usage error, with the help on stderr.
    let (code, out, err) = kifudex(Vec::<&str>::new()).run();
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("Usage: kifudex"), "{err}");
}
