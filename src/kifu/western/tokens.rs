//! The tokens of Western game text: tags, comments, variation brackets and words.

/// One token, with the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token<'a> {
    /// `[Key "value"]`, the value unescaped.
    Tag(&'a str, String),
    /// `{…}` (with line breaks inside read as spaces) or `;…` to the end of the line.
    Comment(&'a str),
    /// A `{` with no `}` before the text ends or a line starts with a tag: the text up to
    /// there, and whether a tag line ends it.
    Unclosed {
        text: &'a str,
        before_tag: bool,
    },
    Open,
    Close,
    /// Anything else between spaces: a move, a move number, a NAG, a result.
    Word(&'a str),
    /// A `[` that does not start a well-formed tag.
    BadTag(&'a str),
}

/// Splits Western game text into tokens.
pub(super) struct Tokens<'a> {
    text: &'a str,
    pos: usize,
    line: u32,
    /// Where the token last returned starts.
    start: usize,
}

impl<'a> Tokens<'a> {
    /// The tokens of `text`, whose first line is line `before + 1` (of a whole text `text` is
    /// a piece of).
    pub(super) fn after(text: &'a str, before: u32) -> Tokens<'a> {
        Tokens { text, pos: 0, line: before.saturating_add(1), start: 0 }
    }

    /// Whether the token last returned is the first thing on its line.
    pub(super) fn starts_line(&self) -> bool {
        self.start == 0 || matches!(self.text.as_bytes()[self.start - 1], b'\n' | b'\r')
    }

    /// Where the token last returned starts, in bytes.
    pub(super) fn start(&self) -> usize {
        self.start
    }

    /// Moves past `n` bytes, counting the line breaks they hold.
    fn advance(&mut self, n: usize) {
        let end = (self.pos + n).min(self.text.len());
        let skipped = &self.text.as_bytes()[self.pos..end];
        for (i, &b) in skipped.iter().enumerate() {
            let lone_cr = b == b'\r' && skipped.get(i + 1).or(self.text.as_bytes().get(end)) != Some(&b'\n');
            if b == b'\n' || lone_cr {
                self.line = self.line.saturating_add(1);
            }
        }
        self.pos = end;
    }

    fn tag(&self, rest: &'a str) -> Option<(Token<'a>, usize)> {
        let inner = rest[1..].trim_start();
        let key_len = inner.find(|c: char| c.is_whitespace() || c == '"' || c == ']')?;
        let key = &inner[..key_len];
        let after_key = inner[key_len..].trim_start();
        let quoted = after_key.strip_prefix('"')?;
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        let close = loop {
            match chars.next()? {
                (_, '\\') => value.extend(chars.next().map(|(_, c)| c)),
                (i, '"') => break i,
                (_, '\n' | '\r') => return None,
                (_, c) => value.push(c),
            }
        };
        // Only spaces may stand between the value and the `]`: look no further, so that a
        // text full of broken tags still reads in linear time.
        let tail = quoted[close + 1..].trim_start();
        if key.is_empty() || !tail.starts_with(']') {
            return None;
        }
        let consumed = rest.len() - tail.len() + 1;
        Some((Token::Tag(key, value), consumed))
    }

    /// The `{…}` comment `rest` starts with. It never runs into the next game's tags: a line
    /// that starts with a well-formed tag before its `}` ends it there, unclosed.
    fn comment(&self, rest: &'a str) -> (Token<'a>, usize) {
        let mut at = 0;
        loop {
            let end = rest[at..].find(['\n', '\r']).map_or(rest.len(), |i| at + i);
            if let Some(i) = rest[at..end].find('}') {
                return (Token::Comment(&rest[1..at + i]), at + i + 1);
            }
            if end == rest.len() {
                return (Token::Unclosed { text: &rest[1..], before_tag: false }, rest.len());
            }
            at = end + 1;
            // Indented as the tokens are skipped: by any white space, blank lines included.
            let line = rest[at..].trim_start();
            let line = &line[..line.find(['\n', '\r']).unwrap_or(line.len())];
            if line.starts_with('[') && self.tag(line).is_some() {
                return (Token::Unclosed { text: &rest[1..at], before_tag: true }, at);
            }
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (u32, Token<'a>);

    fn next(&mut self) -> Option<(u32, Token<'a>)> {
        let rest = &self.text[self.pos..];
        let skip = rest.len() - rest.trim_start().len();
        self.advance(skip);
        let rest = &self.text[self.pos..];
        let line = self.line;
        self.start = self.pos;
        let first = rest.chars().next()?;
        let (token, len) = match first {
            '[' => match self.tag(rest) {
                Some(found) => found,
                None => {
                    let len = rest.find(['\n', '\r']).unwrap_or(rest.len());
                    (Token::BadTag(&rest[..len]), len)
                }
            },
            '{' => self.comment(rest),
            ';' => {
                let len = rest.find(['\n', '\r']).unwrap_or(rest.len());
                (Token::Comment(&rest[1..len]), len)
            }
            '(' => (Token::Open, 1),
            ')' => (Token::Close, 1),
            _ => {
                let len =
                    rest.find(|c: char| c.is_whitespace() || "{}()[];".contains(c)).unwrap_or(rest.len());
                // A stray `}` or `]` is a word of its own, so that nothing stalls.
                let len = len.max(first.len_utf8());
                (Token::Word(&rest[..len]), len)
            }
        };
        self.advance(len);
        Some((line, token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_with_lines() {
        let text = "[Event \"A \\\"big\\\" one\"]\n\n1. P-7f {a\ncomment} ( P-2f ) ; rest\n1-0";
        let tokens: Vec<_> = Tokens::after(text, 0).collect();
        assert_eq!(
            tokens,
            [
                (1, Token::Tag("Event", "A \"big\" one".into())),
                (3, Token::Word("1.")),
                (3, Token::Word("P-7f")),
                (3, Token::Comment("a\ncomment")),
                (4, Token::Open),
                (4, Token::Word("P-2f")),
                (4, Token::Close),
                (4, Token::Comment(" rest")),
                (5, Token::Word("1-0")),
            ]
        );
    }

    #[test]
    fn broken_input_still_tokenizes() {
        let tokens: Vec<_> = Tokens::after("[Event \"x\n} ] {open", 0).map(|(_, t)| t).collect();
        assert_eq!(
            tokens,
            [
                Token::BadTag("[Event \"x"),
                Token::Word("}"),
                Token::Word("]"),
                Token::Unclosed { text: "open", before_tag: false }
            ]
        );
    }

    /// A `{` left open ends before the next line that starts with a tag; a `}` after that
    /// line closes nothing of it.
    #[test]
    fn an_open_comment_stops_at_a_tag_line() {
        let text = "P-7f {open P-3d\n  [Event \"b\"]\nP-2f {x}\n[bad\n";
        let tokens: Vec<_> = Tokens::after(text, 0).collect();
        assert_eq!(
            tokens,
            [
                (1, Token::Word("P-7f")),
                (1, Token::Unclosed { text: "open P-3d\n", before_tag: true }),
                (2, Token::Tag("Event", "b".into())),
                (3, Token::Word("P-2f")),
                (3, Token::Comment("x")),
                (4, Token::BadTag("[bad")),
            ]
        );
        // A line that starts with `[` but is no tag is part of the comment.
        let tokens: Vec<_> = Tokens::after("{a\n[see 3c]\nb} P-7f", 0).map(|(_, t)| t).collect();
        assert_eq!(tokens, [Token::Comment("a\n[see 3c]\nb"), Token::Word("P-7f")]);
    }
}
