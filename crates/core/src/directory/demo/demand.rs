//! How often each parent category is a trade's main line of work, the words a
//! trading name uses for it, and which parents go together.

use crate::categories::CategoryTree;
use rand::Rng;

/// Parent id, demand weight, trade words for names. Weights are relative
/// (plumbing 30 against 1 for a niche); parents not listed weigh 1.
const PARENTS: &[(u32, u32, &[&str])] = &[
    (
        20,
        30,
        &["Plumbing", "Plumbing & Heating", "Plumbing Services"],
    ),
    (
        12,
        26,
        &[
            "Electrical",
            "Electrical Services",
            "Electrics",
            "Electrical Contractors",
        ],
    ),
    (
        10,
        22,
        &[
            "Heating",
            "Gas & Heating",
            "Heating Services",
            "Boiler Services",
        ],
    ),
    (
        2,
        20,
        &[
            "Builders",
            "Building Services",
            "Construction",
            "Building & Maintenance",
        ],
    ),
    (
        1189,
        16,
        &["Roofing", "Roofing Services", "Roofing Contractors"],
    ),
    (
        15,
        14,
        &["Decorators", "Painting & Decorating", "Decorating"],
    ),
    (5, 12, &["Garden Services", "Gardening", "Gardens"]),
    (1125, 10, &["Cleaning Services", "Cleaning", "Cleaners"]),
    (13, 10, &["Carpentry", "Joinery", "Carpentry & Joinery"]),
    (
        1350,
        10,
        &["Handyman Services", "Property Maintenance", "Handyman"],
    ),
    (
        855,
        9,
        &["Plastering", "Plastering & Rendering", "Plasterers"],
    ),
    (17, 8, &["Locksmiths", "Locks", "Locksmith Services"]),
    (
        1038,
        8,
        &["Bathrooms", "Bathroom Installations", "Bathroom Design"],
    ),
    (11, 8, &["Windows & Doors", "Glazing", "Windows"]),
    (
        22,
        6,
        &["Kitchens", "Kitchen Installations", "Kitchen Design"],
    ),
    (24, 6, &["Driveways", "Paving", "Driveways & Patios"]),
    (688, 6, &["Landscapes", "Landscaping", "Garden Design"]),
    (1014, 6, &["Tiling", "Tiling Services", "Tiles"]),
    (1207, 5, &["Fencing", "Fencing & Gates"]),
    (21, 5, &["Drainage", "Drain Services", "Drain Clearance"]),
    (14, 5, &["Flooring", "Carpets & Flooring", "Floors"]),
    (988, 4, &["Tree Surgeons", "Tree Services", "Arboriculture"]),
    (1379, 4, &["Brickwork", "Bricklaying", "Brick & Stone"]),
    (1011, 3, &["Damp Proofing", "Damp & Timber"]),
    (1862, 3, &["Roofline", "Fascias & Guttering", "Guttering"]),
    (1159, 3, &["Pest Control"]),
    (1164, 3, &["Removals", "Removals & Storage"]),
    (834, 3, &["Waste Removal", "Clearances", "Rubbish Removal"]),
    (1029, 3, &["Appliance Repairs", "Appliance Services"]),
    (
        1021,
        3,
        &["Security Systems", "Alarms & Security", "Security"],
    ),
    (1140, 3, &["Window Cleaning", "Window Cleaners"]),
    (1907, 3, &["Carpet Cleaning", "Carpet & Upholstery Care"]),
    (38, 3, &["Groundworks", "Civils & Groundworks"]),
    (1349, 3, &["Home Improvements", "Property Services"]),
    (1172, 3, &["Solar", "Renewables", "Solar & Renewables"]),
    (875, 2, &["Insulation", "Insulation Services"]),
    (9, 2, &["Aerials", "Aerials & Satellite", "Aerial Services"]),
    (19, 2, &["Garage Doors"]),
    (
        1095,
        2,
        &["Stoves", "Fireplaces & Stoves", "Stove Installations"],
    ),
    (1109, 2, &["Chimney Sweeps", "Chimney Services"]),
    (1138, 2, &["Oven Cleaning", "Oven Care"]),
    (1211, 2, &["Lawn Care", "Grass Cutting"]),
    (1114, 2, &["Scaffolding"]),
    (1115, 2, &["Glass", "Glazing"]),
    (
        757,
        2,
        &["Air Conditioning", "Air Con Services", "Climate Control"],
    ),
    (7, 2, &["Motors", "Autos", "Vehicle Services"]),
    (
        1151,
        2,
        &["Blinds", "Blinds & Shutters", "Curtains & Blinds"],
    ),
    (
        1802,
        1,
        &[
            "Architectural Services",
            "Architectural Design",
            "Plans & Drawings",
        ],
    ),
    (1035, 1, &["Asbestos Services", "Asbestos Removal"]),
    (1045, 1, &["Bedrooms", "Fitted Bedrooms", "Wardrobes"]),
    (1809, 1, &["Drone Surveys", "Aerial Surveys"]),
    (1110, 1, &["Furniture Restoration", "Restorations"]),
    (1066, 1, &["Hire", "Plant Hire"]),
    (1906, 1, &["Home Cinema", "Smart Homes", "AV"]),
    (1120, 1, &["Water Treatment", "Water Softeners"]),
    (1294, 1, &["Interiors", "Interior Design"]),
    (1734, 1, &["IT Services", "IT Support", "Computers"]),
    (1828, 1, &["Property Services", "Lettings Services"]),
    (762, 1, &["Lofts", "Loft Ladders", "Loft Boarding"]),
    (1050, 1, &["Metalwork", "Forge", "Fabrications"]),
    (6, 1, &["Services"]),
    (1105, 1, &["Mobility", "Mobility Solutions"]),
    (706, 1, &["Motorhomes", "Leisure Vehicles"]),
    (1373, 1, &["Shopfitting", "Shopfitters"]),
    (1002, 1, &["Stonemasons", "Stone", "Masonry"]),
    (1867, 1, &["Surface Repairs", "Repair Specialists"]),
    (1813, 1, &["Surveyors", "Surveying"]),
    (1160, 1, &["Pools & Spas", "Hot Tubs", "Pools"]),
    (667, 1, &["Telecoms", "Communications"]),
    (1388, 1, &["Recovery", "Towing & Recovery"]),
    (1177, 1, &["Transport", "Couriers", "Travel"]),
    (1330, 1, &["Coatings", "Protective Coatings"]),
];

