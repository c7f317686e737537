//! JavaScript assertion tests turned into host-judged `calls` cases when they are imported, as
//! [`super::python_asserts`] does for Python: HumanEval-X's JavaScript tests are an arrow function
//! of `console.assert(..)` calls, most of them of these shapes:
//!
//! | assertion | case |
//! |---|---|
//! | `console.assert(f(ARGS) === VALUE)` (either side), `VALUE` a number, string, boolean or `null` | `expected: VALUE` |
//! | `console.assert(f(ARGS) == VALUE)` (either side), `VALUE` a number, string or boolean | `check: loosely_equals` (`==`: `"6" == 6`) |
//! | `console.assert(JSON.stringify(f(ARGS)) === JSON.stringify(VALUE))` | `expected: VALUE` (compared as data) |
//! | `console.assert(f(ARGS))` / `console.assert(!f(ARGS))` | `check: truthy` / `falsy` (JavaScript's truthiness) |
//!
//! with `ARGS` and `VALUE` JavaScript literals (numbers, strings, booleans, `null`, arrays,
//! objects). Anything else (a variable, a loop, a helper, an array compared with `===`) leaves the
//! test as it is, run in the guest; so does a comparison the host's rules would judge otherwise
//! than JavaScript: `===` or `JSON.stringify` against a value holding a zero (`-0 === 0`, and
//! `JSON.stringify(-0)` is `"0"`, but the host compares strictly as `Object.is` does, which
//! tells -0 from 0), `JSON.stringify` against an object of several keys (whose order the strings
//! compare), and `==` against `null` (`undefined == null`).

use super::python_asserts::NotConverted;
use crate::task::{AssertionCase, CallCase, CallCheck};
use serde_json::{json, Value};

fn not(reason: &str) -> NotConverted {
    NotConverted(reason.to_owned())
}

/// The cases of a HumanEval-X JavaScript test (`const testF = () => { console.assert(..) .. }`
/// then `testF()`), calling `entry_point`: each `console.assert` a host-judged call, or, where the
/// host would judge it otherwise than JavaScript (`f(x) === 0`, which -0 passes), an assertion
/// case of its own, `console.assert(..)` as written, run in the guest. Both are named `assert N`
/// by their place in the test.
pub fn humaneval_x_test(
    test: &str,
    entry_point: &str,
) -> Result<(Vec<CallCase>, Vec<AssertionCase>), NotConverted> {
    let (tokens, spans) = tokenize_with_spans(test)?;
    // const NAME = ( ) => { BODY } NAME ( )
    let [Token::Name(keyword), Token::Name(name), Token::Op("="), Token::Op("("), Token::Op(")"), Token::Op("=>"), Token::Op("{"), rest @ ..] =
        tokens.as_slice()
    else {
        return Err(not("a test that is not one arrow function"));
    };
    let close = matching(rest, 0, "{", "}").ok_or_else(|| not("an unclosed test function"))?;
    let (body, after) = (&rest[..close], &rest[close + 1..]);
    // The body's first token's index in `tokens` (and `spans`).
    let base = tokens.len() - rest.len();
    let call = [Token::Name(name.clone()), Token::Op("("), Token::Op(")")];
    let after: Vec<&Token> = after.iter().filter(|t| **t != Token::Op(";")).collect();
    if keyword != "const" || after != call.iter().collect::<Vec<_>>() {
        return Err(not("code around the test function"));
    }
    let (mut cases, mut in_guest) = (Vec::new(), Vec::new());
    let mut at = 0;
    while at < body.len() {
        match &body[at..] {
            [Token::Op(";"), ..] => at += 1,
            [Token::Name(console), Token::Op("."), Token::Name(assert), Token::Op("("), ..]
                if console == "console" && assert == "assert" =>
            {
                let open = at + 3;
                let close = matching(body, open + 1, "(", ")")
                    .ok_or_else(|| not("an unclosed console.assert"))?;
                let mut parser = Parser {
                    tokens: &body[open + 1..close],
                    at: 0,
                };
                let condition = parser.expression()?;
                if parser.at != parser.tokens.len() {
                    return Err(not("a console.assert with a message or another shape"));
                }
                let name = format!("assert {}", cases.len() + in_guest.len() + 1);
                match case_of(&condition, entry_point)? {
                    Some(case) => cases.push(CallCase { name, ..case }),
                    None => {
                        let code = &test_text(test, &spans, base + at, base + close);
                        in_guest.push(AssertionCase {
                            name,
                            code: format!("{code}\n"),
                        });
                    }
                }
                at = close + 1;
            }
            _ => return Err(not("a statement that is not console.assert")),
        }
    }
    if cases.is_empty() && in_guest.is_empty() {
        return Err(not("no assertion to convert"));
    }
    Ok((cases, in_guest))
}

