//! Go literal values as a Go compiler types them, for the Go test converters
//! (`formats::go_asserts`): the expected value of a test, read from its source, in the two forms
//! the host compares with what a Go guest reports.
//!
//! - [`sprint_v`]: `fmt.Sprintf("%v", x)`, MultiPL-E's comparison (its tests compare the `%v`
//!   strings of the actual and the expected value).
//! - [`typed_json`]: the value with its Go types, so that two such forms are equal exactly when
//!   testify's `ObjectsAreEqual` (`reflect.DeepEqual`) says the values are: an interface value is
//!   `{"$go": ["<reflect type>", <value>]}` (nil: `null`), integers and floats are numbers
//!   (the type beside them tells them apart), strings are strings (`{"$gobytes": "<hex>"}` when
//!   not UTF-8), a nil slice or map is `null`, an empty one `[]` or an empty `$dict`, arrays and
//!   slices are arrays, maps `{"$dict": [[k, v], ..]}`. `guests/go/calls.go` writes the
//!   candidate's value the same way.
//!
//! What is read: literals of Go's basic types (numbers in every base, runes, interpreted and raw
//! strings, `true`/`false`, `nil`) with a sign, conversions of them to a basic type
//! (`float64(3)`) or of `nil` to a slice or map type (`[]int(nil)`), and composite literals of slices, arrays and maps of those (element types
//! elided or not). Untyped constants take their default type in an interface (`3` is an `int`,
//! `3.0` a `float64`, `'a'` an `int32`), and the element type in a composite literal; a
//! constant its type cannot represent (`[]int{1.5}`) is not read, as Go would not compile it.
//! Anything else (variables, calls, named types, structs, pointers, `float32`, complex numbers)
//! is not a literal here: `None`.

use serde_json::{json, Value};

/// A Go type a literal here can have.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum GoType {
    /// An integer type, by its reflect name (`int`, `int32`, `uint8`, ...).
    Int(&'static str),
    Float64,
    String,
    Bool,
    /// `interface{}` (and `any`).
    Interface,
    Slice(Box<GoType>),
    Array(usize, Box<GoType>),
    Map(Box<GoType>, Box<GoType>),
}

/// A value of a [`GoType`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum GoValue {
    Int(i128),
    Float(f64),
    Str(Vec<u8>),
    Bool(bool),
    /// A nil slice or map.
    Nil,
    /// The elements of a slice or an array.
    List(Vec<GoValue>),
    Map(Vec<(GoValue, GoValue)>),
    /// An interface value: nil, or a value with its dynamic type.
    Interface(Option<Box<(GoType, GoValue)>>),
}

/// The integer types: reflect name, smallest and largest value.
const INTEGERS: [(&str, i128, i128); 10] = [
    ("int", i64::MIN as i128, i64::MAX as i128),
    ("int8", i8::MIN as i128, i8::MAX as i128),
    ("int16", i16::MIN as i128, i16::MAX as i128),
    ("int32", i32::MIN as i128, i32::MAX as i128),
    ("int64", i64::MIN as i128, i64::MAX as i128),
    ("uint", 0, u64::MAX as i128),
    ("uint8", 0, u8::MAX as i128),
    ("uint16", 0, u16::MAX as i128),
    ("uint32", 0, u32::MAX as i128),
    ("uint64", 0, u64::MAX as i128),
];

impl GoType {
    /// The type's name as Go's reflect package writes it (`[]interface {}`, `map[int32]int`).
    pub(crate) fn reflect_name(&self) -> String {
        match self {
            GoType::Int(name) => (*name).to_owned(),
            GoType::Float64 => "float64".into(),
            GoType::String => "string".into(),
            GoType::Bool => "bool".into(),
            GoType::Interface => "interface {}".into(),
            GoType::Slice(element) => format!("[]{}", element.reflect_name()),
            GoType::Array(n, element) => format!("[{n}]{}", element.reflect_name()),
            GoType::Map(key, value) => {
                format!("map[{}]{}", key.reflect_name(), value.reflect_name())
            }
        }
    }

