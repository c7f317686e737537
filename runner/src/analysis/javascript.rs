//! JavaScript (tree-sitter-javascript) and TypeScript (tree-sitter-typescript, whose grammar
//! extends JavaScript's with the same node kinds plus types): node kinds for the metrics of the
//! module documentation. Type-only declarations (`interface`, `type`, signatures) are not
//! statements, as they do not run.
//!
//! `if`/`else if` chains through `else` clauses holding an `if`; `for`, `for in`/`for of`,
//! `while`, `do` are loops; `switch` is a switch, `default:` its default case; `catch` is a catch;
//! `?:` is a ternary; `&&` and `||` are boolean operators (`??` is not); `break label` /
//! `continue label` are jumps. Functions: declarations, generator declarations, function
//! expressions, arrow functions and methods; an anonymous function or arrow function takes the
//! name of the variable it initialises (as JavaScript names it), else `<anonymous>`. Recursion is
//! a call to the function's name or to `this.name`. Statements: the grammar's statements (not
//! blocks, labels or empty statements) and declarations (`var`/`let`/`const`, functions,
//! classes), class methods, `import`, and `export` when it wraps no declaration.

use super::{bool_op, if_chain, operator_token, text, Construct, Grammar};
use tree_sitter::Node;

/// The JavaScript grammar, or TypeScript's.
pub(crate) struct JavaScript {
    typescript: bool,
}

/// JavaScript.
pub(crate) const JAVASCRIPT: JavaScript = JavaScript { typescript: false };
/// TypeScript.
pub(crate) const TYPESCRIPT: JavaScript = JavaScript { typescript: true };

const STATEMENTS: &[&str] = &[
    "expression_statement",
    "variable_declaration",
    "lexical_declaration",
    "return_statement",
    "if_statement",
    "for_statement",
    "for_in_statement",
    "while_statement",
    "do_statement",
    "try_statement",
    "switch_statement",
    "break_statement",
    "continue_statement",
    "throw_statement",
    "debugger_statement",
    "with_statement",
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "import_statement",
    "method_definition",
    // TypeScript's `enum` runs (it becomes an object; a `namespace` is an expression statement
    // in this grammar); its types do not.
    "enum_declaration",
];

impl Grammar for JavaScript {
    fn language(&self) -> tree_sitter::Language {
        match self.typescript {
            true => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            false => tree_sitter_javascript::LANGUAGE.into(),
        }
    }

    fn is_comment(&self, node: Node, _source: &str) -> bool {
        node.kind() == "comment"
    }

    fn is_statement(&self, node: Node, _source: &str) -> bool {
        let kind = node.kind();
        match kind {
            "export_statement" => node.child_by_field_name("declaration").is_none(),
            "if_statement" => node.parent().is_none_or(|p| p.kind() != "else_clause"),
            // `for (let i = 0; ...)`: the initialiser is part of the loop.
            "lexical_declaration"
            | "variable_declaration"
            | "expression_statement"
            | "empty_statement" => {
                kind != "empty_statement"
                    && node.parent().is_none_or(|p| {
                        !(p.kind() == "for_statement"
                            && p.child_by_field_name("body")
                                .is_none_or(|b| b.id() != node.id()))
                    })
            }
            _ => STATEMENTS.contains(&kind),
        }
    }

    fn function_name(&self, node: Node, source: &str) -> Option<String> {
        match node.kind() {
            "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "function"
            | "generator_function"
            | "arrow_function"
            | "method_definition" => {
                if let Some(name) = node.child_by_field_name("name") {
                    return Some(text(name, source).to_owned());
                }
                let variable = node
                    .parent()
                    .filter(|p| p.kind() == "variable_declarator")
                    .and_then(|p| p.child_by_field_name("name"))
                    .filter(|n| n.kind() == "identifier");
                Some(
                    variable
                        .map_or("<anonymous>", |n| text(n, source))
                        .to_owned(),
                )
            }
            _ => None,
        }
    }

    fn construct<'t>(&self, node: Node<'t>, source: &str) -> Construct<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => if_chain(node, "if_statement", |k| k == "comment"),
            "for_statement" | "for_in_statement" | "while_statement" | "do_statement" => {
                Construct::Loop(field("body").into_iter().collect())
            }
            "switch_statement" => Construct::Switch(field("body").into_iter().collect()),
            "switch_case" => Construct::Case { default: false },
            "switch_default" => Construct::Case { default: true },
            "catch_clause" => Construct::Catch(field("body").into_iter().collect()),
            "ternary_expression" => Construct::Ternary(
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
            "break_statement" | "continue_statement" => {
                if field("label").is_some() {
                    Construct::Jump
                } else {
                    Construct::Plain
                }
            }
            "call_expression" => {
                let name = field("function").and_then(|f| match f.kind() {
                    "identifier" => Some(text(f, source).to_owned()),
                    "member_expression" => {
                        let object = f.child_by_field_name("object")?;
                        (object.kind() == "this")
                            .then(|| f.child_by_field_name("property"))
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
}
