//! The category tree as `GET /api/v1/category` answers it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// One category of the tree. The answer is an array of parents; each parent lists
/// its sub categories, and every sub category has `subcategories: []` (the tree
/// has exactly two levels).
///
/// `id` is the key integrators send as `categoryId`. `name` is a URL slug and is
/// not unique: a few slugs appear under two parents with different ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CategoryNode {
    /// Stable identifier, sent as `categoryId` when creating a job.
    #[schema(example = 20, minimum = 1)]
    pub id: u32,
    /// Human-readable label, trimmed, single-spaced.
    #[schema(example = "Plumber")]
    pub label: String,
    /// URL slug of the category page; not a key (it is not unique).
    #[schema(example = "plumber")]
    pub name: String,
    /// Sub categories of a parent, in display order; always empty on a sub category.
    #[schema(no_recursion)]
    pub subcategories: Vec<CategoryNode>,
    /// Search engines should not index this category's page (thin, duplicate, or
    /// a seller of goods rather than a service).
    pub noindex: bool,
    /// Search engines should not follow links from this category's page (it is a
    /// seller of goods, not a service a homeowner hires).
    pub nofollow: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::openapi::{RefOr, Schema};
    use utoipa::PartialSchema;

    fn leaf(id: u32, label: &str) -> CategoryNode {
        CategoryNode {
            id,
            label: label.to_owned(),
            name: label.to_lowercase(),
            subcategories: Vec::new(),
            noindex: false,
            nofollow: false,
        }
    }

    #[test]
    fn a_node_serialises_its_fields_in_wire_order() {
        let mut parent = leaf(20, "Plumber");
        parent.subcategories.push(leaf(1591, "Tap"));
        let json = serde_json::to_string(&parent).unwrap();
        assert_eq!(
            json,
            r#"{"id":20,"label":"Plumber","name":"plumber","subcategories":[{"id":1591,"label":"Tap","name":"tap","subcategories":[],"noindex":false,"nofollow":false}],"noindex":false,"nofollow":false}"#
        );
        assert_eq!(serde_json::from_str::<CategoryNode>(&json).unwrap(), parent);
    }

    #[test]
    fn the_schema_refers_to_itself_for_subcategories_without_recursing() {
        let RefOr::T(Schema::Object(object)) = CategoryNode::schema() else {
            panic!("CategoryNode should be an object schema");
        };
        let fields: Vec<&str> = object.properties.keys().map(String::as_str).collect();
        for field in [
            "id",
            "label",
            "name",
            "subcategories",
            "noindex",
            "nofollow",
        ] {
            assert!(fields.contains(&field), "missing {field} in {fields:?}");
            assert!(
                object.required.iter().any(|r| r == field),
                "{field} not required"
            );
        }
        let mut schemas = Vec::new();
        CategoryNode::schemas(&mut schemas);
        let json = serde_json::to_string(&object.properties["subcategories"]).unwrap();
        assert!(json.contains("#/components/schemas/CategoryNode"), "{json}");
    }
}