    /// The zero value of the type (what an array literal's missing elements are).
    fn zero(&self) -> GoValue {
        match self {
            GoType::Int(_) => GoValue::Int(0),
            GoType::Float64 => GoValue::Float(0.0),
            GoType::String => GoValue::Str(Vec::new()),
            GoType::Bool => GoValue::Bool(false),
            GoType::Interface => GoValue::Interface(None),
            GoType::Slice(_) | GoType::Map(..) => GoValue::Nil,
            GoType::Array(n, element) => GoValue::List(vec![element.zero(); *n]),
        }
    }
}

/// `code` with comments and the contents of string, raw string and rune literals replaced by
/// spaces (quotes kept, newlines kept), byte for byte, so that positions in it are positions in
/// `code` and brackets or commas inside literals are not seen.
pub(crate) fn blank(code: &str) -> String {
    let bytes = code.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let space = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |n| i + n);
                space(&mut out, i, end);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = code[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
                space(&mut out, i, end);
                i = end;
            }
            quote @ (b'"' | b'\'' | b'`') => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != quote {
                    if quote != b'`' && bytes[j] == b'\\' {
                        j += 1;
                    }
                    // An interpreted literal ends at a newline (a compile error in Go anyway).
                    if quote != b'`' && bytes.get(j) == Some(&b'\n') {
                        break;
                    }
                    j += 1;
                }
                let end = j.min(bytes.len());
                space(&mut out, i + 1, end);
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written over whole characters")
}

