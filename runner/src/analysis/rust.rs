//! Rust (tree-sitter-rust): node kinds for the metrics of the module documentation.
//!
//! `if`/`if let` expressions form chains through `else if`; `for`, `while`, `while let` and `loop`
//! are loops; `match` is a switch whose arms are cases, an arm `_ =>` without guard being the
//! default; `break 'label` / `continue 'label` are jumps; `?` adds nothing; closures are
//! functions named `<closure>`; recursion is a call to the function's name, to `Self::name` or to
//! `self.name`. Statements: `let`, expression statements, items (`fn`, `struct`, `enum`, `impl`,
//! `trait`, `use`, `mod`, `const`, `static`, `type`, `macro_rules!`, item-level macro calls), a
//! block's tail expression and a match arm's non-block value.

use super::{
    bool_op, children, if_chain, named_children, operator_token, text, Construct, Grammar,
};
use tree_sitter::Node;

/// The Rust grammar.
pub(crate) struct Rust;

const ITEMS: &[&str] = &[
    "function_item",
    "function_signature_item",
    "struct_item",
    "enum_item",
    "union_item",
    "impl_item",
    "trait_item",
    "mod_item",
    "use_declaration",
    "extern_crate_declaration",
    "const_item",
    "static_item",
    "type_item",
    "macro_definition",
    "foreign_mod_item",
    "associated_type",
];

/// Children of a block that are not its tail expression.
const NOT_EXPRESSIONS: &[&str] = &[
    "expression_statement",
    "let_declaration",
    "empty_statement",
    "attribute_item",
    "inner_attribute_item",
    "label",
    "line_comment",
    "block_comment",
    "macro_invocation_statement",
];

impl Grammar for Rust {
    fn language(&self) -> tree_sitter::Language {
        tree_sitter_rust::LANGUAGE.into()
    }

    fn is_comment(&self, node: Node, _source: &str) -> bool {
        matches!(node.kind(), "line_comment" | "block_comment")
    }

    fn is_statement(&self, node: Node, _source: &str) -> bool {
        let kind = node.kind();
        if matches!(kind, "expression_statement" | "let_declaration") || ITEMS.contains(&kind) {
            return true;
        }
        let Some(parent) = node.parent() else {
            return false;
        };
        match parent.kind() {
            "source_file" | "declaration_list" => kind == "macro_invocation",
            "block" => {
                // The tail expression: the last named child that is not a comment.
                let last = named_children(parent)
                    .into_iter()
                    .rfind(|c| !matches!(c.kind(), "line_comment" | "block_comment"));
                last.is_some_and(|l| l.id() == node.id())
                    && !NOT_EXPRESSIONS.contains(&kind)
                    && !ITEMS.contains(&kind)
            }
            "match_arm" => {
                parent
                    .child_by_field_name("value")
                    .is_some_and(|v| v.id() == node.id())
                    && kind != "block"
            }
            _ => false,
        }
    }

    fn function_name(&self, node: Node, source: &str) -> Option<String> {
        match node.kind() {
            "function_item" => Some(
                node.child_by_field_name("name")
                    .map_or("<anonymous>", |n| text(n, source))
                    .to_owned(),
            ),
            "closure_expression" => Some("<closure>".to_owned()),
            _ => None,
        }
    }

    fn construct<'t>(&self, node: Node<'t>, source: &str) -> Construct<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_expression" => if_chain(node, "if_expression", |k| {
                matches!(k, "line_comment" | "block_comment")
            }),
            "for_expression" | "while_expression" | "loop_expression" => {
                Construct::Loop(field("body").into_iter().collect())
            }
            "match_expression" => Construct::Switch(field("body").into_iter().collect()),
            "match_arm" => {
                let pattern = field("pattern");
                let wildcard = pattern.is_some_and(|p| {
                    text(p, source).trim() == "_" && p.child_by_field_name("condition").is_none()
                });
                Construct::Case { default: wildcard }
            }
            "binary_expression" => match bool_op(operator_token(node, source)) {
                Some(op) => Construct::BoolOp(op),
                None => Construct::Plain,
            },
            "parenthesized_expression" => Construct::Paren,
            "break_expression" | "continue_expression" => {
                if children(node).iter().any(|c| c.kind() == "label") {
                    Construct::Jump
                } else {
                    Construct::Plain
                }
            }
            "call_expression" => {
                let name = field("function").and_then(|f| match f.kind() {
                    "identifier" => Some(text(f, source).to_owned()),
                    "scoped_identifier" => {
                        let path = f.child_by_field_name("path")?;
                        (text(path, source) == "Self")
                            .then(|| f.child_by_field_name("name"))
                            .flatten()
                            .map(|n| text(n, source).to_owned())
                    }
                    "field_expression" => {
                        let value = f.child_by_field_name("value")?;
                        (text(value, source) == "self")
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
}