/// Parents a second line of work is usually drawn from.
const RELATED: &[(u32, &[u32])] = &[
    (20, &[10, 1038, 21]),
    (10, &[20, 12, 1172]),
    (12, &[10, 1021, 1172, 9]),
    (2, &[1379, 13, 855, 38, 1189]),
    (1189, &[1862, 2, 1114]),
    (15, &[855, 1014, 1350]),
    (5, &[688, 988, 1207, 1211]),
    (1125, &[1907, 1140, 1138]),
    (13, &[22, 1045, 1350]),
    (1350, &[15, 13, 1349]),
    (855, &[15, 2]),
    (17, &[11, 1021]),
    (1038, &[20, 1014]),
    (22, &[13, 1014]),
    (688, &[5, 24, 1207]),
    (24, &[688, 38]),
];

/// The parents of a tree with their demand weights, ready to sample.
#[derive(Debug)]
pub(super) struct Demand {
    parents: Vec<(u32, u64)>,
    total: u64,
}

impl Demand {
    /// Weights every parent of `tree` (weight 1 for parents not listed above).
    pub fn new(tree: &CategoryTree) -> Self {
        let parents: Vec<(u32, u64)> = tree
            .parents()
            .map(|parent| (parent.id, u64::from(weight(parent.id).unwrap_or(1))))
            .collect();
        let total = parents.iter().map(|p| p.1).sum();
        Demand { parents, total }
    }

    /// A parent drawn in proportion to demand, never one of `except`.
    pub fn pick(&self, rng: &mut impl Rng, except: &[u32]) -> Option<u32> {
        let excluded: u64 = self
            .parents
            .iter()
            .filter(|p| except.contains(&p.0))
            .map(|p| p.1)
            .sum();
        let total = self.total - excluded;
        if total == 0 {
            return None;
        }
        let mut ticket = rng.gen_range(0..total);
        for &(id, weight) in self.parents.iter().filter(|p| !except.contains(&p.0)) {
            if ticket < weight {
                return Some(id);
            }
            ticket -= weight;
        }
        None
    }

    /// A second line of work for a trade whose main one is `main`: usually a
    /// related parent, else any by demand.
    pub fn pick_second(&self, rng: &mut impl Rng, main: u32) -> Option<u32> {
        let related: Vec<u32> = RELATED
            .iter()
            .find(|r| r.0 == main)
            .map(|r| {
                r.1.iter()
                    .copied()
                    .filter(|id| self.parents.iter().any(|p| p.0 == *id))
                    .collect()
            })
            .unwrap_or_default();
        if !related.is_empty() && rng.gen_bool(0.7) {
            return Some(related[rng.gen_range(0..related.len())]);
        }
        self.pick(rng, &[main])
    }
}

fn weight(id: u32) -> Option<u32> {
    PARENTS.iter().find(|p| p.0 == id).map(|p| p.1)
}

/// The words a trading name uses for the parent `id`, e.g. `Plumbing & Heating`;
/// for a parent not listed, its label with `/` read as `&`.
pub(super) fn trade_words(tree: &CategoryTree, id: u32, rng: &mut impl Rng) -> String {
    match PARENTS.iter().find(|p| p.0 == id) {
        Some((_, _, words)) => words[rng.gen_range(0..words.len())].to_owned(),
        None => tree
            .get(id)
            .map_or_else(|| "Services".to_owned(), |c| c.label.replace(" / ", " & ")),
    }
}
