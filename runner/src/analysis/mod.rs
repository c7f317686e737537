//! Static quality metrics of source code ([`CodeMetrics`]) from tree-sitter's concrete syntax
//! trees, for Python, Rust, C, C++ and JavaScript (Java: `None`, no grammar is bundled).
//!
//! [`analyze`] parses a program once and walks the tree twice: a line-and-statement pass and a
//! complexity pass. The grammars are error tolerant, so a program with syntax errors still gets
//! best-effort metrics from the tree around the `ERROR` nodes; `analyze` gives up (`None`) only
//! when the parser returns no tree or when more than half of the source's bytes lie inside
//! `ERROR` nodes. Each language's file (`python.rs`, `rust.rs`, `c.rs` for C and C++,
//! `javascript.rs`) only says which node kinds are what ([`Grammar`]); every definition below is
//! implemented once, here.
//!
//! # Lines
//!
//! - **CLOC**: physical lines (`str::lines`: a final line without a newline counts, an empty file
//!   has 0).
//! - **LOC**: lines on which at least one non-comment token lies. A token spanning lines (a
//!   multi-line string, including its empty lines) makes all of its lines code lines. Preprocessor
//!   lines, braces, `else:` and decorators are code lines.
//! - **CL**: lines on which a comment lies (every line of a block comment). A line with code and a
//!   trailing comment counts in both LOC and CL. In Python, a *docstring* (an expression statement
//!   made of a string literal alone, anywhere) is treated as a comment: its lines are CL, not LOC,
//!   and it is not a statement.
//! - **LLOC**: lines on which at least one statement *starts*.
//!
//! # Statements (NOS)
//!
//! The grammar's statements, simple and compound, declarations included (`def`/`fn`/function
//! definitions, `class`, `struct`, `use`/`import`, local and global variable declarations,
//! `pass`), each counted once. Not statements: blocks, clauses (`elif`, `else`, `except`,
//! `finally`, `case` labels, match arms), empty statements (`;`), preprocessor directives,
//! comments and docstrings, struct/class fields, and the `if` of an `else if` (a chain is one
//! statement, as Python's `elif` is). Rust: the tail expression of a block and a match arm's
//! non-block value are statements (they are what the block or arm does); a closure's or lambda's
//! expression body is not, in any language. C/C++ labels are not statements (the statement they
//! label is); a C++ `template` counts only through the declaration it wraps; a JavaScript
//! `export` counts only when it wraps no declaration.
//!
//! # Functions
//!
//! Functions are function and method definitions and anonymous functions: Python `def` and
//! `lambda` (`<lambda>`), Rust `fn` and closures (`<closure>`), C/C++ function definitions (the
//! declarator's text, `A::f` for a qualified one) and C++ lambdas (`<lambda>`), JavaScript
//! function declarations and expressions, methods and arrow functions (named after the variable
//! they initialise, as JavaScript names them, else `<anonymous>`). Each is one entry of
//! `functions`, in source order, and owns the code of its body *except* the bodies of functions
//! nested in it (which are entries of their own). Its `loc` is the code lines of its whole
//! definition (signature and nested functions included), `nos` its own statements (the
//! definition of a nested function is one of them; the nested body's are not).
//!
//! # Cyclomatic complexity
//!
//! Per function: 1 + decision points in its own code. Decision points: `if` and every `elif` /
//! `else if` (not `else`); loops (`for`, `while`, `do`, Rust `loop`, C++ range `for`,
//! JavaScript `for in/of`; a Python loop's `else` adds nothing); each `case` of a switch and
//! each match arm except the default one (`default:`, a `_` pattern without guard; guards add
//! nothing); `catch` / `except` clauses; each `&&`, `||`, `and`, `or` operator (not `??`, not
//! `not`); conditional expressions (`?:`, Python's `x if c else y`); Python comprehension `for`
//! and `if` clauses (as radon counts them). Not decision points: Rust's `?`, `try`, `finally`,
//! `with`, `assert`, `break`, `return`.
//!
//! Program: the sum over all functions, plus the decision points of top-level code (code in no
//! function), plus 1 when the program has no function at all (the top-level code is then the
//! program's only component). So a program that only defines one function has that function's
//! complexity.
//!
//! # Cognitive complexity
//!
//! SonarSource's white paper (G. Ann Campbell, 2018):
//! - +1 plus the current nesting level for `if`, conditional expressions, `switch`/`match`
//!   (once for the whole statement, not per case), loops, and `catch`/`except`;
//! - +1 without nesting for `else if`/`elif` and `else` (an `else if` chain is one level deep);
//! - +1 for each sequence of like boolean operators (`a && b && c` is 1, `a && b || c` is 2);
//!   parentheses do not break a sequence, a negation or any other expression does;
//! - +1 for `goto` and for `break`/`continue` to a label;
//! - +1 for each recursive call: a call to the enclosing named function by its bare name, or as
//!   a method of `self`/`cls`/`this`/`Self`;
//! - the nesting level rises by one in the bodies of `if`/`else if`/`else`, loops, `switch` /
//!   `match`, `catch`/`except`, and in the branches of a conditional expression (not in its
//!   condition, nor in the condition or header of any structure); `try` and `finally` do not
//!   nest;
//! - a function nested in another function (lambdas and closures included) starts at the nesting
//!   level where it is defined plus one; a function not nested in another one (top-level, a
//!   method, a callback at top level) starts at 0.
//!
//! Per function: the increments in its own code (a nested function's increments are its own).
//! Program: the sum over functions plus top-level code's increments, which is SonarSource's total
//! for a file.
//!
//! # Maximum nesting
//!
//! Per function: the deepest nesting of control structures in its own code: each `if` chain
//! (`if` with all its `else if`s and `else`), loop, `switch`/`match` and `catch`/`except` handler
//! opens one level (a function with one `if` has 1; straight-line code 0). `try`, conditional
//! expressions and nested functions open none, and a nested function counts from 0 in its own
//! entry. Program: the maximum over functions and top-level code.