/// The source text from token `first` to token `last`, both included.
fn test_text<'t>(test: &'t str, spans: &[(usize, usize)], first: usize, last: usize) -> &'t str {
    &test[spans[first].0..spans[last].1]
}

/// The cases of a MultiPL-E JavaScript test (`const assert = require('node:assert');`, then
/// `function test() { let candidate = f; assert.deepEqual(candidate(ARGS), VALUE); .. }` and
/// `test();`), and the function `candidate` names. Each of node's assertions of a call and a
/// literal keeps its own equality: `deepEqual` (node's loose one: `deepEqual(22, "22")` holds)
/// becomes a `loosely_equals` case, `deepStrictEqual` an `equals` case (`Object.is` on
/// primitives), and `equal` (`==`) and `strictEqual` (`Object.is`) the same against a primitive
/// (against an array or object they compare references, which no literal is: such a test stays
/// in the guest). A loose comparison with a value holding `null` (which `undefined` loosely
/// equals, and which no returned value reports) and anything else leave the test in the guest.
pub fn multipl_e_test(test: &str) -> Result<(String, Vec<CallCase>), NotConverted> {
    let tokens = tokenize(test)?;
    let [Token::Name(constant), Token::Name(assert), Token::Op("="), Token::Name(require), Token::Op("("), Token::Str(module), Token::Op(")"), rest @ ..] =
        tokens.as_slice()
    else {
        return Err(not("a test that does not start by requiring node:assert"));
    };
    let module_ok = module == "node:assert" || module == "assert";
    if constant != "const" || assert != "assert" || require != "require" || !module_ok {
        return Err(not("a test that does not start by requiring node:assert"));
    }
    let rest = rest.strip_prefix(&[Token::Op(";")]).unwrap_or(rest);
    let [Token::Name(function), Token::Name(name), Token::Op("("), Token::Op(")"), Token::Op("{"), Token::Name(binding), Token::Name(candidate), Token::Op("="), Token::Name(entry_point), Token::Op(";"), rest @ ..] =
        rest
    else {
        return Err(not(
            "a test that is not `function test() { let candidate = f; .. }`",
        ));
    };
    if function != "function" || !matches!(binding.as_str(), "let" | "const" | "var") {
        return Err(not(
            "a test that is not `function test() { let candidate = f; .. }`",
        ));
    }
    let close = matching(rest, 0, "{", "}").ok_or_else(|| not("an unclosed test function"))?;
    let (body, after) = (&rest[..close], &rest[close + 1..]);
    let after: Vec<&Token> = after.iter().filter(|t| **t != Token::Op(";")).collect();
    let call = [Token::Name(name.clone()), Token::Op("("), Token::Op(")")];
    if after != call.iter().collect::<Vec<_>>() {
        return Err(not("code around the test function"));
    }
    let mut cases = Vec::new();
    let mut at = 0;
    while at < body.len() {
        match &body[at..] {
            [Token::Op(";"), ..] => at += 1,
            [Token::Name(object), Token::Op("."), Token::Name(method), Token::Op("("), ..]
                if object == "assert"
                    && matches!(
                        method.as_str(),
                        "deepEqual" | "deepStrictEqual" | "strictEqual" | "equal"
                    ) =>
            {
                let open = at + 3;
                let close = matching(body, open + 1, "(", ")")
                    .ok_or_else(|| not("an unclosed assert call"))?;
                let mut parser = Parser {
                    tokens: &body[open + 1..close],
                    at: 0,
                };
                let actual = parser.expression()?;
                let expected = match parser.eat(",") {
                    true => parser.expression()?,
                    false => return Err(not("an assert with one argument")),
                };
                if parser.at != parser.tokens.len() {
                    return Err(not("an assert with a message or another shape"));
                }
                let args = match &actual {
                    Expr::Call(callee, args) if callee == candidate => args
                        .iter()
                        .map(Expr::value)
                        .collect::<Result<Vec<_>, _>>()?,
                    _ => return Err(not("an assertion of another shape")),
                };
                let expected = expected.value()?;
                let primitive = !(expected.is_array() || expected.is_object());
                let check = match method.as_str() {
                    "deepEqual" | "equal" => CallCheck::LooselyEquals,
                    _ => CallCheck::Equals,
                };
                if matches!(method.as_str(), "equal" | "strictEqual") && !primitive {
                    return Err(not("an array or object compared by reference"));
                }
                if check == CallCheck::LooselyEquals && holds(&expected, &|v| v.is_null()) {
                    return Err(not("a loose comparison with null"));
                }
                cases.push(CallCase {
                    name: format!("assert {}", cases.len() + 1),
                    args,
                    expected,
                    check,
                    tolerance: None,
                });
                at = close + 1;
            }
            _ => return Err(not("a statement that is not assert.deepEqual")),
        }
    }
    if cases.is_empty() {
        return Err(not("no assertion to convert"));
    }
    Ok((entry_point.clone(), cases))
}

