//! Python (tree-sitter-python): node kinds for the metrics of the module documentation.
//!
//! Docstrings (any expression statement that is a string literal alone) are comments. `elif` is
//! an `else if`; a loop's `else` clause is part of the loop's body (nested, no increment);
//! `except` and `except*` are catches; `match`/`case` is a switch, `case _:` without a guard its
//! default; comprehension `for` and `if` clauses are cyclomatic decision points only; recursion is
//! a call to the function's name or to `self.name` / `cls.name`.

use super::{
    bool_op, children, named_children, operator_token, text, Branch, BranchKind, Construct, Grammar,
};
use tree_sitter::Node;

/// The Python grammar.
pub(crate) struct Python;

const STATEMENTS: &[&str] = &[
    "expression_statement",
    "return_statement",
    "pass_statement",
    "break_statement",
    "continue_statement",
    "import_statement",
    "import_from_statement",
    "future_import_statement",
    "assert_statement",
    "raise_statement",
    "delete_statement",
    "global_statement",
    "nonlocal_statement",
    "print_statement",
    "exec_statement",
    "type_alias_statement",
    "if_statement",
    "for_statement",
    "while_statement",
    "try_statement",
    "with_statement",
    "match_statement",
    "function_definition",
    "class_definition",
];

impl Grammar for Python {
    fn language(&self) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }

    fn is_comment(&self, node: Node, _source: &str) -> bool {
        match node.kind() {
            "comment" => true,
            "expression_statement" => {
                let parts = named_children(node);
                parts.len() == 1 && matches!(parts[0].kind(), "string" | "concatenated_string")
            }
            _ => false,
        }
    }

    fn is_statement(&self, node: Node, _source: &str) -> bool {
        STATEMENTS.contains(&node.kind())
    }

    fn function_name(&self, node: Node, source: &str) -> Option<String> {
        match node.kind() {
            "function_definition" => Some(
                node.child_by_field_name("name")
                    .map_or("<anonymous>", |n| text(n, source))
                    .to_owned(),
            ),
            "lambda" => Some("<lambda>".to_owned()),
            _ => None,
        }
    }

    fn construct<'t>(&self, node: Node<'t>, source: &str) -> Construct<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => {
                let mut branches = vec![Branch {
                    kind: BranchKind::If,
                    outer: field("condition").into_iter().collect(),
                    inner: field("consequence").into_iter().collect(),
                }];
                for child in children(node) {
                    match child.kind() {
                        "elif_clause" => branches.push(Branch {
                            kind: BranchKind::ElseIf,
                            outer: child.child_by_field_name("condition").into_iter().collect(),
                            inner: child
                                .child_by_field_name("consequence")
                                .into_iter()
                                .collect(),
                        }),
                        "else_clause" => branches.push(Branch {
                            kind: BranchKind::Else,
                            outer: Vec::new(),
                            inner: child.child_by_field_name("body").into_iter().collect(),
                        }),
                        _ => {}
                    }
                }
                Construct::If(branches)
            }
            "for_statement" | "while_statement" => Construct::Loop(
                [field("body"), field("alternative")]
                    .into_iter()
                    .flatten()
                    .collect(),
            ),
            "match_statement" => Construct::Switch(field("body").into_iter().collect()),
            "case_clause" => {
                let patterns: Vec<Node> = named_children(node)
                    .into_iter()
                    .filter(|c| c.kind() == "case_pattern")
                    .collect();
                let wildcard = patterns.len() == 1 && text(patterns[0], source).trim() == "_";
                Construct::Case {
                    default: wildcard && field("guard").is_none(),
                }
            }
            "except_clause" | "except_group_clause" => Construct::Catch(
                named_children(node)
                    .into_iter()
                    .filter(|c| c.kind() == "block")
                    .collect(),
            ),
            "conditional_expression" => {
                // `a if c else b`: the branches are the first and third expressions.
                let parts = named_children(node);
                Construct::Ternary(
                    parts
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != 1)
                        .map(|(_, n)| *n)
                        .collect(),
                )
            }
            "for_in_clause" | "if_clause" => Construct::Decision,
            "boolean_operator" => match bool_op(operator_token(node, source)) {
                Some(op) => Construct::BoolOp(op),
                None => Construct::Plain,
            },
            "parenthesized_expression" => Construct::Paren,
            "call" => {
                let name = field("function").and_then(|f| match f.kind() {
                    "identifier" => Some(text(f, source).to_owned()),
                    "attribute" => {
                        let object = f.child_by_field_name("object")?;
                        matches!(text(object, source), "self" | "cls")
                            .then(|| f.child_by_field_name("attribute"))
                            .flatten()
                            .map(|a| text(a, source).to_owned())
                    }
                    _ => None,
                });
                Construct::Call(name)
            }
            _ => Construct::Plain,
        }
    }
}