mod c;
mod javascript;
mod python;
mod rust;

use std::cell::RefCell;
use std::collections::HashMap;
use tree_sitter::{Node, Parser, Tree};
use wasmeval_core::code_metrics::{CodeMetrics, FunctionMetrics, NotAnalysed};
use wasmeval_core::Language;

/// The largest source analysed: parsing and walking grow with the source (a 6 MB program took
/// 1 GB and 14 s), and no real sample comes near it.
pub const MAX_ANALYSED_BYTES: usize = 256 << 10;

/// The metrics of `source` written in `language`; `None` for Java (no grammar), a source over
/// [`MAX_ANALYSED_BYTES`], or when the source is mostly unparseable (see the module
/// documentation). [`analyze_or_why`] says which.
pub fn analyze(language: Language, source: &str) -> Option<CodeMetrics> {
    analyze_or_why(language, source).ok()
}

/// The metrics of `source` written in `language`, or why there are none.
pub fn analyze_or_why(language: Language, source: &str) -> Result<CodeMetrics, NotAnalysed> {
    if source.len() > MAX_ANALYSED_BYTES {
        return Err(NotAnalysed::TooLong);
    }
    let grammar: &dyn Grammar = match language {
        Language::Python => &python::Python,
        Language::Rust => &rust::Rust,
        Language::C => &c::C,
        Language::Cpp => &c::CPP,
        Language::Javascript => &javascript::JAVASCRIPT,
        Language::Typescript => &javascript::TYPESCRIPT,
        // No grammar in the workspace for these (tree-sitter-go and tree-sitter-ruby not added yet;
        // no tree-sitter grammar for Lua either).
        Language::Java | Language::Go | Language::Ruby | Language::Lua => {
            return Err(NotAnalysed::Language)
        }
    };
    let tree = parse(language, grammar, source).ok_or(NotAnalysed::SyntaxErrors)?;
    let root = tree.root_node();
    // The walks below recurse once per syntax level; a hostile sample nested deeper than any real
    // program (`((((...))))` a million deep) must not overflow the host's stack.
    if syntax_depth(&tree) > MAX_SYNTAX_DEPTH {
        return Err(NotAnalysed::TooDeep);
    }
    if root.has_error() && error_bytes(root) * 2 > source.len() {
        return Err(NotAnalysed::SyntaxErrors);
    }
    Ok(Analyzer::new(grammar, source).run(root))
}