/// The index in `tokens` of the `close` matching an `open` just before `from`.
fn matching(tokens: &[Token], from: usize, open: &str, close: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(from) {
        match token {
            Token::Op(op) if *op == open => depth += 1,
            Token::Op(op) if *op == close => {
                if depth == 0 {
                    return Some(i);
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    None
}

/// Whether `value` or any value in it satisfies `test`.
fn holds(value: &Value, test: &dyn Fn(&Value) -> bool) -> bool {
    test(value)
        || match value {
            Value::Array(items) => items.iter().any(|item| holds(item, test)),
            Value::Object(fields) => fields.values().any(|field| holds(field, test)),
            _ => false,
        }
}

/// Whether `value` is or holds a zero, which JavaScript's `===` and `JSON.stringify` do not tell
/// from -0 but the host's strict comparison (`Object.is`) does.
fn holds_zero(value: &Value) -> bool {
    holds(value, &|v| v.as_f64() == Some(0.0))
}

/// The argument of `JSON.stringify(x)`.
fn stringified(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::Call(name, args) if name == "JSON.stringify" && args.len() == 1 => Some(&args[0]),
        _ => None,
    }
}

/// The call case of one `console.assert`'s test, or `None` when the host would judge it otherwise
/// than JavaScript does (the assert then runs in the guest).
fn case_of(test: &Expr, function: &str) -> Result<Option<CallCase>, NotConverted> {
    let call = |expr: &Expr| -> Result<Option<Vec<Value>>, NotConverted> {
        match expr {
            Expr::Call(name, args) if name == function => args
                .iter()
                .map(Expr::value)
                .collect::<Result<_, _>>()
                .map(Some),
            _ => Ok(None),
        }
    };

    let case = |args, expected, check| CallCase {
        name: String::new(),
        args,
        expected,
        check,
        tolerance: None,
    };
    let unsupported = || Err(not("an assertion of another shape"));
    match test {
        Expr::Equal(left, right, strict) => {
            // JSON.stringify(f(x)) === JSON.stringify(value): equal as data.
            if let (Some(a), Some(b), true) = (stringified(left), stringified(right), strict) {
                let (args, value) = match (call(a)?, call(b)?) {
                    (Some(args), None) => (args, b.value()?),
                    (None, Some(args)) => (args, a.value()?),
                    _ => return unsupported(),
                };
                // `JSON.stringify(-0)` is "0", and an object's string has its keys in order.
                let keyed = |v: &Value| v.as_object().is_some_and(|o| o.len() > 1);
                if holds_zero(&value) || holds(&value, &keyed) {
                    return Ok(None);
                }
                return Ok(Some(case(args, value, CallCheck::Equals)));
            }
            // f(x) === value: only a primitive value compares by value.
            let (args, value) = match (call(left)?, call(right)?) {
                (Some(args), None) => (args, right.value()?),
                (None, Some(args)) => (args, left.value()?),
                _ => return unsupported(),
            };
            if value.is_array() || value.is_object() {
                return Err(not("an array or object compared with === or =="));
            }
            // `-0 === 0`, and `undefined == null`.
            match strict {
                true if holds_zero(&value) => Ok(None),
                true => Ok(Some(case(args, value, CallCheck::Equals))),
                false if value.is_null() => Ok(None),
                false => Ok(Some(case(args, value, CallCheck::LooselyEquals))),
            }
        }
        Expr::Not(inner) => match call(inner)? {
            Some(args) => Ok(Some(case(args, Value::Null, CallCheck::Falsy))),
            None => unsupported(),
        },
        other => match call(other)? {
            Some(args) => Ok(Some(case(args, Value::Null, CallCheck::Truthy))),
            None => unsupported(),
        },
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Name(String),
    Number(f64),
    Str(String),
    Op(&'static str),
}

const OPERATORS: [&str; 16] = [
    "===", "==", "=>", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "!", "-", "=",
];

fn tokenize(code: &str) -> Result<Vec<Token>, NotConverted> {
    tokenize_with_spans(code).map(|(tokens, _)| tokens)
}

/// The byte range of each token, beside the tokens.
type Spans = Vec<(usize, usize)>;

/// The tokens of `code` and the byte range of each.
fn tokenize_with_spans(code: &str) -> Result<(Vec<Token>, Spans), NotConverted> {
    let bytes = code.as_bytes();
    let mut tokens = Vec::new();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let count = tokens.len();
        if c.is_ascii_whitespace() {
            i += 1;
        } else if code[i..].starts_with("//") {
            i = code[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if code[i..].starts_with("/*") {
            i = code[i + 2..].find("*/").map_or(bytes.len(), |n| i + n + 4);
        } else if c == b'"' || c == b'\'' {
            let (text, end) = string_literal(code, i)?;
            tokens.push(Token::Str(text));
            i = end;
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
            {
                i += 1;
            }
            tokens.push(Token::Name(code[start..i].to_owned()));
        } else if c.is_ascii_digit()
            || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || bytes[i] == b'.'
                    || ((bytes[i] == b'+' || bytes[i] == b'-')
                        && matches!(bytes[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            let text = &code[start..i];
            let number = if text.starts_with("0x") || text.starts_with("0X") {
                i64::from_str_radix(&text[2..], 16).ok().map(|n| n as f64)
            } else if text.ends_with('n') {
                None
            } else {
                text.parse::<f64>().ok()
            };
            tokens.push(Token::Number(
                number.ok_or_else(|| not(&format!("the number `{text}`")))?,
            ));
        } else {
            match OPERATORS.iter().find(|op| code[i..].starts_with(**op)) {
                Some(op) => {
                    tokens.push(Token::Op(op));
                    i += op.len();
                }
                None => return Err(not(&format!("the character `{}`", c as char))),
            }
        }
        if tokens.len() > count {
            spans.push((start, i));
        }
    }
    Ok((tokens, spans))
}

fn string_literal(code: &str, at: usize) -> Result<(String, usize), NotConverted> {
    let quote = code.as_bytes()[at] as char;
    let mut value = String::new();
    let mut chars = code[at + 1..].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            _ if c == quote => return Ok((value, at + 1 + i + 1)),
            '\n' => break,
            '\\' => match chars.next().map(|(_, e)| e) {
                Some('n') => value.push('\n'),
                Some('t') => value.push('\t'),
                Some('r') => value.push('\r'),
                Some('0') => value.push('\0'),
                Some(e @ ('\\' | '\'' | '"')) => value.push(e),
                Some('u') => {
                    let digits: String = chars.by_ref().take(4).map(|(_, c)| c).collect();
                    let code = u32::from_str_radix(&digits, 16)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(|| not("a \\u escape this reader does not know"))?;
                    value.push(code);
                }
                _ => return Err(not("an escape sequence this reader does not know")),
            },
            _ => value.push(c),
        }
    }
    Err(not("a string that does not end"))
}

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Number(f64),
    Str(String),
    Bool(bool),
    Null,
    Array(Vec<Expr>),
    Object(Vec<(String, Expr)>),
    /// A call of a name or of `JSON.stringify`.
    Call(String, Vec<Expr>),
    /// `===` (true) or the loose `==` (false).
    Equal(Box<Expr>, Box<Expr>, bool),
    Not(Box<Expr>),
}

struct Parser<'t> {
    tokens: &'t [Token],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Token::Op(o)) if *o == op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expression(&mut self) -> Result<Expr, NotConverted> {
        let left = self.unary()?;
        for (operator, strict) in [("===", true), ("==", false)] {
            if self.eat(operator) {
                let right = self.unary()?;
                return Ok(Expr::Equal(Box::new(left), Box::new(right), strict));
            }
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, NotConverted> {
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat("-") {
            return match self.unary()? {
                Expr::Number(n) => Ok(Expr::Number(-n)),
                _ => Err(not("a negated non-number")),
            };
        }
        self.primary()
    }

    fn items(&mut self, close: &str) -> Result<Vec<Expr>, NotConverted> {
        let mut items = Vec::new();
        while !self.eat(close) {
            items.push(self.expression()?);
            if !self.eat(",") {
                if !self.eat(close) {
                    return Err(not(&format!("expected `{close}`")));
                }
                break;
            }
        }
        Ok(items)
    }

    fn primary(&mut self) -> Result<Expr, NotConverted> {
        let token = self
            .peek()
            .cloned()
            .ok_or_else(|| not("an expression that ends early"))?;
        self.at += 1;
        Ok(match token {
            Token::Number(n) => Expr::Number(n),
            Token::Str(s) => Expr::Str(s),
            Token::Op("[") => Expr::Array(self.items("]")?),
            Token::Op("(") => {
                let inner = self.expression()?;
                if !self.eat(")") {
                    return Err(not("expected `)`"));
                }
                inner
            }
            Token::Op("{") => {
                let mut fields = Vec::new();
                while !self.eat("}") {
                    let key = match self.peek().cloned() {
                        Some(Token::Name(k)) | Some(Token::Str(k)) => k,
                        _ => return Err(not("an object key this reader does not know")),
                    };
                    self.at += 1;
                    if !self.eat(":") {
                        return Err(not("an object shorthand"));
                    }
                    fields.push((key, self.expression()?));
                    if !self.eat(",") {
                        if !self.eat("}") {
                            return Err(not("expected `}`"));
                        }
                        break;
                    }
                }
                Expr::Object(fields)
            }
            Token::Name(name) => match name.as_str() {
                "true" => Expr::Bool(true),
                "false" => Expr::Bool(false),
                "null" => Expr::Null,
                "JSON" if self.eat(".") => {
                    let member = self.peek().cloned();
                    self.at += 1;
                    if member != Some(Token::Name("stringify".into())) || !self.eat("(") {
                        return Err(not("a JSON member other than stringify"));
                    }
                    Expr::Call("JSON.stringify".into(), self.items(")")?)
                }
                _ if self.eat("(") => Expr::Call(name, self.items(")")?),
                _ => return Err(not(&format!("the name `{name}`"))),
            },
            other => return Err(not(&format!("`{other:?}`"))),
        })
    }
}

impl Expr {
    /// The value of a literal in the `calls` JSON form.
    fn value(&self) -> Result<Value, NotConverted> {
        Ok(match self {
            // Integral numbers as integers, so that they read as JavaScript writes them.
            // -0 stays -0: `Object.is(-0, 0)` is false.
            Expr::Number(n) if *n == 0.0 && n.is_sign_negative() => json!(-0.0),
            Expr::Number(n) if n.fract() == 0.0 && n.abs() < 9.007e15 => json!(*n as i64),
            Expr::Number(n) => json!(n),
            Expr::Str(s) => Value::String(s.clone()),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Null => Value::Null,
            Expr::Array(items) => {
                Value::Array(items.iter().map(Expr::value).collect::<Result<_, _>>()?)
            }
            Expr::Object(fields) => {
                let mut object = serde_json::Map::new();
                for (key, item) in fields {
                    if object.insert(key.clone(), item.value()?).is_some() {
                        return Err(not("an object with a repeated key"));
                    }
                    if key.starts_with('$') && fields.len() == 1 {
                        return Err(not("an object that reads as a tag"));
                    }
                }
                Value::Object(object)
            }
            Expr::Call(..) | Expr::Equal(..) | Expr::Not(_) => {
                return Err(not("a value that is not a literal"))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humaneval_x_console_asserts_become_calls() {
        let test = "const testF = () => {\n  console.assert(f([1.0, 2.5], 'a\\'b') === true)\n  console.assert(\n    JSON.stringify(f([-1, 2])) ===\n      JSON.stringify([4, {'b': null}])\n  )\n  // a comment\n  console.assert(!f([]));\n  console.assert(f(3))\n}\n\ntestF()\n";
        let (cases, in_guest) = humaneval_x_test(test, "f").unwrap();
        assert!(in_guest.is_empty());
        assert_eq!(cases.len(), 4);
        assert_eq!(cases[0].args, [json!([1, 2.5]), json!("a'b")]);
        assert_eq!(cases[0].expected, json!(true));
        assert_eq!(cases[1].args, [json!([-1, 2])]);
        assert_eq!(cases[1].expected, json!([4, {"b": null}]));
        assert_eq!(cases[2].check, CallCheck::Falsy);
        assert_eq!(cases[3].check, CallCheck::Truthy);
        assert_eq!(cases[3].name, "assert 4");
    }

    #[test]
    fn other_shapes_stay_in_the_guest() {
        let wrap = |body: &str| format!("const t = () => {{\n{body}\n}}\nt()\n");
        for body in [
            "  let x = 1\n  console.assert(f(x) === 1)",
            "  console.assert(f(1) === [1])",
            "  console.assert(f(1) === 1, 'message')",
            "  for (const x of [1]) console.assert(f(x) === 1)",
            "  console.assert(g(1) === 1)",
            "  console.assert(f(3) == [6])",
        ] {
            assert!(humaneval_x_test(&wrap(body), "f").is_err(), "{body}");
        }
        // Comparisons the host would judge otherwise: `-0 === 0` and `JSON.stringify(-0)` is "0"
        // (the host tells -0 from 0, as Object.is does), the order of an object's keys makes its
        // string, and `undefined == null`. Each is a case of its own in the guest, as written.
        for assert in [
            "console.assert(f(3) === 0)",
            "console.assert(f(3) === -0)",
            "console.assert(JSON.stringify(f(3)) ===\n    JSON.stringify([1, 0]))",
            "console.assert(JSON.stringify(f(3)) === JSON.stringify({a: 1, b: 2}))",
            "console.assert(f(3) == null)",
        ] {
            let body = format!("  console.assert(f(1) === 2)\n  {assert}\n");
            let (calls, in_guest) = humaneval_x_test(&wrap(&body), "f").unwrap();
            assert_eq!(calls.len(), 1, "{assert}");
            assert_eq!(calls[0].name, "assert 1");
            assert_eq!(in_guest.len(), 1, "{assert}");
            assert_eq!(in_guest[0].name, "assert 2");
            assert_eq!(in_guest[0].code, format!("{assert}\n"));
        }
        assert!(humaneval_x_test("console.assert(f(1) === 1)", "f").is_err());
    }
    #[test]
    fn multipl_e_tests_become_calls_and_a_replaced_test_function_gains_nothing() {
        let test = "const assert = require('node:assert');\n\nfunction test() {\n  let candidate = add;\n  assert.deepEqual(candidate(1, [2, 3]),[3, \"x\"]);\n  assert.deepEqual(candidate(-1, {}),true);\n}\n\ntest();";
        let (entry_point, cases) = multipl_e_test(test).unwrap();
        assert_eq!(entry_point, "add");
        assert_eq!(cases[0].args, [json!(1), json!([2, 3])]);
        assert_eq!(cases[0].expected, json!([3, "x"]));
        assert_eq!(cases[1].expected, json!(true));
        // A loop stays in the guest.
        assert!(multipl_e_test(&test.replace("test();", "for (;;) test();")).is_err());
    }

    #[test]
    fn regression_issue_33_each_node_assertion_keeps_its_own_equality() {
        let test = |body: &str| {
            format!("const assert = require('node:assert');\nfunction test() {{\n  let candidate = f;\n{body}\n}}\ntest();")
        };
        let check = |body: &str| {
            multipl_e_test(&test(body))
                .map(|(_, cases)| (cases[0].check, cases[0].expected.clone()))
        };
        use CallCheck::*;
        // deepEqual and equal are node's loose ones (`deepEqual(22, "22")` holds).
        assert_eq!(
            check("  assert.deepEqual(candidate(1), 22);"),
            Ok((LooselyEquals, json!(22)))
        );
        assert_eq!(
            check("  assert.deepEqual(candidate(1), [1, 2]);"),
            Ok((LooselyEquals, json!([1, 2])))
        );
        assert_eq!(
            check("  assert.equal(candidate(1), \"22\");"),
            Ok((LooselyEquals, json!("22")))
        );
        assert_eq!(
            check("  assert.deepStrictEqual(candidate(1), [1]);"),
            Ok((Equals, json!([1])))
        );
        assert_eq!(
            check("  assert.strictEqual(candidate(1), 1);"),
            Ok((Equals, json!(1)))
        );
        // -0 is not 0 to Object.is.
        let (_, negative_zero) = check("  assert.strictEqual(candidate(1), -0);").unwrap();
        assert!(negative_zero
            .as_f64()
            .is_some_and(|z| z == 0.0 && z.is_sign_negative()));
        // equal and strictEqual compare an array by reference: no literal is the same array.
        assert!(check("  assert.equal(candidate(1), [1]);").is_err());
        assert!(check("  assert.strictEqual(candidate(1), [1]);").is_err());
        // `undefined == null`: a loose comparison with null stays in the guest.
        assert!(check("  assert.deepEqual(candidate(1), [null, 1]);").is_err());
        assert_eq!(
            check("  assert.deepStrictEqual(candidate(1), null);"),
            Ok((Equals, Value::Null))
        );
        // HumanEval-X's loose `==` against a primitive is loose too.
        let wrap = |body: &str| format!("const t = () => {{\n{body}\n}}\nt()\n");
        let (cases, _) = humaneval_x_test(&wrap("  console.assert(f(3) == 6.0)"), "f").unwrap();
        assert_eq!(
            (cases[0].check, &cases[0].expected),
            (LooselyEquals, &json!(6))
        );
    }
}
