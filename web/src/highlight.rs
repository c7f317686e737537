//! Syntax highlighting for the code the site shows: each line split into keywords, strings,
//! comments, numbers and the rest, for Python and the C family (C, C++, JavaScript, Rust).
//! A display aid only (no parsing): a string or block comment may run over several lines.

use wasmeval_core::Language;

/// What a piece of a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Anything else.
    Plain,
    /// A keyword of the language.
    Keyword,
    /// A string or character literal.
    String,
    /// A comment.
    Comment,
    /// A number.
    Number,
}

impl Kind {
    /// The CSS class of the piece.
    pub fn class(self) -> &'static str {
        match self {
            Kind::Plain => "",
            Kind::Keyword => "tok-keyword",
            Kind::String => "tok-string",
            Kind::Comment => "tok-comment",
            Kind::Number => "tok-number",
        }
    }
}

const PYTHON: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];
const C_FAMILY: &[&str] = &[
    "as",
    "async",
    "auto",
    "await",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "constexpr",
    "continue",
    "crate",
    "default",
    "delete",
    "do",
    "double",
    "else",
    "enum",
    "export",
    "extern",
    "false",
    "fn",
    "float",
    "for",
    "function",
    "if",
    "impl",
    "import",
    "in",
    "int",
    "let",
    "long",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "namespace",
    "new",
    "null",
    "pub",
    "return",
    "self",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "template",
    "this",
    "throw",
    "trait",
    "true",
    "try",
    "type",
    "typedef",
    "typeof",
    "undefined",
    "union",
    "unsafe",
    "unsigned",
    "use",
    "using",
    "var",
    "virtual",
    "void",
    "where",
    "while",
];

/// `code`'s lines, each as its pieces in order (joined, they are the line).
pub fn highlight(code: &str, language: Language) -> Vec<Vec<(Kind, String)>> {
    let python = language == Language::Python;
    let keywords = if python { PYTHON } else { C_FAMILY };
    // What is still open at the end of a line: a triple-quoted string (its quote) or a block
    // comment.
    let mut open: Option<&'static str> = None;
    let mut lines = Vec::new();
    for line in code.lines() {
        let mut pieces: Vec<(Kind, String)> = Vec::new();
        let push = |pieces: &mut Vec<(Kind, String)>, kind: Kind, text: &str| {
            if text.is_empty() {
                return;
            }
            match pieces.last_mut() {
                Some((last, held)) if *last == kind => held.push_str(text),
                _ => pieces.push((kind, text.to_owned())),
            }
        };
        let mut rest = line;
        while !rest.is_empty() {
            if let Some(close) = open {
                let kind = if close == "*/" {
                    Kind::Comment
                } else {
                    Kind::String
                };
                match rest.find(close) {
                    Some(end) => {
                        push(&mut pieces, kind, &rest[..end + close.len()]);
                        rest = &rest[end + close.len()..];
                        open = None;
                    }
                    None => {
                        push(&mut pieces, kind, rest);
                        rest = "";
                    }
                }
                continue;
            }
            let first = rest.chars().next().unwrap_or(' ');
            if (python && first == '#') || (!python && rest.starts_with("//")) {
                push(&mut pieces, Kind::Comment, rest);
                break;
            }
            if !python && rest.starts_with("/*") {
                push(&mut pieces, Kind::Comment, "/*");
                rest = &rest[2..];
                open = Some("*/");
                continue;
            }
            if python && (rest.starts_with("\"\"\"") || rest.starts_with("'''")) {
                let quote: &'static str = if rest.starts_with("\"\"\"") {
                    "\"\"\""
                } else {
                    "'''"
                };
                push(&mut pieces, Kind::String, quote);
                rest = &rest[3..];
                open = Some(quote);
                continue;
            }
            if first == '"' || first == '\'' || (!python && first == '`') {
                // To the closing quote, past escapes; an unclosed one ends with the line.
                let mut end = rest.len();
                let mut escaped = false;
                for (i, c) in rest.char_indices().skip(1) {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == first {
                        end = i + c.len_utf8();
                        break;
                    }
                }
                push(&mut pieces, Kind::String, &rest[..end]);
                rest = &rest[end..];
                continue;
            }
            if first.is_alphanumeric() || first == '_' {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                let word = &rest[..end];
                let kind = if first.is_ascii_digit() {
                    Kind::Number
                } else if keywords.contains(&word) {
                    Kind::Keyword
                } else {
                    Kind::Plain
                };
                push(&mut pieces, kind, word);
                rest = &rest[end..];
                continue;
            }
            push(&mut pieces, Kind::Plain, &rest[..first.len_utf8()]);
            rest = &rest[first.len_utf8()..];
        }
        lines.push(pieces);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &[(Kind, String)]) -> Vec<(Kind, &str)> {
        line.iter().map(|(k, t)| (*k, t.as_str())).collect()
    }

    #[test]
    fn python_lines_keep_their_text_and_docstrings_span_lines() {
        let code = "def f(x):  # add one\n    \"\"\"Doc\n    more\"\"\"\n    return x + 1\n";
        let lines = highlight(code, Language::Python);
        for (line, text) in lines.iter().zip(code.lines()) {
            assert_eq!(
                line.iter().map(|(_, t)| t.as_str()).collect::<String>(),
                text
            );
        }
        assert_eq!(lines[0][0], (Kind::Keyword, "def".to_owned()));
        assert_eq!(
            lines[0].last().unwrap(),
            &(Kind::Comment, "# add one".to_owned())
        );
        assert_eq!(kinds(&lines[2]), [(Kind::String, "    more\"\"\"")]);
        assert!(lines[3].contains(&(Kind::Number, "1".to_owned())));
    }

    #[test]
    fn c_family_comments_strings_and_keywords() {
        let code = "let s = \"a\\\"b\"; /* one\ntwo */ fn f() {} // done";
        let lines = highlight(code, Language::Rust);
        assert_eq!(lines[0][0], (Kind::Keyword, "let".to_owned()));
        assert!(lines[0].contains(&(Kind::String, "\"a\\\"b\"".to_owned())));
        assert_eq!(lines[1][0], (Kind::Comment, "two */".to_owned()));
        assert!(lines[1].contains(&(Kind::Keyword, "fn".to_owned())));
        assert_eq!(
            lines[1].last().unwrap(),
            &(Kind::Comment, "// done".to_owned())
        );
    }
}
