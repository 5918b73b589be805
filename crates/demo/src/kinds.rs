//! The kinds of business a demo trade can be: what each is called, how common
//! it is, and which categories it does.

/// Main parent, demand weight, the words a trading name uses for the kind, and
/// what else it does: `(category, percent)` pairs, a parent (registered like the
/// main one) or a sub category of another parent, each taken on by that share
/// of the kind's trades.
///
/// Every word of a kind's names must fit every category it may register for:
/// a "Plumbing & Heating" firm does heating, a "Heating" firm does not do
/// plumbing, and nothing named for plastering, cleaning or blinds registers for
/// heating. Weights are relative (30 for all plumbing against 1 for a niche);
/// the first kind of a main parent is the one local trades of
/// [`super::local`] are made of.
pub(super) type KindSpec = (u32, u32, &'static [&'static str], &'static [(u32, u32)]);

pub(super) const KINDS: &[KindSpec] = &[
    (
        20,
        14,
        &["Plumbing", "Plumbing Services", "Plumbers"],
        &[(21, 15)],
    ),
    (
        20,
        16,
        &[
            "Plumbing & Heating",
            "Plumbing & Gas",
            "Plumbing & Heating Services",
        ],
        &[(10, 90), (1038, 10)],
    ),
    (
        12,
        26,
        &[
            "Electrical",
            "Electrical Services",
            "Electrics",
            "Electrical Contractors",
            "Electricians",
        ],
        // Burglar alarms, CCTV installation, fire alarms, solar PV.
        &[(1022, 15), (1023, 15), (1028, 10), (1683, 10)],
    ),
    (
        10,
        22,
        &[
            "Heating",
            "Gas & Heating",
            "Heating Services",
            "Boiler Services",
            "Heating Engineers",
        ],
        // Gas fire installation, gas fire servicing / repair.
        &[(1365, 15), (1099, 15)],
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
        &[(1379, 25), (38, 15), (1349, 10)],
    ),
    (
        1189,
        16,
        &[
            "Roofing",
            "Roofing Services",
            "Roofing Contractors",
            "Roofers",
        ],
        &[(1862, 35)],
    ),
    (
        15,
        14,
        &[
            "Decorators",
            "Painting & Decorating",
            "Decorating",
            "Painters & Decorators",
        ],
        &[],
    ),
    (
        5,
        10,
        &["Garden Services", "Gardening", "Gardens", "Gardeners"],
        // Lawn care (of Landscaper), turfing.
        &[(1211, 40), (1323, 15)],
    ),
    (
        1125,
        10,
        &[
            "Cleaning Services",
            "Cleaning",
            "Cleaners",
            "Cleaning Company",
        ],
        &[(1907, 20), (1140, 10), (1138, 10)],
    ),
    (
        13,
        10,
        &["Carpentry", "Joinery", "Carpentry & Joinery", "Joiners"],
        // Kitchen fitters, wood flooring installers.
        &[(32, 20), (1045, 10), (176, 10)],
    ),
    (
        1350,
        10,
        &["Handyman Services", "Property Maintenance", "Handyman"],
        // General carpentry, door fitting / hanging, painting / decorating,
        // fencing repair / replacement.
        &[(1349, 25), (264, 20), (646, 15), (46, 20), (1208, 10)],
    ),
    (
        855,
        9,
        &["Plastering", "Plastering & Rendering", "Plasterers"],
        &[],
    ),
    (
        17,
        8,
        &["Locksmiths", "Locks", "Locksmith Services"],
        // Safes, security solutions / access control.
        &[(1348, 10), (1027, 10)],
    ),
    (
        1038,
        8,
        &[
            "Bathrooms",
            "Bathroom Installations",
            "Bathroom Design",
            "Bathroom Fitters",
        ],
        // Bathroom tiling, shower installation, sink / basin installation,
        // toilet repair / replacement.
        &[(2039, 40), (844, 30), (2003, 20), (2002, 20)],
    ),
    (
        11,
        8,
        &["Windows & Doors", "Glazing", "Windows", "Double Glazing"],
        &[(1115, 15), (1862, 10)],
    ),
    (
        22,
        6,
        &[
            "Kitchens",
            "Kitchen Installations",
            "Kitchen Design",
            "Kitchen Fitters",
        ],
        // Wall tiling, built in furniture.
        &[(1015, 15), (1078, 10)],
    ),
    (
        24,
        6,
        &["Driveways", "Paving", "Driveways & Patios"],
        // Groundworks, hard landscaping.
        &[(38, 15), (806, 15)],
    ),
    (
        688,
        6,
        &[
            "Landscapes",
            "Landscaping",
            "Landscape Gardeners",
            "Gardens & Landscapes",
        ],
        &[(5, 40), (24, 20), (1207, 20)],
    ),
    (1014, 6, &["Tiling", "Tiling Services", "Tilers"], &[]),
    (
        1207,
        5,
        &["Fencing", "Fencing & Gates"],
        // Decking.
        &[(1217, 15)],
    ),
    (
        21,
        5,
        &["Drainage", "Drain Services", "Drain Clearance"],
        &[],
    ),
    (14, 5, &["Flooring", "Carpets & Flooring", "Floors"], &[]),
    (
        988,
        4,
        &["Tree Surgeons", "Tree Services", "Arboriculture"],
        // Hedge trimming / removal.
        &[(1213, 20)],
    ),
    (
        1379,
        4,
        &["Brickwork", "Bricklaying", "Brick & Stone"],
        &[(1002, 10)],
    ),
    (1011, 3, &["Damp Proofing", "Damp & Timber"], &[]),
    (
        1862,
        3,
        &["Roofline", "Fascias & Guttering", "Guttering"],
        // Gutter cleaning & clearance.
        &[(1139, 20)],
    ),
    (1159, 3, &["Pest Control"], &[]),
    (
        1164,
        3,
        &["Removals", "Removals & Storage"],
        // House clearance.
        &[(1169, 15)],
    ),
    (
        834,
        3,
        &["Waste Removal", "Clearances", "Rubbish Removal"],
        &[],
    ),
    (1029, 3, &["Appliance Repairs", "Appliance Services"], &[]),
    (
        1021,
        3,
        &["Security Systems", "Alarms & Security", "Security"],
        // Security lighting.
        &[(1988, 15)],
    ),
    (
        1140,
        3,
        &["Window Cleaning", "Window Cleaners"],
        // Gutter cleaning, UPVC cleaning, conservatory cleaning.
        &[(1139, 25), (1368, 15), (1128, 15)],
    ),
    (
        1907,
        3,
        &["Carpet Cleaning", "Carpet & Upholstery Care"],
        &[],
    ),
    (
        38,
        3,
        &["Groundworks", "Civils & Groundworks"],
        // Drain installation.
        &[(24, 15), (787, 10)],
    ),
    (
        1349,
        3,
        &["Home Improvements", "Property Services"],
        &[(1350, 25)],
    ),
    (
        1172,
        3,
        &["Solar & Renewables", "Renewables", "Renewable Energy"],
        // Air source and ground source heat pumps.
        &[(1321, 20), (1322, 10)],
    ),
    (
        875,
        2,
        &["Insulation", "Insulation Services"],
        // Loft floor boarding.
        &[(1427, 10)],
    ),
    (
        9,
        2,
        &["Aerials", "Aerials & Satellite", "Aerial Services"],
        &[],
    ),
    (19, 2, &["Garage Doors"], &[]),
    (
        1095,
        2,
        &["Stoves", "Fireplaces & Stoves", "Stove Installations"],
        &[(1109, 25)],
    ),
    (
        1109,
        2,
        &["Chimney Sweeps", "Chimney Services"],
        // Chimney relining.
        &[(1097, 15)],
    ),
    (1138, 2, &["Oven Cleaning", "Oven Care"], &[]),
    (
        1211,
        2,
        &["Lawn Care", "Grass Cutting"],
        // Lawn care (of Gardener).
        &[(1216, 30)],
    ),
    (1114, 2, &["Scaffolding"], &[]),
    (
        1115,
        2,
        &["Glass", "Glaziers"],
        // Glass replacement.
        &[(1692, 20)],
    ),
    (
        757,
        2,
        &["Air Conditioning", "Air Con Services", "Climate Control"],
        &[],
    ),
    (7, 2, &["Motors", "Autos", "Vehicle Services"], &[]),
    (
        1151,
        2,
        &["Blinds", "Blinds & Shutters", "Curtains & Blinds"],
        // Window shutters.
        &[(1534, 15)],
    ),
    (
        1802,
        1,
        &[
            "Architectural Services",
            "Architectural Design",
            "Plans & Drawings",
        ],
        &[],
    ),
    (1035, 1, &["Asbestos Services", "Asbestos Removal"], &[]),
    (1045, 1, &["Bedrooms", "Fitted Bedrooms", "Wardrobes"], &[]),
    (1809, 1, &["Drone Surveys", "Aerial Surveys"], &[]),
    (1110, 1, &["Furniture Restoration", "Restorations"], &[]),
    (1066, 1, &["Hire", "Plant Hire"], &[]),
    (1906, 1, &["Home Cinema", "Smart Homes", "AV"], &[]),
    (1120, 1, &["Water Treatment", "Water Softeners"], &[]),
    (1294, 1, &["Interiors", "Interior Design"], &[]),
    (1734, 1, &["IT Services", "IT Support", "Computers"], &[]),
    (1828, 1, &["Lettings Services", "Landlord Services"], &[]),
    (762, 1, &["Lofts", "Loft Ladders", "Loft Boarding"], &[]),
    (1050, 1, &["Metalwork", "Forge", "Fabrications"], &[]),
    (6, 1, &["Services"], &[]),
    (1105, 1, &["Mobility", "Mobility Solutions"], &[]),
    (706, 1, &["Motorhomes", "Leisure Vehicles"], &[]),
    (1373, 1, &["Shopfitting", "Shopfitters"], &[]),
    (1002, 1, &["Stonemasons", "Stone", "Masonry"], &[]),
    (1867, 1, &["Surface Repairs", "Repair Specialists"], &[]),
    (1813, 1, &["Surveyors", "Surveying"], &[]),
    (1160, 1, &["Pools & Spas", "Hot Tubs", "Pools"], &[]),
    (667, 1, &["Telecoms", "Communications"], &[]),
    (1388, 1, &["Recovery", "Towing & Recovery"], &[]),
    (1177, 1, &["Transport", "Couriers", "Travel"], &[]),
    (1330, 1, &["Coatings", "Protective Coatings"], &[]),
];
