//! The per-run token that authenticates a guest's report lines, and the scanning of those lines.
//!
//! A guest's harness (Python's `harness.py`, the JavaScript guest's C code) reports on stdout in
//! lines `\n<token> <report>\n`. The token is 128 bits from the host's CSPRNG, fresh per run; the
//! host believes only lines that carry it, and everything else on stdout is the program's own
//! output. Making the token is the host's job (it needs the OS's randomness); this module only
//! formats and reads it, so the browser's runner uses the same code.

use std::fmt;

/// A reporting token: `wasmeval-` and 32 hex digits.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// The token made of these 128 random bits.
    pub fn from_random_bytes(bytes: [u8; 16]) -> Token {
        Token(format!("wasmeval-{:032x}", u128::from_be_bytes(bytes)))
    }

    /// The token as the guest receives it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Splits `stdout` into the token's report lines (without the token, in order) and the
    /// program's own output (everything else).
    pub fn scan<'a>(&self, stdout: &'a str) -> Scanned<'a> {
        let marker = format!("\n{} ", self.0);
        let mut scanned = Scanned {
            lines: Vec::new(),
            own_output: String::with_capacity(stdout.len()),
        };
        let mut rest = stdout;
        while let Some(at) = rest.find(&marker) {
            scanned.own_output.push_str(&rest[..at]);
            let start = at + marker.len();
            let end = rest[start..].find('\n').map_or(rest.len(), |i| start + i);
            scanned.lines.push(&rest[start..end]);
            rest = &rest[(end + 1).min(rest.len())..];
        }
        scanned.own_output.push_str(rest);
        scanned
    }
}

/// Never printed whole in debug output: a token in a log is a token a guest might read back.
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// What [`Token::scan`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scanned<'a> {
    /// The report lines, without the token and the space after it.
    pub lines: Vec<&'a str>,
    /// The program's own output: stdout without the report lines.
    pub own_output: String,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The token of the unit tests.
    pub(crate) fn token() -> Token {
        Token::from_random_bytes([
            0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
            0xcd, 0xef,
        ])
    }

    #[test]
    fn a_token_is_128_bits_of_hex() {
        assert_eq!(
            token().as_str(),
            "wasmeval-0123456789abcdef0123456789abcdef"
        );
        assert_eq!(
            Token::from_random_bytes([0; 16]).as_str(),
            "wasmeval-00000000000000000000000000000000"
        );
        assert_eq!(format!("{:?}", token()), "Token(..)");
    }

    #[test]
    fn only_lines_with_the_token_are_report_lines() {
        let t = token();
        let forged = "wasmeval-ffffffffffffffffffffffffffffffff";
        let stdout = format!(
            "hello {t} not at a line start\n\n{t} start 0\nmid\n\n{forged} end 0 passed\n\n{t} end 0 passed null",
            t = t.as_str()
        );
        let scanned = t.scan(&stdout);
        assert_eq!(scanned.lines, ["start 0", "end 0 passed null"]);
        assert_eq!(
            scanned.own_output,
            format!(
                "hello {} not at a line start\nmid\n\n{forged} end 0 passed\n",
                t.as_str()
            )
        );
    }
}