/// Where the bracket at `at` of `blanked` (a [`blank`]ed text) is closed.
pub(crate) fn closing(blanked: &str, at: usize) -> Option<usize> {
    let bytes = blanked.as_bytes();
    let (open, close) = match bytes.get(at)? {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(at) {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The byte ranges of `code`'s parts between top-level `separator`s (outside brackets and
/// literals), trimmed; a last empty part (a trailing comma) is dropped.
pub(crate) fn split_top_level(code: &str, separator: u8) -> Vec<(usize, usize)> {
    let blanked = blank(code);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, b) in blanked.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b if b == separator && depth == 0 => {
                parts.push((start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push((start, code.len()));
    let mut parts: Vec<(usize, usize)> = parts
        .into_iter()
        .map(|(s, e)| {
            let text = &code[s..e];
            let lead = text.len() - text.trim_start().len();
            (s + lead, s + lead + text.trim().len())
        })
        .collect();
    if parts.len() > 1 && parts.last().is_some_and(|(s, e)| s == e) {
        parts.pop();
    }
    parts
}

/// A type at the start of `code`, and the rest of `code` after it.
fn parse_type(code: &str) -> Option<(GoType, &str)> {
    let code = code.trim_start();
    if let Some(rest) = code.strip_prefix("[]") {
        let (element, rest) = parse_type(rest)?;
        return Some((GoType::Slice(Box::new(element)), rest));
    }
    if let Some(rest) = code.strip_prefix('[') {
        let (length, rest) = rest.split_once(']')?;
        let length = length.trim();
        // `[...]T`: the length is the literal's; 0 until the elements are counted.
        let n = if length == "..." {
            usize::MAX
        } else {
            integer_literal(length)?.try_into().ok()?
        };
        let (element, rest) = parse_type(rest)?;
        return Some((GoType::Array(n, Box::new(element)), rest));
    }
    if let Some(rest) = code.strip_prefix("map[") {
        let (key, rest) = parse_type(rest)?;
        let rest = rest.trim_start().strip_prefix(']')?;
        let (value, rest) = parse_type(rest)?;
        return Some((GoType::Map(Box::new(key), Box::new(value)), rest));
    }
    if let Some(rest) = code.strip_prefix("interface") {
        let rest = rest.trim_start().strip_prefix('{')?.trim_start();
        return Some((GoType::Interface, rest.strip_prefix('}')?));
    }
    let name: String = code
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let rest = &code[name.len()..];
    let ty = match name.as_str() {
        "any" => GoType::Interface,
        "float64" => GoType::Float64,
        "string" => GoType::String,
        "bool" => GoType::Bool,
        "byte" => GoType::Int("uint8"),
        "rune" => GoType::Int("int32"),
        other => GoType::Int(INTEGERS.iter().find(|(n, ..)| *n == other)?.0),
    };
    Some((ty, rest))
}

/// An untyped constant.
#[derive(Debug, Clone, PartialEq)]
enum Constant {
    Int(i128),
    Rune(i128),
    Float(f64),
    Str(Vec<u8>),
    Bool(bool),
}

/// The constant `code` is: a literal with any signs, in parentheses or not.
fn constant(code: &str) -> Option<Constant> {
    let code = code.trim();
    if let Some(inner) = code.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
        if closing(&blank(code), 0) == Some(code.len() - 1) {
            return constant(inner);
        }
    }
    if let Some(rest) = code.strip_prefix('-') {
        return match constant(rest)? {
            Constant::Int(n) => Some(Constant::Int(-n)),
            Constant::Rune(n) => Some(Constant::Rune(-n)),
            // Go's constants are exact: there is no negative zero.
            Constant::Float(f) => Some(Constant::Float(if f == 0.0 { 0.0 } else { -f })),
            _ => None,
        };
    }
    if let Some(rest) = code.strip_prefix('+') {
        return match constant(rest)? {
            c @ (Constant::Int(_) | Constant::Rune(_) | Constant::Float(_)) => Some(c),
            _ => None,
        };
    }
    match code {
        "true" => return Some(Constant::Bool(true)),
        "false" => return Some(Constant::Bool(false)),
        _ => {}
    }
    let first = code.chars().next()?;
    if first == '"' || first == '`' {
        return string_literal(code).map(Constant::Str);
    }
    if first == '\'' {
        let bytes = interpreted(code.strip_prefix('\'')?.strip_suffix('\'')?, b'\'')?;
        let text = std::str::from_utf8(&bytes).ok()?;
        let mut chars = text.chars();
        let c = chars.next()?;
        // `'\xff'` is the byte value; otherwise one character.
        return match (chars.next(), bytes.len()) {
            (None, _) => Some(Constant::Rune(i128::from(u32::from(c)))),
            _ => None,
        };
    }
    if first.is_ascii_digit() || first == '.' {
        return number(code);
    }
    None
}

/// A Go number literal: integers in every base (with `_`), decimal floats; hexadecimal floats
/// and imaginary numbers are not read.
fn number(code: &str) -> Option<Constant> {
    if code.ends_with('i') {
        return None;
    }
    if let Some(n) = integer_literal(code) {
        return Some(Constant::Int(n));
    }
    let lower = code.to_ascii_lowercase();
    if lower.starts_with("0x") || lower.starts_with("0b") || lower.starts_with("0o") {
        return None;
    }
    let text = code.replace('_', "");
    if !text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
    {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    value.is_finite().then_some(Constant::Float(value))
}

/// A Go integer literal's value (decimal, `0x`, `0o`, `0b`, a leading-zero octal, `_`s).
fn integer_literal(code: &str) -> Option<i128> {
    let text = code.replace('_', "");
    let lower = text.to_ascii_lowercase();
    let (digits, radix) = if let Some(d) = lower.strip_prefix("0x") {
        (d.to_owned(), 16)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (d.to_owned(), 2)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (d.to_owned(), 8)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (lower[1..].to_owned(), 8)
    } else {
        (lower, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i128::from_str_radix(&digits, radix).ok()
}

/// The bytes of a string literal: interpreted (`"a\n"`) or raw (`` `a` ``, carriage returns
/// dropped as Go drops them).
fn string_literal(code: &str) -> Option<Vec<u8>> {
    if let Some(raw) = code.strip_prefix('`').and_then(|c| c.strip_suffix('`')) {
        return (!raw.contains('`')).then(|| raw.bytes().filter(|&b| b != b'\r').collect());
    }
    let inner = code.strip_prefix('"')?.strip_suffix('"')?;
    interpreted(inner, b'"')
}

/// The bytes of an interpreted literal's contents, its escapes resolved as Go resolves them;
/// `None` for an escape Go refuses (or an unescaped `quote`, or a newline).
fn interpreted(inner: &str, quote: u8) -> Option<Vec<u8>> {
    let bytes = inner.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let hex = |digits: &[u8]| -> Option<u32> {
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    while i < bytes.len() {
        let b = bytes[i];
        if b == quote || b == b'\n' {
            return None;
        }
        if b != b'\\' {
            out.push(b);
            i += 1;
            continue;
        }
        let escape = *bytes.get(i + 1)?;
        i += 2;
        match escape {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' => out.push(b'\\'),
            q if q == quote => out.push(q),
            b'x' => {
                out.push(u8::try_from(hex(bytes.get(i..i + 2)?)?).ok()?);
                i += 2;
            }
            b'0'..=b'7' => {
                let digits = std::str::from_utf8(bytes.get(i - 1..i + 2)?).ok()?;
                out.push(u8::try_from(u32::from_str_radix(digits, 8).ok()?).ok()?);
                i += 2;
            }
            b'u' | b'U' => {
                let n = if escape == b'u' { 4 } else { 8 };
                let c = char::from_u32(hex(bytes.get(i..i + n)?)?)?;
                let mut buffer = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
                i += n;
            }
            _ => return None,
        }
    }
    Some(out)
}

/// A constant as a value of `ty`, when Go would accept it there.
fn convert(constant: Constant, ty: &GoType) -> Option<GoValue> {
    match (ty, constant) {
        (GoType::Int(name), Constant::Int(n) | Constant::Rune(n)) => in_range(name, n),
        (GoType::Int(name), Constant::Float(f)) => {
            (f.fract() == 0.0 && f.abs() < 1e38).then_some(())?;
            in_range(name, f as i128)
        }
        (GoType::Float64, Constant::Int(n) | Constant::Rune(n)) => Some(GoValue::Float(n as f64))
            .filter(|v| matches!(v, GoValue::Float(f) if f.is_finite())),
        (GoType::Float64, Constant::Float(f)) => Some(GoValue::Float(f)),
        (GoType::String, Constant::Str(s)) => Some(GoValue::Str(s)),
        (GoType::Bool, Constant::Bool(b)) => Some(GoValue::Bool(b)),
        (GoType::Interface, constant) => {
            let ty = match &constant {
                Constant::Int(_) => GoType::Int("int"),
                Constant::Rune(_) => GoType::Int("int32"),
                Constant::Float(_) => GoType::Float64,
                Constant::Str(_) => GoType::String,
                Constant::Bool(_) => GoType::Bool,
            };
            let value = convert(constant, &ty)?;
            Some(GoValue::Interface(Some(Box::new((ty, value)))))
        }
        _ => None,
    }
}

fn in_range(name: &str, n: i128) -> Option<GoValue> {
    let (_, low, high) = INTEGERS.iter().find(|(n, ..)| *n == name)?;
    (*low..=*high).contains(&n).then_some(GoValue::Int(n))
}

/// `code` as a value of `ty` (an interface: the value with its dynamic type), or `None` when it
/// is not a literal this reads or Go would not accept it there.
pub(crate) fn value_of(code: &str, ty: &GoType) -> Option<GoValue> {
    let code = code.trim();
    if code == "nil" {
        return match ty {
            GoType::Interface => Some(GoValue::Interface(None)),
            GoType::Slice(_) | GoType::Map(..) => Some(GoValue::Nil),
            _ => None,
        };
    }
    if let Some(constant) = constant(code) {
        return convert(constant, ty);
    }
    // A composite literal: `T{..}`, or `{..}` where the type is known (elided).
    let (literal_type, body) = if code.starts_with('{') {
        (None, code)
    } else {
        let (literal_type, rest) = parse_type(code)?;
        (Some(literal_type), rest.trim_start())
    };
    if body.starts_with('(') {
        // A conversion of a constant to a basic type: `float64(3)`.
        let literal_type = literal_type?;
        let blanked = blank(body);
        if closing(&blanked, 0) != Some(body.len() - 1) {
            return None;
        }
        let inner = body[1..body.len() - 1].trim();
        let value = match literal_type {
            GoType::Int(_) | GoType::Float64 | GoType::String | GoType::Bool => {
                convert(constant(inner)?, &literal_type)?
            }
            GoType::Slice(_) | GoType::Map(..) if inner == "nil" => GoValue::Nil,
            _ => return None,
        };
        return wrap(literal_type, value, ty);
    }
    if !body.starts_with('{') || closing(&blank(body), 0) != Some(body.len() - 1) {
        return None;
    }
    let literal_type = match (literal_type, ty) {
        (Some(t), _) => t,
        (None, GoType::Interface) => return None,
        (None, t) => t.clone(),
    };
    let inner = &body[1..body.len() - 1];
    let parts: Vec<&str> = split_top_level(inner, b',')
        .into_iter()
        .map(|(s, e)| &inner[s..e])
        .filter(|p| !p.is_empty())
        .collect();
    let (value, literal_type) = match &literal_type {
        GoType::Slice(element) => (
            GoValue::List(
                parts
                    .iter()
                    .map(|p| element_value(p, element))
                    .collect::<Option<_>>()?,
            ),
            literal_type.clone(),
        ),
        GoType::Array(n, element) => {
            let mut items: Vec<GoValue> = parts
                .iter()
                .map(|p| element_value(p, element))
                .collect::<Option<_>>()?;
            let n = if *n == usize::MAX { items.len() } else { *n };
            if items.len() > n {
                return None;
            }
            items.resize(n, element.zero());
            (GoValue::List(items), GoType::Array(n, element.clone()))
        }
        GoType::Map(key, value) => {
            let mut pairs = Vec::with_capacity(parts.len());
            for part in &parts {
                let colon = split_top_level(part, b':');
                let [(ks, ke), (vs, ve)] = colon[..] else {
                    return None;
                };
                let k = element_value(&part[ks..ke], key)?;
                if pairs.iter().any(|(other, _)| *other == k) {
                    // Duplicate constant keys do not compile.
                    return None;
                }
                pairs.push((k, element_value(&part[vs..ve], value)?));
            }
            (GoValue::Map(pairs), literal_type.clone())
        }
        _ => return None,
    };
    wrap(literal_type, value, ty)
}

/// An element of a composite literal: keyed elements (`0: x` in a slice) are not read.
fn element_value(code: &str, ty: &GoType) -> Option<GoValue> {
    if split_top_level(code, b':').len() != 1 {
        return None;
    }
    value_of(code, ty)
}

/// A value of `literal_type` where `ty` is expected: itself when the types are the same, in an
/// interface when `ty` is one, else `None` (Go would not compile the assignment).
fn wrap(literal_type: GoType, value: GoValue, ty: &GoType) -> Option<GoValue> {
    match ty {
        GoType::Interface if literal_type != GoType::Interface => {
            Some(GoValue::Interface(Some(Box::new((literal_type, value)))))
        }
        _ if &literal_type == ty => Some(value),
        _ => None,
    }
}

/// The typed plain-data form of a value of `ty` (see the module's documentation).
pub(crate) fn typed_json(ty: &GoType, value: &GoValue) -> Value {
    match value {
        GoValue::Int(n) => i64::try_from(*n)
            .map(Value::from)
            .unwrap_or_else(|_| Value::from(u64::try_from(*n).unwrap_or_default())),
        GoValue::Float(f) => json!(f),
        GoValue::Str(bytes) => string_json(bytes),
        GoValue::Bool(b) => Value::Bool(*b),
        GoValue::Nil => Value::Null,
        GoValue::List(items) => {
            let element = match ty {
                GoType::Slice(e) | GoType::Array(_, e) => e.as_ref(),
                _ => &GoType::Interface,
            };
            Value::Array(items.iter().map(|i| typed_json(element, i)).collect())
        }
        GoValue::Map(pairs) => {
            let (k, v) = match ty {
                GoType::Map(k, v) => (k.as_ref(), v.as_ref()),
                _ => (&GoType::Interface, &GoType::Interface),
            };
            let pairs: Vec<Value> = pairs
                .iter()
                .map(|(key, value)| json!([typed_json(k, key), typed_json(v, value)]))
                .collect();
            json!({ "$dict": pairs })
        }
        GoValue::Interface(None) => Value::Null,
        GoValue::Interface(Some(inner)) => {
            let (ty, value) = inner.as_ref();
            json!({ "$go": [ty.reflect_name(), typed_json(ty, value)] })
        }
    }
}

/// A Go string as plain data: the text when it is UTF-8, else its bytes in hexadecimal.
pub(crate) fn string_json(bytes: &[u8]) -> Value {
    match std::str::from_utf8(bytes) {
        Ok(text) => Value::String(text.to_owned()),
        Err(_) => {
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            json!({ "$gobytes": hex })
        }
    }
}

/// What `fmt.Sprintf("%v", x)` writes for `value` of type `ty`; `None` for a map whose keys
/// fmt would order by their dynamic types (interface keys of several types), an order this
/// does not reproduce.
pub(crate) fn sprint_v(ty: &GoType, value: &GoValue) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    write_v(&mut out, ty, value)?;
    Some(out)
}

fn write_v(out: &mut Vec<u8>, ty: &GoType, value: &GoValue) -> Option<()> {
    match value {
        GoValue::Int(n) => out.extend_from_slice(n.to_string().as_bytes()),
        GoValue::Float(f) => out.extend_from_slice(format_g(*f).as_bytes()),
        GoValue::Str(bytes) => out.extend_from_slice(bytes),
        GoValue::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        GoValue::Nil => match ty {
            GoType::Map(..) => out.extend_from_slice(b"map[]"),
            _ => out.extend_from_slice(b"[]"),
        },
        GoValue::Interface(None) => out.extend_from_slice(b"<nil>"),
        GoValue::Interface(Some(inner)) => write_v(out, &inner.0, &inner.1)?,
        GoValue::List(items) => {
            let element = match ty {
                GoType::Slice(e) | GoType::Array(_, e) => e.as_ref(),
                _ => return None,
            };
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                write_v(out, element, item)?;
            }
            out.push(b']');
        }
        GoValue::Map(pairs) => {
            let GoType::Map(k, v) = ty else { return None };
            let mut sorted: Vec<&(GoValue, GoValue)> = pairs.iter().collect();
            let keys: Vec<(GoType, GoValue)> = pairs
                .iter()
                .map(|(key, _)| dynamic(k, key))
                .collect::<Option<_>>()?;
            if keys.windows(2).any(|w| w[0].0 != w[1].0) {
                return None;
            }
            sorted.sort_by(|a, b| key_order(&a.0, &b.0));
            out.extend_from_slice(b"map[");
            for (i, (key, value)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                write_v(out, k, key)?;
                out.push(b':');
                write_v(out, v, value)?;
            }
            out.push(b']');
        }
    }
    Some(())
}

/// A map key's dynamic type and value (through an interface); `None` for a nil interface key.
fn dynamic(ty: &GoType, value: &GoValue) -> Option<(GoType, GoValue)> {
    match value {
        GoValue::Interface(Some(inner)) => Some((inner.0.clone(), inner.1.clone())),
        GoValue::Interface(None) => None,
        other => Some((ty.clone(), other.clone())),
    }
}

/// The order in which fmt prints map keys of one type (internal/fmtsort): numbers by value,
/// strings by bytes, false before true.
fn key_order(a: &GoValue, b: &GoValue) -> std::cmp::Ordering {
    let unwrap = |v: &GoValue| match v {
        GoValue::Interface(Some(inner)) => inner.1.clone(),
        other => other.clone(),
    };
    match (unwrap(a), unwrap(b)) {
        (GoValue::Int(x), GoValue::Int(y)) => x.cmp(&y),
        (GoValue::Float(x), GoValue::Float(y)) => x.total_cmp(&y),
        (GoValue::Str(x), GoValue::Str(y)) => x.cmp(&y),
        (GoValue::Bool(x), GoValue::Bool(y)) => x.cmp(&y),
        _ => std::cmp::Ordering::Equal,
    }
}

/// A float64 as `%v` writes it: strconv's `'g'` format with the shortest digits, which uses the
/// exponent form for decimal exponents below -4 or from 6 (shortest output decides with
/// precision 6), with at least two exponent digits.
pub(crate) fn format_g(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    // Rust's `{:e}` writes the shortest digits that read back to the same float, as Go's does.
    let scientific = format!("{:e}", f.abs());
    let (mantissa, exponent) = scientific.split_once('e').expect("`{:e}` has an exponent");
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exponent: i32 = exponent.parse().expect("`{:e}`'s exponent is an integer");
    let sign = if f < 0.0 { "-" } else { "" };
    let nd = digits.len() as i32;
    // The decimal point is after `dp` digits.
    let dp = exponent + 1;
    if !(-4..6).contains(&exponent) {
        let mut text = digits[..1].to_owned();
        if nd > 1 {
            text.push('.');
            text.push_str(&digits[1..]);
        }
        let (esign, eabs) = if exponent < 0 {
            ('-', -exponent)
        } else {
            ('+', exponent)
        };
        return format!("{sign}{text}e{esign}{eabs:02}");
    }
    let text = if dp <= 0 {
        format!("0.{}{digits}", "0".repeat((-dp) as usize))
    } else if dp >= nd {
        format!("{digits}{}", "0".repeat((dp - nd) as usize))
    } else {
        format!("{}.{}", &digits[..dp as usize], &digits[dp as usize..])
    };
    format!("{sign}{text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(code: &str) -> String {
        let value = value_of(code, &GoType::Interface).unwrap_or_else(|| panic!("{code}"));
        String::from_utf8(sprint_v(&GoType::Interface, &value).unwrap()).unwrap()
    }

    fn typed(code: &str) -> Value {
        typed_json(
            &GoType::Interface,
            &value_of(code, &GoType::Interface).unwrap(),
        )
    }

    #[test]
    fn percent_v_is_gos() {
        // Each pair checked against `fmt.Sprintf("%v", x)` of Go 1.27 on the same literal.
        for (code, expected) in [
            ("3", "3"),
            ("-17", "-17"),
            ("3.0", "3"),
            ("2.5", "2.5"),
            ("0.1", "0.1"),
            ("1e6", "1e+06"),
            ("123456.0", "123456"),
            ("1234567.0", "1.234567e+06"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("-0.0", "0"),
            ("1e100", "1e+100"),
            ("0.3333333333333333", "0.3333333333333333"),
            ("'a'", "97"),
            ("\"a b\"", "a b"),
            ("`x\\n`", "x\\n"),
            ("\"\\u00e9\\x41\"", "éA"),
            ("true", "true"),
            ("nil", "<nil>"),
            ("[]int{1, -2, 3}", "[1 -2 3]"),
            ("[]int{}", "[]"),
            ("[]float64{1, 2.5, 1e21}", "[1 2.5 1e+21]"),
            ("[]string{\"a b\", \"c\"}", "[a b c]"),
            ("[][]int{[]int{1, 2}, {3}, {}}", "[[1 2] [3] []]"),
            (
                "[]interface{}{1, \"x\", 2.0, nil, true}",
                "[1 x 2 <nil> true]",
            ),
            ("[2]int{7}", "[7 0]"),
            ("[...]string{\"p\", \"q\"}", "[p q]"),
            ("map[string]int{\"b\": 2, \"a\": 1}", "map[a:1 b:2]"),
            (
                "map[int]string{10: \"x\", -1: \"y\", 2: \"z\"}",
                "map[-1:y 2:z 10:x]",
            ),
            ("map[string][]int{}", "map[]"),
            ("float64(3)", "3"),
            ("[]int(nil)", "[]"),
            ("1e20", "1e+20"),
            ("123456789.0", "1.23456789e+08"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("100000.0", "100000"),
            ("999999.0", "999999"),
            ("0.000123", "0.000123"),
        ] {
            assert_eq!(v(code), expected, "{code}");
        }
    }

    #[test]
    fn what_go_would_not_compile_or_this_cannot_read_is_not_a_literal() {
        for code in [
            "[]int{1.5}",
            "x",
            "f(1)",
            "[]int{x}",
            "[1]int{1, 2}",
            "map[string]int{\"a\": 1, \"a\": 2}",
            "[]float32{1}",
            "struct{}{}",
            "[]int{0: 1}",
            "\"a\" + \"b\"",
            "'ab'",
            "\"\\q\"",
            "int8(300)",
            "1i",
            "{1, 2}",
        ] {
            assert_eq!(value_of(code, &GoType::Interface), None, "{code}");
        }
        assert_eq!(
            value_of("[]int{2.0, 'a'}", &GoType::Interface)
                .map(|v| typed_json(&GoType::Interface, &v)),
            Some(json!({"$go": ["[]int", [2, 97]]}))
        );
    }

    #[test]
    fn typed_forms_carry_what_deep_equal_compares() {
        assert_eq!(typed("3"), json!({"$go": ["int", 3]}));
        assert_eq!(typed("3.0"), json!({"$go": ["float64", 3.0]}));
        assert_eq!(typed("nil"), Value::Null);
        assert_eq!(typed("[]int(nil)"), json!({"$go": ["[]int", null]}));
        assert_eq!(typed("[]int{}"), json!({"$go": ["[]int", []]}));
        assert_eq!(
            typed("[2]interface{}{nil, 1}"),
            json!({"$go": ["[2]interface {}", [null, {"$go": ["int", 1]}]]})
        );
        assert_eq!(
            typed("map[rune]int{'a': 2}"),
            json!({"$go": ["map[int32]int", {"$dict": [[97, 2]]}]})
        );
        assert_eq!(
            typed("[][2]int{{0, 0}, {1, 4}}"),
            json!({"$go": ["[][2]int", [[0, 0], [1, 4]]]})
        );
        assert_eq!(
            typed("\"\\xff\""),
            json!({"$go": ["string", {"$gobytes": "ff"}]})
        );
        assert_eq!(
            typed("uint64(18446744073709551615)"),
            json!({"$go": ["uint64", 18446744073709551615u64]})
        );
    }

    #[test]
    fn blanking_keeps_positions_and_hides_literals() {
        let code = "f(\"a,(b\", `c}`, 'x', /* ) */ 1) // }\n";
        let blanked = blank(code);
        assert_eq!(blanked.len(), code.len());
        assert_eq!(closing(&blanked, 1), Some(code.find(" 1)").unwrap() + 2));
        assert_eq!(split_top_level("1, \"a,b\", {2, 3},", b',').len(), 3);
    }
}
