//! MultiPL-E's Lua tests as host-judged `calls` cases: `lu = require('luaunit')`, then
//! `function test_humaneval() local candidate = f; lu.assertEquals(candidate(ARGS), VALUE) ..
//! end` and `os.exit(lu.LuaUnit.run())`. Each `assertEquals` of a call of `candidate` with
//! literal arguments and a literal value becomes an `equals` case (`assertTrue`, `assertFalse`
//! and `assertNil` of such a call too: luaunit wants exactly `true`, `false`, `nil`). Anything
//! else (a loop, a helper, a variable, another assert) leaves the test whole in the guest.
//!
//! Lua literals to JSON as the guest writes returned values (`guests/lua/calls.lua`): `nil` is
//! null, integers stay integers and floats floats, a table whose keys are exactly 1..n is an
//! array (the empty table too), any other an object whose integer keys are written in decimal.
//! An argument table that would be such an object is not converted (the guest would get string
//! keys back), nor is a table holding `nil`.

use crate::task::{CallCase, CallCheck};
use serde_json::Value;

/// Why a test stays in the guest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotConverted(pub String);

fn not(reason: &str) -> NotConverted {
    NotConverted(reason.to_owned())
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Name(String),
    Int(i64),
    Float(f64),
    Str(String),
    Op(char),
}

