//! MultiPL-E's Ruby tests as host-judged `calls` cases: a test of the shape MultiPL-E writes
//!
//! ```ruby
//! require 'test/unit'
//! class TestHumanEval < Test::Unit::TestCase
//!   def test_f
//!     candidate = method(:f)
//!     assert_equal(EXPECTED, candidate.call(ARGS))
//!   end
//! end
//! ```
//!
//! whose asserts all compare literals (`nil`, booleans, numbers, strings without
//! interpolation, arrays, hashes) becomes one `calls` case per assert, named `assert N`; the
//! expected value never enters the guest. Any other line, or a literal this reader does not
//! know, leaves the test in the guest as one assertion case.

use crate::task::{CallCase, CallCheck};
use serde_json::{json, Value};

/// The entry point and cases of `test`, or `None` when it is not of the converted shape.
pub fn multipl_e_test(test: &str) -> Option<(String, Vec<CallCase>)> {
    let mut lines = test.lines().map(str::trim).filter(|line| !line.is_empty());
    let header = [
        "require 'test/unit'",
        "class TestHumanEval < Test::Unit::TestCase",
    ];
    for expected in header {
        if lines.next()? != expected {
            return None;
        }
    }
    let test_name = lines.next()?.strip_prefix("def test_")?;
    let entry_point = lines
        .next()?
        .strip_prefix("candidate = method(:")?
        .strip_suffix(')')?
        .to_owned();
    if entry_point.is_empty()
        || !entry_point
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '?' | '!'))
        || test_name.is_empty()
    {
        return None;
    }
    let mut cases = Vec::new();
    let mut ended = 0;
    for line in lines {
        if line == "end" {
            ended += 1;
            continue;
        }
        if ended > 0 {
            return None;
        }
        let (expected, args) = assert_equal(line)?;
        cases.push(CallCase {
            name: format!("assert {}", cases.len() + 1),
            args,
            expected,
            check: CallCheck::Equals,
            tolerance: None,
        });
    }
    (ended == 2 && !cases.is_empty()).then_some((entry_point, cases))
}

/// `assert_equal(EXPECTED, candidate.call(ARGS))`: the expected value and the arguments.
fn assert_equal(line: &str) -> Option<(Value, Vec<Value>)> {
    let mut reader = Reader {
        text: line.strip_prefix("assert_equal(")?.as_bytes(),
        at: 0,
    };
    let expected = reader.literal()?;
    reader.expect(b",")?;
    reader.skip_space();
    reader.keyword("candidate.call(")?;
    let args = reader.items(b')')?;
    reader.expect(b")")?;
    reader.expect(b")")?;
    reader.skip_space();
    (reader.at == reader.text.len()).then_some((expected, args))
}