thread_local! {
    static PARSERS: RefCell<HashMap<Language, Parser>> = RefCell::new(HashMap::new());
}

fn parse(language: Language, grammar: &dyn Grammar, source: &str) -> Option<Tree> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = match parsers.entry(language) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let mut parser = Parser::new();
                parser.set_language(&grammar.language()).ok()?;
                e.insert(parser)
            }
        };
        parser.parse(source, None)
    })
}

/// Bytes inside outermost `ERROR` nodes.
/// Deepest syntax tree [`analyze`] walks; beyond it a sample is not analysable. Real programs
/// stay far below (nesting 100 levels deep is already unreadable); the workers' 32 MiB stacks
/// hold this many recursive frames with room to spare.
const MAX_SYNTAX_DEPTH: usize = 2_000;

/// The depth of the tree, found without recursion.
fn syntax_depth(tree: &Tree) -> usize {
    let mut cursor = tree.walk();
    let (mut depth, mut deepest) = (0usize, 0usize);
    loop {
        deepest = deepest.max(depth);
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return deepest;
            }
            depth -= 1;
        }
    }
}

fn error_bytes(node: Node) -> usize {
    if node.is_error() {
        return node.end_byte() - node.start_byte();
    }
    if !node.has_error() {
        return 0;
    }
    children(node).into_iter().map(error_bytes).sum()
}

/// The branches of an `if` / `else if` / `else` chain of nodes of `if_kind` with `condition`,
/// `consequence` and `alternative` fields (C, C++, JavaScript, Rust): an `else` that holds just
/// another `if_kind` node (comments aside) continues the chain as an `else if`.
pub(crate) fn if_chain<'t>(
    node: Node<'t>,
    if_kind: &str,
    is_comment: fn(&str) -> bool,
) -> Construct<'t> {
    let mut branches = Vec::new();
    let mut current = node;
    let mut kind = BranchKind::If;
    loop {
        let field = |name: &str| current.child_by_field_name(name).into_iter().collect();
        branches.push(Branch {
            kind,
            outer: field("condition"),
            inner: field("consequence"),
        });
        let Some(alternative) = current.child_by_field_name("alternative") else {
            break;
        };
        let body = named_children(alternative)
            .into_iter()
            .find(|c| !is_comment(c.kind()));
        match body {
            Some(next) if next.kind() == if_kind => {
                current = next;
                kind = BranchKind::ElseIf;
            }
            body => {
                branches.push(Branch {
                    kind: BranchKind::Else,
                    outer: Vec::new(),
                    inner: body.into_iter().collect(),
                });
                break;
            }
        }
    }
    Construct::If(branches)
}

pub(crate) fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

pub(crate) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

pub(crate) fn text<'s>(node: Node, source: &'s str) -> &'s str {
    source.get(node.byte_range()).unwrap_or("")
}

/// The last component of a possibly qualified name (`A::f` → `f`).
fn base_name(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name).trim()
}

/// What a language's node kinds mean to the metrics.
pub(crate) trait Grammar: Sync {
    /// The tree-sitter grammar.
    fn language(&self) -> tree_sitter::Language;
    /// A comment (or, in Python, a docstring): lines are CL, not code, not a statement.
    fn is_comment(&self, node: Node, source: &str) -> bool;
    /// A statement for NOS and LLOC.
    fn is_statement(&self, node: Node, source: &str) -> bool;
    /// A function-like node, with its name.
    fn function_name(&self, node: Node, source: &str) -> Option<String>;
    /// What the node is for the complexity metrics.
    fn construct<'t>(&self, node: Node<'t>, source: &str) -> Construct<'t>;
}

/// One branch of an `if` chain.
pub(crate) struct Branch<'t> {
    pub kind: BranchKind,
    /// Parts at the chain's own nesting level (conditions).
    pub outer: Vec<Node<'t>>,
    /// Parts one level deeper (bodies).
    pub inner: Vec<Node<'t>>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum BranchKind {
    If,
    ElseIf,
    Else,
}

