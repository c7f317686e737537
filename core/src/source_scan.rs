//! Lexical scanning of C, C++ and Rust source, shared by the importers that read test code and
//! the judging code that instruments it: comments and string or character literals skipped,
//! matching brackets, statement ends, whole words, a `main` function's body.

/// The byte range of the body of the first top-level `main` function's braces: from just after
/// `{` to its matching `}`.
pub(crate) fn c_main_body(code: &str) -> Option<(usize, usize)> {
    let bytes = code.as_bytes();
    for at in code_words(code, "main") {
        let rest = code[at + 4..].trim_start();
        if !rest.starts_with('(') {
            continue;
        }
        let paren = code.len() - rest.len();
        let close_paren = matching(bytes, paren, b'(', b')')?;
        let after = code[close_paren + 1..].trim_start();
        if !after.starts_with('{') {
            continue;
        }
        let brace = code.len() - after.len();
        let close = matching(bytes, brace, b'{', b'}')?;
        return Some((brace + 1, close));
    }
    None
}

/// Where the `open` byte at `at` is closed, skipping strings, characters and comments.
pub(crate) fn matching(bytes: &[u8], at: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    while i < bytes.len() {
        if let Some(next) = skip_non_code(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b if b == open => {
                depth += 1;
                i += 1;
            }
            b if b == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// The index after the string or character literal or comment starting at `i`, or `None` when
/// code starts there.
pub(crate) fn skip_non_code(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes[i] {
        b'"' | b'\'' => Some(skip_literal(bytes, i)),
        b'/' if bytes.get(i + 1) == Some(&b'/') => Some(
            bytes[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| i + n),
        ),
        b'/' if bytes.get(i + 1) == Some(&b'*') => {
            Some(find(bytes, i + 2, b"*/").map_or(bytes.len(), |n| n + 2))
        }
        _ => None,
    }
}

/// The index after the string or character literal starting at `at` (a Rust lifetime, `'a`
/// without a closing quote, is skipped as its quote alone).
pub(crate) fn skip_literal(bytes: &[u8], at: usize) -> usize {
    let quote = bytes[at];
    let ident = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    if quote == b'\'' && ident(bytes.get(at + 1)) && bytes.get(at + 2) != Some(&b'\'') {
        return at + 1;
    }
    let mut i = at + 1;
    while i < bytes.len() && bytes[i] != quote {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

pub(crate) fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..bytes.len().saturating_sub(needle.len() - 1)).find(|&i| bytes[i..].starts_with(needle))
}

/// Where the statement starting at `at` ends: after its `;` (outside literals, parentheses and
/// braces).
pub(crate) fn statement_end(code: &str, at: usize) -> usize {
    let bytes = code.as_bytes();
    let mut depth = 0i32;
    let mut i = at;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                i = skip_literal(bytes, i);
                continue;
            }
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth -= 1,
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The positions of `word` as a whole word in code, outside strings, characters and comments.
pub(crate) fn code_words(code: &str, word: &str) -> Vec<usize> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if let Some(next) = skip_non_code(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b if is_ident(b) => {
                let start = i;
                while i < bytes.len() && is_ident(bytes[i]) {
                    i += 1;
                }
                if &code[start..i] == word {
                    found.push(start);
                }
            }
            _ => i += 1,
        }
    }
    found
}