/// A cursor over the text of a Ruby literal.
struct Reader<'t> {
    text: &'t [u8],
    at: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    /// `token` next (after spaces), consumed.
    fn expect(&mut self, token: &[u8]) -> Option<()> {
        self.skip_space();
        self.keyword(std::str::from_utf8(token).ok()?)
    }

    /// `word` right here, consumed.
    fn keyword(&mut self, word: &str) -> Option<()> {
        let rest = &self.text[self.at..];
        rest.starts_with(word.as_bytes())
            .then(|| self.at += word.len())
    }

    /// Literals separated by commas up to `close` (not consumed); a trailing comma is allowed.
    fn items(&mut self, close: u8) -> Option<Vec<Value>> {
        let mut items = Vec::new();
        loop {
            if self.peek()? == close {
                return Some(items);
            }
            items.push(self.literal()?);
            match self.peek()? {
                b',' => self.at += 1,
                c if c == close => return Some(items),
                _ => return None,
            }
        }
    }

    fn literal(&mut self) -> Option<Value> {
        match self.peek()? {
            b'[' => {
                self.at += 1;
                let items = self.items(b']')?;
                self.at += 1;
                Some(Value::Array(items))
            }
            b'{' => {
                self.at += 1;
                let mut pairs = Vec::new();
                while self.peek()? != b'}' {
                    let key = self.literal()?;
                    self.expect(b"=>")?;
                    let value = self.literal()?;
                    pairs.push(json!([key, value]));
                    match self.peek()? {
                        b',' => self.at += 1,
                        b'}' => {}
                        _ => return None,
                    }
                }
                self.at += 1;
                Some(json!({ "$dict": pairs }))
            }
            b'"' => self.double_quoted().map(Value::String),
            b'\'' => self.single_quoted().map(Value::String),
            b'-' | b'0'..=b'9' => self.number(),
            _ => {
                for (word, value) in [
                    ("nil", Value::Null),
                    ("true", json!(true)),
                    ("false", json!(false)),
                ] {
                    if self.keyword(word).is_some() {
                        let next = self.text.get(self.at).copied().unwrap_or(b' ');
                        return (!next.is_ascii_alphanumeric() && next != b'_').then_some(value);
                    }
                }
                None
            }
        }
    }

    /// An integer or float, with an optional sign (`-1`, `- 1`, `2.5`, `1e-05`).
    fn number(&mut self) -> Option<Value> {
        let negative = self.keyword("-").is_some();
        self.skip_space();
        let start = self.at;
        let digits = |r: &mut Self| {
            let from = r.at;
            while r
                .text
                .get(r.at)
                .is_some_and(|c| c.is_ascii_digit() || *c == b'_')
            {
                r.at += 1;
            }
            r.at > from
        };
        if !digits(self) {
            return None;
        }
        let mut float = false;
        if self.text.get(self.at) == Some(&b'.')
            && self.text.get(self.at + 1).is_some_and(u8::is_ascii_digit)
        {
            self.at += 1;
            digits(self);
            float = true;
        }
        if matches!(self.text.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.text.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !digits(self) {
                return None;
            }
            float = true;
        }
        let text: String = std::str::from_utf8(&self.text[start..self.at])
            .ok()?
            .chars()
            .filter(|c| *c != '_')
            .collect();
        let text = if negative { format!("-{text}") } else { text };
        if float {
            let value: f64 = text.parse().ok()?;
            serde_json::Number::from_f64(value).map(Value::Number)
        } else {
            // Integers past 64 bits stay in the guest, where Ruby compares them exactly.
            text.parse::<i64>().ok().map(Value::from)
        }
    }

    /// A double-quoted string; `None` when it interpolates or has an escape not read here.
    fn double_quoted(&mut self) -> Option<String> {
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let c = *self.text.get(self.at)?;
            self.at += 1;
            match c {
                b'"' => return String::from_utf8(bytes).ok(),
                b'#' if matches!(self.text.get(self.at), Some(b'{' | b'@' | b'$')) => return None,
                b'\\' => {
                    let escaped = *self.text.get(self.at)?;
                    self.at += 1;
                    let plain = match escaped {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        b'0' => 0,
                        b's' => b' ',
                        b'e' => 0x1b,
                        b'a' => 0x07,
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'v' => 0x0b,
                        b'"' | b'\\' | b'#' | b'\'' => escaped,
                        // \u, \x and octal escapes: left to the guest.
                        _ => return None,
                    };
                    bytes.push(plain);
                }
                c => bytes.push(c),
            }
        }
    }

    /// A single-quoted string: only `\\` and `\'` are escapes.
    fn single_quoted(&mut self) -> Option<String> {
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let c = *self.text.get(self.at)?;
            self.at += 1;
            match c {
                b'\'' => return String::from_utf8(bytes).ok(),
                b'\\' if matches!(self.text.get(self.at), Some(b'\\' | b'\'')) => {
                    bytes.push(self.text[self.at]);
                    self.at += 1;
                }
                c => bytes.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: &str = "require 'test/unit'\nclass TestHumanEval < Test::Unit::TestCase\n  def test_f\n    candidate = method(:f)\n    assert_equal([1, -2.5, 1e-05], candidate.call(\"a\\n\", 'b\\'', nil))\n    assert_equal({\"x\" => [true, false], 3 => {}}, candidate.call([], - 1))\n  end\nend\n";

    #[test]
    fn multipl_e_asserts_become_calls() {
        let (entry, cases) = multipl_e_test(TEST).unwrap();
        assert_eq!(entry, "f");
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].name, "assert 1");
        assert_eq!(cases[0].expected, json!([1, -2.5, 1e-05]));
        assert_eq!(cases[0].args, [json!("a\n"), json!("b'"), Value::Null]);
        assert_eq!(
            cases[1].expected,
            json!({"$dict": [["x", [true, false]], [3, {"$dict": []}]]})
        );
        assert_eq!(cases[1].args, [json!([]), json!(-1)]);
    }

    #[test]
    fn anything_else_stays_in_the_guest() {
        for changed in [
            TEST.replace("assert_equal([1", "assert([1"),
            TEST.replace("\"a\\n\"", "\"#{x}\""),
            TEST.replace("nil))", "nil)) # note"),
            TEST.replace("candidate = method(:f)", "candidate = :f"),
            TEST.replace("  end\nend\n", "  end\nend\nputs 1\n"),
            TEST.replace("1e-05", "1e400"),
            TEST.replace("nil)", "12345678901234567890123)"),
        ] {
            assert!(multipl_e_test(&changed).is_none(), "{changed}");
        }
    }
}
