//! Paths as the database keeps them: text, as the walk gave them (absolute, `/` between the
//! parts). A path is *under* a root when it is the root itself or lies in the directory the
//! root names, at any depth.
//!
//! The rule is written once, as a range of text ([`range_under`]): SQL finds the paths under
//! a root with it through the index on paths, and [`is_under`] tests one path with it.

/// The bounds of the paths strictly under directory `root`: after `root/` and before
/// `root0` ('0' follows '/').
pub(super) fn range_under(root: &str) -> (String, String) {
    let base = root.strip_suffix('/').unwrap_or(root);
    (format!("{base}/"), format!("{base}0"))
}

/// Whether `path` is `root` or under it.
pub fn is_under(path: &str, root: &str) -> bool {
    let (lo, hi) = range_under(root);
    path == root || (path > lo.as_str() && path < hi.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_under_its_directories_and_no_other() {
        for root in ["/a/b", "/a/b/"] {
            assert!(is_under("/a/b/c.kif", root), "{root}");
            assert!(is_under("/a/b/d/e.kif", root), "{root}");
            assert!(!is_under("/a/bc.kif", root), "{root}");
            assert!(!is_under("/a/b0/c.kif", root), "{root}");
            assert!(!is_under("/a/b.kif", root), "{root}");
            assert!(!is_under("/a", root), "{root}");
        }
        assert!(is_under("/a/b", "/a/b"));
        assert!(is_under("/a/b.kif", "/a/b.kif"));
        assert!(!is_under("/a/b.kif/x", "/a/b.kifu"));
    }
}
