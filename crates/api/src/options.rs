//! Preferred-start options: when the homeowner would like the work to start.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Identifier of a preferred-start option, as the marketplace publishes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PreferredStartId {
    /// "I'm flexible on start date"
    Flexible,
    /// "It's urgent (within 48 hours)"
    Urgent,
    /// "Within 2 weeks"
    #[serde(rename = "WITHIN_2_WEEKS")]
    Within2Weeks,
    /// "Within 1 month"
    #[serde(rename = "WITHIN_1_MONTH")]
    Within1Month,
    /// "I'm planning and budgeting"
    PlanningAndBudgeting,
}

impl PreferredStartId {
    /// Every option, in the published order.
    pub const ALL: [PreferredStartId; 5] = [
        PreferredStartId::Flexible,
        PreferredStartId::Urgent,
        PreferredStartId::Within2Weeks,
        PreferredStartId::Within1Month,
        PreferredStartId::PlanningAndBudgeting,
    ];

    /// The wire identifier, e.g. `WITHIN_2_WEEKS`.
    pub fn as_str(self) -> &'static str {
        match self {
            PreferredStartId::Flexible => "FLEXIBLE",
            PreferredStartId::Urgent => "URGENT",
            PreferredStartId::Within2Weeks => "WITHIN_2_WEEKS",
            PreferredStartId::Within1Month => "WITHIN_1_MONTH",
            PreferredStartId::PlanningAndBudgeting => "PLANNING_AND_BUDGETING",
        }
    }

    /// The label shown to homeowners.
    pub fn label(self) -> &'static str {
        match self {
            PreferredStartId::Flexible => "I'm flexible on start date",
            PreferredStartId::Urgent => "It's urgent (within 48 hours)",
            PreferredStartId::Within2Weeks => "Within 2 weeks",
            PreferredStartId::Within1Month => "Within 1 month",
            PreferredStartId::PlanningAndBudgeting => "I'm planning and budgeting",
        }
    }

    /// Looks an identifier up exactly as sent on the wire.
    pub fn parse(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|option| option.as_str() == id)
    }
}

/// One entry of `GET /preferred-start-options`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PreferredStartOption {
    /// Identifier to send as `preferredStart.id`.
    #[schema(example = "URGENT")]
    pub id: String,
    /// Human-readable label.
    #[schema(example = "It's urgent (within 48 hours)")]
    pub label: String,
}

/// The five options in their published order.
pub fn preferred_start_options() -> Vec<PreferredStartOption> {
    PreferredStartId::ALL
        .into_iter()
        .map(|id| PreferredStartOption {
            id: id.as_str().to_owned(),
            label: id.label().to_owned(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_are_the_five_published_ones_in_order() {
        let json = serde_json::to_value(preferred_start_options()).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                {"id": "FLEXIBLE", "label": "I'm flexible on start date"},
                {"id": "URGENT", "label": "It's urgent (within 48 hours)"},
                {"id": "WITHIN_2_WEEKS", "label": "Within 2 weeks"},
                {"id": "WITHIN_1_MONTH", "label": "Within 1 month"},
                {"id": "PLANNING_AND_BUDGETING", "label": "I'm planning and budgeting"}
            ])
        );
    }

    #[test]
    fn serde_names_agree_with_as_str() {
        for id in PreferredStartId::ALL {
            assert_eq!(serde_json::to_value(id).unwrap(), id.as_str());
            assert_eq!(PreferredStartId::parse(id.as_str()), Some(id));
        }
        assert_eq!(PreferredStartId::parse("urgent"), None);
    }
}
