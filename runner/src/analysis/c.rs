//! C (tree-sitter-c) and C++ (tree-sitter-cpp): node kinds for the metrics of the module
//! documentation. C++ is C plus range `for`, `try`/`catch`, `throw`, lambdas (`<lambda>`),
//! classes and namespaces; both grammars name the shared constructs alike.
//!
//! `if`/`else if` chains through `else` clauses holding an `if`; `case` labels are cases,
//! `default:` the default; `goto` is a jump (C has no labelled `break`); conditional expressions
//! `?:` are ternaries; `&&`, `||` (and C++'s `and`, `or`) are boolean operators; recursion is a
//! call to the function's (unqualified) name or to `this->name`. Statements: the grammar's
//! `*_statement`s (not compound, labelled or empty ones, nor the `if` of an `else if`),
//! declarations (local and global), `typedef`s, function definitions, and a `struct`/`union`/
//! `enum`/`class` definition standing alone; preprocessor directives are not statements.

use super::{bool_op, declarator_name, if_chain, operator_token, text, Construct, Grammar};
use tree_sitter::Node;

/// C or C++: one set of rules, two grammars (C++'s adds lambdas, range `for`, `try`/`catch`).
pub(crate) struct CFamily {
    grammar: fn() -> tree_sitter::Language,
}

/// C11.
pub(crate) const C: CFamily = CFamily {
    grammar: || tree_sitter_c::LANGUAGE.into(),
};

/// C++17.
pub(crate) const CPP: CFamily = CFamily {
    grammar: || tree_sitter_cpp::LANGUAGE.into(),
};

const STATEMENTS: &[&str] = &[
    "expression_statement",
    "return_statement",
    "break_statement",
    "continue_statement",
    "goto_statement",
    "if_statement",
    "for_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
    "declaration",
    "type_definition",
    "function_definition",
    // C++
    "for_range_loop",
    "try_statement",
    "throw_statement",
    "co_return_statement",
    "co_yield_statement",
    "alias_declaration",
    "using_declaration",
    "static_assert_declaration",
    "namespace_alias_definition",
];

const TYPE_SPECIFIERS: &[&str] = &[
    "struct_specifier",
    "union_specifier",
    "enum_specifier",
    "class_specifier",
];

fn is_statement(node: Node) -> bool {
    let kind = node.kind();
    if kind == "expression_statement" {
        // `;` alone is an empty statement.
        return node.named_child_count() > 0;
    }
    if kind == "if_statement" {
        return node.parent().is_none_or(|p| p.kind() != "else_clause");
    }
    if kind == "declaration" {
        // `for (int i = 0; ...)`: the initialiser is part of the loop.
        return node.parent().is_none_or(|p| {
            p.kind() != "for_statement"
                || p.child_by_field_name("body")
                    .is_some_and(|b| b.id() == node.id())
        });
    }
    if STATEMENTS.contains(&kind) {
        return true;
    }
    TYPE_SPECIFIERS.contains(&kind)
        && node.parent().is_some_and(|p| {
            matches!(
                p.kind(),
                "translation_unit" | "declaration_list" | "compound_statement"
            )
        })
}

fn function_name(node: Node, source: &str) -> Option<String> {
    match node.kind() {
        "function_definition" => {
            Some(declarator_name(node, source).unwrap_or_else(|| "<anonymous>".to_owned()))
        }
        "lambda_expression" => Some("<lambda>".to_owned()),
        _ => None,
    }
}

fn construct<'t>(node: Node<'t>, source: &str) -> Construct<'t> {
    let field = |name: &str| node.child_by_field_name(name);
    match node.kind() {
        "if_statement" => if_chain(node, "if_statement", |k| k == "comment"),
        "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
            Construct::Loop(field("body").into_iter().collect())
        }
        "switch_statement" => Construct::Switch(field("body").into_iter().collect()),
        "case_statement" => Construct::Case {
            default: field("value").is_none(),
        },
        "catch_clause" => Construct::Catch(field("body").into_iter().collect()),
        "conditional_expression" => Construct::Ternary(
            [field("consequence"), field("alternative")]
                .into_iter()
                .flatten()
                .collect(),
        ),
        "binary_expression" => match bool_op(operator_token(node, source)) {
            Some(op) => Construct::BoolOp(op),
            None => Construct::Plain,
        },
        "parenthesized_expression" => Construct::Paren,
        "goto_statement" => Construct::Jump,
        "call_expression" => {
            let name = field("function").and_then(|f| match f.kind() {
                "identifier" => Some(text(f, source).to_owned()),
                "field_expression" => {
                    let object = f.child_by_field_name("argument")?;
                    (text(object, source) == "this")
                        .then(|| f.child_by_field_name("field"))
                        .flatten()
                        .map(|n| text(n, source).to_owned())
                }
                _ => None,
            });
            Construct::Call(name)
        }
        _ => Construct::Plain,
    }
}

impl Grammar for CFamily {
    fn language(&self) -> tree_sitter::Language {
        (self.grammar)()
    }

    fn is_comment(&self, node: Node, _source: &str) -> bool {
        node.kind() == "comment"
    }

    fn is_statement(&self, node: Node, _source: &str) -> bool {
        is_statement(node)
    }

    fn function_name(&self, node: Node, source: &str) -> Option<String> {
        function_name(node, source)
    }

    fn construct<'t>(&self, node: Node<'t>, source: &str) -> Construct<'t> {
        construct(node, source)
    }
}