/// The tokens of `text`, comments left out.
fn tokenize(text: &str) -> Result<Vec<Token>, NotConverted> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && chars.get(i + 1) == Some(&'-') {
            // A comment: long (`--[[ ]]`, `--[==[ ]==]`) or to the end of the line.
            i += 2;
            if let Some(end) = long_bracket(&chars, i)? {
                i = end;
            } else {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(Token::Name(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            let hex = c == '0' && matches!(chars.get(i + 1), Some('x' | 'X'));
            if hex {
                i += 2;
                while i < chars.len() && chars[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let digits: String = chars[start + 2..i].iter().collect();
                // Lua's hex integers wrap around; only plain ones are read here.
                let value = i64::from_str_radix(&digits, 16).map_err(|_| not("a hex number"))?;
                tokens.push(Token::Int(value));
                continue;
            }
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || chars[i] == '.'
                    || matches!(chars[i], 'e' | 'E')
                    || (matches!(chars[i], '+' | '-') && matches!(chars[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            let literal: String = chars[start..i].iter().collect();
            let is_float = literal.contains(['.', 'e', 'E']);
            match (is_float, literal.parse::<i64>()) {
                (false, Ok(value)) => tokens.push(Token::Int(value)),
                _ => tokens.push(Token::Float(
                    literal.parse::<f64>().map_err(|_| not("a number"))?,
                )),
            }
        } else if c == '"' || c == '\'' {
            let (value, end) = short_string(&chars, i)?;
            tokens.push(Token::Str(value));
            i = end;
        } else if c == '[' && matches!(chars.get(i + 1), Some('[' | '=')) {
            let start = i;
            let end = long_bracket(&chars, i)?.ok_or_else(|| not("a `[` of another kind"))?;
            // The text between the brackets; a newline right after the opening is skipped.
            let level = chars[start + 1..].iter().take_while(|c| **c == '=').count();
            let body: String = chars[start + level + 2..end - level - 2].iter().collect();
            tokens.push(Token::Str(
                body.strip_prefix('\n').map(str::to_owned).unwrap_or(body),
            ));
            i = end;
        } else if "(){}[],;=.-:#+*/%^<>~".contains(c) {
            tokens.push(Token::Op(c));
            i += 1;
        } else {
            return Err(not("a character the converter does not read"));
        }
    }
    Ok(tokens)
}

/// The index after a long bracket (`[[ ]]`, `[=[ ]=]`) opening at `i`, `None` when none opens there.
fn long_bracket(chars: &[char], i: usize) -> Result<Option<usize>, NotConverted> {
    if chars.get(i) != Some(&'[') {
        return Ok(None);
    }
    let level = chars[i + 1..].iter().take_while(|c| **c == '=').count();
    if chars.get(i + 1 + level) != Some(&'[') {
        return Ok(None);
    }
    let close: Vec<char> = std::iter::once(']')
        .chain(std::iter::repeat_n('=', level))
        .chain(std::iter::once(']'))
        .collect();
    let mut j = i + level + 2;
    while j + close.len() <= chars.len() {
        if chars[j..j + close.len()] == close[..] {
            return Ok(Some(j + close.len()));
        }
        j += 1;
    }
    Err(not("an unclosed long bracket"))
}

/// A quoted string starting at `i`: its value and the index after it.
fn short_string(chars: &[char], i: usize) -> Result<(String, usize), NotConverted> {
    let quote = chars[i];
    let mut value = String::new();
    let mut j = i + 1;
    while j < chars.len() {
        let c = chars[j];
        if c == quote {
            return Ok((value, j + 1));
        }
        if c == '\n' {
            break;
        }
        if c == '\\' {
            j += 1;
            let escaped = *chars.get(j).ok_or_else(|| not("an unfinished string"))?;
            match escaped {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                'r' => value.push('\r'),
                'a' => value.push('\u{7}'),
                'b' => value.push('\u{8}'),
                'f' => value.push('\u{c}'),
                'v' => value.push('\u{b}'),
                '\\' | '"' | '\'' => value.push(escaped),
                '\n' => value.push('\n'),
                d if d.is_ascii_digit() => {
                    let digits: String = chars[j..]
                        .iter()
                        .take(3)
                        .take_while(|c| c.is_ascii_digit())
                        .collect();
                    let code: u32 = digits.parse().map_err(|_| not("an escape"))?;
                    // Bytes above 127 are not characters on their own: such strings stay in the guest.
                    if code > 127 {
                        return Err(not("a string with a byte escape above 127"));
                    }
                    value.push(char::from_u32(code).ok_or_else(|| not("an escape"))?);
                    j += digits.len() - 1;
                }
                _ => return Err(not("an escape the converter does not read")),
            }
            j += 1;
            continue;
        }
        value.push(c);
        j += 1;
    }
    Err(not("an unfinished string"))
}

/// A Lua literal value: what the converter reads of an expression.
#[derive(Debug, Clone, PartialEq)]
enum Literal {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// Fields in order, each with its key (positional ones numbered from 1).
    Table(Vec<(Literal, Literal)>),
}

struct Parser<'t> {
    tokens: &'t [Token],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, op: char) -> bool {
        if self.peek() == Some(&Token::Op(op)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: char) -> Result<(), NotConverted> {
        match self.eat(op) {
            true => Ok(()),
            false => Err(not("an expression the converter does not read")),
        }
    }

    fn name(&mut self, name: &str) -> bool {
        if matches!(self.peek(), Some(Token::Name(n)) if n == name) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// A literal: nil, true, false, a number (with unary minuses), a string or a table.
    fn literal(&mut self) -> Result<Literal, NotConverted> {
        let other = || not("an expression that is not a literal");
        let token = self.peek().cloned().ok_or_else(other)?;
        self.at += 1;
        Ok(match token {
            Token::Name(n) if n == "nil" => Literal::Nil,
            Token::Name(n) if n == "true" => Literal::Bool(true),
            Token::Name(n) if n == "false" => Literal::Bool(false),
            Token::Int(v) => Literal::Int(v),
            Token::Float(v) => Literal::Float(v),
            Token::Str(s) => Literal::Str(s),
            Token::Op('-') => match self.literal()? {
                Literal::Int(v) => Literal::Int(v.wrapping_neg()),
                Literal::Float(v) => Literal::Float(-v),
                _ => return Err(other()),
            },
            Token::Op('{') => self.table()?,
            _ => return Err(other()),
        })
    }

    fn table(&mut self) -> Result<Literal, NotConverted> {
        let mut fields = Vec::new();
        let mut position = 0;
        loop {
            if self.eat('}') {
                return Ok(Literal::Table(fields));
            }
            let field = if self.eat('[') {
                let key = self.literal()?;
                self.expect(']')?;
                self.expect('=')?;
                (key, self.literal()?)
            } else if let (Some(Token::Name(key)), Some(Token::Op('='))) =
                (self.tokens.get(self.at), self.tokens.get(self.at + 1))
            {
                let key = Literal::Str(key.clone());
                self.at += 2;
                (key, self.literal()?)
            } else {
                position += 1;
                (Literal::Int(position), self.literal()?)
            };
            fields.push(field);
            if !self.eat(',') && !self.eat(';') {
                self.expect('}')?;
                return Ok(Literal::Table(fields));
            }
        }
    }
}

impl Literal {
    /// The JSON the guest would write for this value; `argument` refuses what would not read
    /// back as the same Lua value.
    fn value(&self, argument: bool) -> Result<Value, NotConverted> {
        Ok(match self {
            Literal::Nil => Value::Null,
            Literal::Bool(b) => Value::Bool(*b),
            Literal::Int(v) => Value::from(*v),
            Literal::Float(v) if v.is_finite() => Value::from(*v),
            Literal::Float(_) => return Err(not("an infinite number")),
            Literal::Str(s) => Value::String(s.clone()),
            Literal::Table(fields) => {
                if fields.iter().any(|(_, v)| *v == Literal::Nil) {
                    return Err(not("a table holding nil"));
                }
                let n = fields.len() as i64;
                let mut keys: Vec<i64> = fields
                    .iter()
                    .filter_map(|(k, _)| match k {
                        Literal::Int(i) => Some(*i),
                        _ => None,
                    })
                    .collect();
                keys.sort_unstable();
                keys.dedup();
                if keys.len() as i64 == n && keys.iter().copied().eq(1..=n) {
                    let mut items = vec![Value::Null; fields.len()];
                    for (key, v) in fields {
                        if let Literal::Int(i) = key {
                            items[(*i - 1) as usize] = v.value(argument)?;
                        }
                    }
                    return Ok(Value::Array(items));
                }
                if argument {
                    return Err(not("an argument table that is not a sequence"));
                }
                let mut object = serde_json::Map::new();
                for (key, v) in fields {
                    let key = match key {
                        Literal::Int(i) => i.to_string(),
                        Literal::Str(s) => s.clone(),
                        _ => return Err(not("a table key that is not a string or an integer")),
                    };
                    if object.insert(key, v.value(argument)?).is_some() {
                        return Err(not("a table with a repeated key"));
                    }
                }
                Value::Object(object)
            }
        })
    }
}

/// The cases of a MultiPL-E Lua test and the function `candidate` names.
pub fn multipl_e_test(test: &str) -> Result<(String, Vec<CallCase>), NotConverted> {
    let tokens = tokenize(test)?;
    let mut p = Parser {
        tokens: &tokens,
        at: 0,
    };
    let _ = p.name("local");
    // `require('luaunit')` or `require 'luaunit'`.
    let named = p.name("lu") && p.eat('=') && p.name("require");
    let parenthesised = named && p.eat('(');
    let prologue = || not("a test that does not start with `lu = require('luaunit')`");
    if !(named && matches!(p.peek(), Some(Token::Str(s)) if s == "luaunit")) {
        return Err(prologue());
    }
    p.at += 1;
    if parenthesised && !p.eat(')') {
        return Err(prologue());
    }
    let _ = p.eat(';');
    let shape = || not("a test that is not `function test_humaneval() local candidate = f ..`");
    if !(p.name("function") && matches!(p.peek(), Some(Token::Name(_)))) {
        return Err(shape());
    }
    p.at += 1;
    if !(p.eat('(') && p.eat(')') && p.name("local") && p.name("candidate") && p.eat('=')) {
        return Err(shape());
    }
    let Some(Token::Name(entry_point)) = p.peek().cloned() else {
        return Err(shape());
    };
    p.at += 1;
    let _ = p.eat(';');
    let mut cases = Vec::new();
    while !p.name("end") {
        if p.eat(';') {
            continue;
        }
        if !(p.name("lu") && p.eat('.')) {
            return Err(not("a statement that is not an assert of luaunit"));
        }
        let Some(Token::Name(method)) = p.peek().cloned() else {
            return Err(not("a statement that is not an assert of luaunit"));
        };
        p.at += 1;
        p.expect('(')?;
        if !(p.name("candidate") && p.eat('(')) {
            return Err(not(
                "an assert whose first argument is not a call of candidate",
            ));
        }
        let mut args = Vec::new();
        if !p.eat(')') {
            loop {
                args.push(p.literal()?.value(true)?);
                if p.eat(')') {
                    break;
                }
                p.expect(',')?;
            }
        }
        let expected = match method.as_str() {
            "assertEquals" | "assert_equals" => {
                p.expect(',')?;
                p.literal()?.value(false)?
            }
            "assertTrue" | "assert_true" | "assertIsTrue" => Value::Bool(true),
            "assertFalse" | "assert_false" | "assertIsFalse" => Value::Bool(false),
            "assertNil" | "assert_nil" | "assertIsNil" => Value::Null,
            _ => return Err(not("an assert the converter does not read")),
        };
        if !p.eat(')') {
            return Err(not("an assert with a message or another shape"));
        }
        cases.push(CallCase {
            name: format!("assert {}", cases.len() + 1),
            args,
            expected,
            check: CallCheck::Equals,
            tolerance: None,
        });
    }
    let epilogue = p.name("os")
        && p.eat('.')
        && p.name("exit")
        && p.eat('(')
        && p.name("lu")
        && p.eat('.')
        && p.name("LuaUnit")
        && p.eat('.')
        && p.name("run")
        && p.eat('(')
        && p.eat(')')
        && p.eat(')');
    let _ = p.eat(';');
    if !epilogue || p.at != tokens.len() {
        return Err(not(
            "code after the test function other than `os.exit(lu.LuaUnit.run())`",
        ));
    }
    if cases.is_empty() {
        return Err(not("no assertion to convert"));
    }
    Ok((entry_point, cases))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn test(body: &str) -> String {
        format!("lu = require('luaunit')\n\nfunction test_humaneval()\nlocal candidate = f\n{body}end\n\nos.exit(lu.LuaUnit.run())\n")
    }

    #[test]
    fn asserts_of_calls_with_literals_become_cases() {
        let (entry, cases) = multipl_e_test(&test(
            "    lu.assertEquals(candidate({1, 2.5, -3}, 'a\\'b', \"c\\n\"), {['x'] = 1, y = {}})\n    lu.assertEquals(candidate(), {[1] = 'a', [2] = 'b'})\n    lu.assertTrue(candidate(0x10))\n    -- a comment\n    lu.assertNil(candidate(-1e3))\n",
        ))
        .unwrap();
        assert_eq!(entry, "f");
        let shown: Vec<(Value, Value)> = cases
            .iter()
            .map(|c| (Value::Array(c.args.clone()), c.expected.clone()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    json!([[1, 2.5, -3], "a'b", "c\n"]),
                    json!({"x": 1, "y": []})
                ),
                (json!([]), json!(["a", "b"])),
                (json!([16]), json!(true)),
                (json!([-1000.0]), Value::Null),
            ]
        );
        assert_eq!(cases[3].name, "assert 4");
    }

    #[test]
    fn floats_stay_floats_and_sparse_expected_tables_are_objects() {
        let (_, cases) = multipl_e_test(&test(
            "    lu.assertEquals(candidate(3.0), {[1] = 'a', [3] = 'c', [\"k\"] = 2.0})\n",
        ))
        .unwrap();
        assert_eq!(cases[0].args, [json!(3.0)]);
        assert!(cases[0].args[0].is_f64());
        assert_eq!(cases[0].expected, json!({"1": "a", "3": "c", "k": 2.0}));
    }

    #[test]
    fn other_shapes_stay_in_the_guest() {
        let refused = |body: &str| multipl_e_test(&test(body)).unwrap_err().0;
        assert_eq!(
            refused("    lu.assertEquals(candidate(x), 1)\n"),
            "an expression that is not a literal"
        );
        assert_eq!(
            refused("    for i = 1, 3 do lu.assertEquals(candidate(i), i) end\n"),
            "a statement that is not an assert of luaunit"
        );
        assert_eq!(
            refused("    lu.assertEquals(candidate({1, nil, 3}), 1)\n"),
            "a table holding nil"
        );
        assert_eq!(
            refused("    lu.assertAlmostEquals(candidate(1), 1.5, 0.1)\n"),
            "an assert the converter does not read"
        );
        assert_eq!(
            refused("    lu.assertEquals(candidate(1), 1, 'message')\n"),
            "an assert with a message or another shape"
        );
        // The guest would get string keys back.
        assert_eq!(
            refused("    lu.assertEquals(candidate({[1] = 'a', [3] = 'c'}), 1)\n"),
            "an argument table that is not a sequence"
        );
        assert_eq!(refused(""), "no assertion to convert");
        let extra = test("    lu.assertEquals(candidate(1), 1)\n") + "print('more')\n";
        assert!(multipl_e_test(&extra).is_err());
    }
}