/// The role of a node in the complexity metrics.
pub(crate) enum Construct<'t> {
    /// Nothing: its children are visited at the same level.
    Plain,
    /// An `if` chain, as a list of branches (the head first).
    If(Vec<Branch<'t>>),
    /// A loop; the listed children are its body (nested).
    Loop(Vec<Node<'t>>),
    /// A `switch` or `match`; the listed children hold the cases (nested).
    Switch(Vec<Node<'t>>),
    /// A `case` or match arm.
    Case { default: bool },
    /// A `catch` or `except` clause; the listed children are its body (nested).
    Catch(Vec<Node<'t>>),
    /// A conditional expression; the listed children are its branches (nested).
    Ternary(Vec<Node<'t>>),
    /// A decision point for cyclomatic complexity only (comprehension clauses).
    Decision,
    /// A binary `&&`/`||`/`and`/`or` node; `op` is `&&` or `||`.
    BoolOp(&'static str),
    /// Parentheses: do not break a sequence of boolean operators.
    Paren,
    /// `goto`, or `break`/`continue` to a label.
    Jump,
    /// A call; the name it calls when that can be a recursive call.
    Call(Option<String>),
}

#[derive(Default, Clone, Copy)]
struct Scope {
    decisions: u32,
    cognitive: u32,
    max_depth: u32,
}

struct Analyzer<'g, 's> {
    grammar: &'g dyn Grammar,
    source: &'s str,
    code_rows: Vec<bool>,
    comment_rows: Vec<bool>,
    statement_rows: Vec<bool>,
    nos: u32,
    functions: Vec<FunctionMetrics>,
    function_rows: Vec<(usize, usize)>,
    function_index: HashMap<usize, usize>,
    /// Index 0: top-level code; i + 1: function i.
    scopes: Vec<Scope>,
    current: Option<usize>,
}

impl<'g, 's> Analyzer<'g, 's> {
    fn new(grammar: &'g dyn Grammar, source: &'s str) -> Self {
        let rows = source.lines().count().max(1) + 1;
        Analyzer {
            grammar,
            source,
            code_rows: vec![false; rows],
            comment_rows: vec![false; rows],
            statement_rows: vec![false; rows],
            nos: 0,
            functions: Vec::new(),
            function_rows: Vec::new(),
            function_index: HashMap::new(),
            scopes: vec![Scope::default()],
            current: None,
        }
    }

    fn run(mut self, root: Node) -> CodeMetrics {
        self.lines_and_statements(root, false);
        self.complexity(root, 0, 0, false);
        let count = |rows: &[bool]| rows.iter().filter(|r| **r).count() as u32;
        for (i, f) in self.functions.iter_mut().enumerate() {
            let (first, last) = self.function_rows[i];
            f.loc = count(&self.code_rows[first..=last.min(self.code_rows.len() - 1)]);
            let scope = self.scopes[i + 1];
            f.cyclomatic = 1 + scope.decisions;
            f.cognitive = scope.cognitive;
            f.max_nesting = scope.max_depth;
        }
        let top = self.scopes[0];
        let cyclomatic = self.functions.iter().map(|f| f.cyclomatic).sum::<u32>()
            + top.decisions
            + u32::from(self.functions.is_empty());
        CodeMetrics {
            loc: count(&self.code_rows),
            lloc: count(&self.statement_rows),
            cloc: self.source.lines().count() as u32,
            cl: count(&self.comment_rows),
            nos: self.nos,
            cyclomatic,
            cognitive: top.cognitive + self.functions.iter().map(|f| f.cognitive).sum::<u32>(),
            max_nesting: self
                .functions
                .iter()
                .map(|f| f.max_nesting)
                .chain([top.max_depth])
                .max()
                .unwrap_or(0),
            functions: self.functions,
        }
    }

    /// Rows `node` covers (a node ending at column 0 does not cover its last row).
    fn rows(node: Node) -> (usize, usize) {
        let start = node.start_position();
        let end = node.end_position();
        let last = if end.column == 0 && end.row > start.row {
            end.row - 1
        } else {
            end.row
        };
        (start.row, last)
    }

    fn mark(rows: &mut [bool], (first, last): (usize, usize)) {
        let last = last.min(rows.len() - 1);
        if first <= last {
            rows[first..=last].iter_mut().for_each(|r| *r = true);
        }
    }

    /// Pass 1: code, comment and statement lines, NOS, and the functions (source order).
    /// `in_string`: inside a string literal, whose lines are already code lines (template
    /// substitutions and f-string expressions may still hold statements' functions).
    fn lines_and_statements(&mut self, node: Node, in_string: bool) {
        if self.grammar.is_comment(node, self.source) {
            if !in_string {
                Self::mark(&mut self.comment_rows, Self::rows(node));
            }
            return;
        }
        let atomic = node.is_named() && node.kind().contains("string");
        if (node.child_count() == 0 || atomic) && !in_string && node.end_byte() > node.start_byte()
        {
            Self::mark(&mut self.code_rows, Self::rows(node));
        }
        if node.is_named() && self.grammar.is_statement(node, self.source) {
            self.nos += 1;
            let row = node.start_position().row;
            if row < self.statement_rows.len() {
                self.statement_rows[row] = true;
            }
            if let Some(f) = self.current {
                self.functions[f].nos += 1;
            }
        }
        if node.child_count() == 0 {
            return;
        }
        let saved = self.current;
        if node.is_named() {
            if let Some(name) = self.grammar.function_name(node, self.source) {
                let index = self.functions.len();
                self.functions.push(FunctionMetrics {
                    name,
                    line: node.start_position().row as u32 + 1,
                    ..FunctionMetrics::default()
                });
                self.function_rows.push(Self::rows(node));
                self.function_index.insert(node.id(), index);
                self.scopes.push(Scope::default());
                self.current = Some(index);
            }
        }
        for child in children(node) {
            self.lines_and_statements(child, in_string || atomic);
        }
        self.current = saved;
    }

    fn scope(&mut self) -> &mut Scope {
        let index = self.current.map_or(0, |f| f + 1);
        &mut self.scopes[index]
    }

    fn deepen(&mut self, depth: u32) {
        let scope = self.scope();
        scope.max_depth = scope.max_depth.max(depth);
    }

    /// Pass 2: cyclomatic, cognitive and nesting. `nest` is the cognitive nesting level, `depth`
    /// the control-structure depth, `in_bool` whether `node` continues a boolean sequence.
    fn complexity(&mut self, node: Node, nest: u32, depth: u32, in_bool: bool) {
        if self.grammar.is_comment(node, self.source) || node.child_count() == 0 {
            return;
        }
        if let Some(&index) = self.function_index.get(&node.id()) {
            let saved = self.current;
            let inner = if saved.is_some() { nest + 1 } else { 0 };
            self.current = Some(index);
            for child in children(node) {
                self.complexity(child, inner, 0, false);
            }
            self.current = saved;
            return;
        }
        let visit_all = |this: &mut Self, nested: &[Node], cog_step: u32, depth_step: u32| {
            for child in children(node) {
                if nested.iter().any(|n| n.id() == child.id()) {
                    this.complexity(child, nest + cog_step, depth + depth_step, false);
                } else {
                    this.complexity(child, nest, depth, false);
                }
            }
        };
        match self.grammar.construct(node, self.source) {
            Construct::Plain => visit_all(self, &[], 0, 0),
            Construct::If(branches) => {
                self.deepen(depth + 1);
                for branch in branches {
                    let scope = self.scope();
                    match branch.kind {
                        BranchKind::If => {
                            scope.cognitive += 1 + nest;
                            scope.decisions += 1;
                        }
                        BranchKind::ElseIf => {
                            scope.cognitive += 1;
                            scope.decisions += 1;
                        }
                        BranchKind::Else => scope.cognitive += 1,
                    }
                    for part in branch.outer {
                        self.complexity(part, nest, depth, false);
                    }
                    for part in branch.inner {
                        self.complexity(part, nest + 1, depth + 1, false);
                    }
                }
            }
            Construct::Loop(body) | Construct::Catch(body) => {
                let scope = self.scope();
                scope.cognitive += 1 + nest;
                scope.decisions += 1;
                self.deepen(depth + 1);
                visit_all(self, &body, 1, 1);
            }
            Construct::Switch(body) => {
                self.scope().cognitive += 1 + nest;
                self.deepen(depth + 1);
                visit_all(self, &body, 1, 1);
            }
            Construct::Ternary(branches) => {
                let scope = self.scope();
                scope.cognitive += 1 + nest;
                scope.decisions += 1;
                visit_all(self, &branches, 1, 0);
            }
            Construct::Case { default } => {
                if !default {
                    self.scope().decisions += 1;
                }
                visit_all(self, &[], 0, 0);
            }
            Construct::Decision => {
                self.scope().decisions += 1;
                visit_all(self, &[], 0, 0);
            }
            Construct::BoolOp(_) => {
                let mut ops = Vec::new();
                if !in_bool {
                    self.operators(node, &mut ops);
                }
                let sequences = if ops.is_empty() {
                    0
                } else {
                    1 + ops.windows(2).filter(|w| w[0] != w[1]).count() as u32
                };
                let scope = self.scope();
                scope.decisions += 1;
                scope.cognitive += sequences;
                for child in children(node) {
                    self.complexity(child, nest, depth, true);
                }
            }
            Construct::Paren => {
                for child in children(node) {
                    self.complexity(child, nest, depth, in_bool);
                }
            }
            Construct::Jump => {
                self.scope().cognitive += 1;
                visit_all(self, &[], 0, 0);
            }
            Construct::Call(name) => {
                let recursive = match (name, self.current) {
                    (Some(name), Some(f)) => {
                        let own = &self.functions[f].name;
                        !own.starts_with('<') && base_name(own) == base_name(&name)
                    }
                    _ => false,
                };
                if recursive {
                    self.scope().cognitive += 1;
                }
                visit_all(self, &[], 0, 0);
            }
        }
    }

    /// The boolean operators of the sequence rooted at `node`, in source order.
    fn operators(&self, node: Node, ops: &mut Vec<&'static str>) {
        match self.grammar.construct(node, self.source) {
            Construct::BoolOp(op) => {
                let mut pushed = false;
                for child in children(node) {
                    if !pushed && !child.is_named() && is_bool_token(text(child, self.source)) {
                        ops.push(op);
                        pushed = true;
                    } else {
                        self.operators(child, ops);
                    }
                }
            }
            Construct::Paren => {
                for child in children(node) {
                    self.operators(child, ops);
                }
            }
            _ => {}
        }
    }
}

fn is_bool_token(token: &str) -> bool {
    matches!(token, "&&" | "||" | "and" | "or")
}

/// `&&` or `||` for a boolean operator's token, `None` for any other.
pub(crate) fn bool_op(token: &str) -> Option<&'static str> {
    match token {
        "&&" | "and" => Some("&&"),
        "||" | "or" => Some("||"),
        _ => None,
    }
}

/// The operator token of a binary node (its `operator` field, or its first anonymous child).
pub(crate) fn operator_token<'s>(node: Node, source: &'s str) -> &'s str {
    if let Some(op) = node.child_by_field_name("operator") {
        return text(op, source);
    }
    children(node)
        .into_iter()
        .find(|c| !c.is_named())
        .map_or("", |c| text(c, source))
}

/// Kinds of function definitions' name declarators in C and C++: follows `declarator` fields down
/// to the function declarator's name.
pub(crate) fn declarator_name(node: Node, source: &str) -> Option<String> {
    let mut current = node.child_by_field_name("declarator")?;
    loop {
        if current.kind() == "function_declarator" {
            let name = current.child_by_field_name("declarator")?;
            return Some(text(name, source).to_owned());
        }
        current = current.child_by_field_name("declarator")?;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_hostile_nesting_depth_is_refused_not_a_stack_overflow() {
        let deep = format!("x = {}1{}\n", "(".repeat(200_000), ")".repeat(200_000));
        assert_eq!(analyze(Language::Python, &deep), None);
        let fine = format!("x = {}1{}\n", "(".repeat(50), ")".repeat(50));
        assert!(analyze(Language::Python, &fine).is_some());
    }

    use super::*;
    use std::path::{Path, PathBuf};

    /// Every `tests/fixtures/analysis/<language>/NN_name.<ext>` against its hand-computed
    /// `NN_name.expected.json`. `BLESS=1` rewrites the expected files from the code (check every
    /// change by hand before committing it).
    #[test]
    fn fixtures_match_hand_computed_metrics() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/analysis");
        let bless = std::env::var_os("BLESS").is_some_and(|v| v == "1");
        let mut failures = Vec::new();
        let mut checked = 0;
        for (folder, language) in [
            ("python", Language::Python),
            ("rust", Language::Rust),
            ("c", Language::C),
            ("cpp", Language::Cpp),
            ("javascript", Language::Javascript),
        ] {
            let mut sources: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
                .unwrap_or_else(|e| panic!("{folder}: {e}"))
                .map(|entry| entry.unwrap().path())
                .filter(|path| !path.to_string_lossy().ends_with(".json"))
                .collect();
            sources.sort();
            if sources.len() < 10 {
                failures.push(format!(
                    "{folder}: {} fixtures, fewer than 10",
                    sources.len()
                ));
            }
            for source_path in sources {
                let source = std::fs::read_to_string(&source_path).unwrap();
                let expected_path = source_path.with_extension("expected.json");
                let actual = analyze(language, &source)
                    .unwrap_or_else(|| panic!("{}: not analysed", source_path.display()));
                if bless {
                    let json = serde_json::to_string_pretty(&actual).unwrap() + "\n";
                    std::fs::write(&expected_path, json).unwrap();
                    continue;
                }
                let expected: CodeMetrics = serde_json::from_str(
                    &std::fs::read_to_string(&expected_path)
                        .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display())),
                )
                .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
                checked += 1;
                if actual != expected {
                    failures.push(format!(
                        "{}:\n  expected {}\n  actual   {}",
                        source_path.display(),
                        serde_json::to_string(&expected).unwrap(),
                        serde_json::to_string(&actual).unwrap()
                    ));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(bless || checked >= 50);
    }

    #[test]
    fn java_and_garbage_are_not_analysed() {
        assert_eq!(analyze(Language::Java, "class A {}"), None);
        assert_eq!(analyze(Language::C, "@@@@ #### $$$$ @@@@ ))))"), None);
        // And say why (issue 20 item 9: reports count the samples left out, by reason).
        assert_eq!(
            analyze_or_why(Language::Java, "class A {}"),
            Err(NotAnalysed::Language)
        );
        assert_eq!(
            analyze_or_why(Language::C, "@@@@ #### $$$$ @@@@ ))))"),
            Err(NotAnalysed::SyntaxErrors)
        );
        let long = "x = 1\n".repeat(MAX_ANALYSED_BYTES / 6 + 1);
        assert_eq!(
            analyze_or_why(Language::Python, &long),
            Err(NotAnalysed::TooLong)
        );
        // Errors in a small part still give metrics.
        let metrics = analyze(Language::Python, "def f(x):\n    return x +\n").unwrap();
        assert_eq!(metrics.functions.len(), 1);
    }

    #[test]
    fn empty_source() {
        let metrics = analyze(Language::Python, "").unwrap();
        assert_eq!((metrics.loc, metrics.cloc, metrics.cyclomatic), (0, 0, 1));
    }

    /// TypeScript's metrics are JavaScript's for the same code: types add no statement, branch or
    /// line of logic, while `enum` and `namespace` (which run) count as statements.
    #[test]
    fn typescript_counts_as_the_same_javascript_without_its_types() {
        let typed = "interface P {\n  x: number;\n}\ntype N = number;\n\
                     function f(xs: number[], limit: N): number {\n  let total: number = 0;\n\
                     for (const x of xs) {\n    if (x > limit && x % 2 === 0) total += x as number;\n  }\n\
                     return total > 0 ? total : -1;\n}\n";
        let untyped = "\n\n\n\n\
                       function f(xs, limit) {\n  let total = 0;\n\
                       for (const x of xs) {\n    if (x > limit && x % 2 === 0) total += x;\n  }\n\
                       return total > 0 ? total : -1;\n}\n";
        let ts = analyze(Language::Typescript, typed).unwrap();
        let js = analyze(Language::Javascript, untyped).unwrap();
        assert_eq!(
            (ts.nos, ts.lloc, ts.cyclomatic, ts.cognitive, ts.max_nesting),
            (js.nos, js.lloc, js.cyclomatic, js.cognitive, js.max_nesting)
        );
        // for, if, &&, ?: ; the function, let, for, if, `+=` and return.
        assert_eq!((ts.cyclomatic, ts.nos), (5, 6));
        let with_enum =
            analyze(Language::Typescript, "enum C {\n  A,\n}\nnamespace N {}\n").unwrap();
        assert_eq!(with_enum.nos, 2);
    }
}
