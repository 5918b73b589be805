//! Trading names agree with the categories trades register for, judged by a
//! list of trade words of this test's own (not the generator's tables): what
//! a business whose name carries the word may plausibly be registered for.

use super::{full, geography, tree};
use intake_core::directory::matching::choose_recipients;
use intake_core::postcode::Postcode;

/// A trade word and the parent categories a business named with it may do.
const PLAUSIBLE: &[(&str, &[u32])] = &[
    // Plumbers do heating, drains and bathrooms; heating firms do no plumbing.
    ("Plumbing", &[20, 10, 21, 1038]),
    ("Plumbers", &[20, 10, 21, 1038]),
    ("Heating", &[10, 1095, 1172, 757]),
    ("Gas", &[10, 1095, 1029]),
    ("Boiler", &[10, 1095]),
    ("Electrical", &[12, 1021, 1172, 1906, 9]),
    ("Electrics", &[12, 1021, 1172, 1906, 9]),
    ("Electricians", &[12, 1021, 1172, 1906, 9]),
    ("Builders", &[2, 1379, 38, 1349, 1350, 855, 1002, 24]),
    ("Building", &[2, 1379, 38, 1349, 1350, 855, 1002, 24]),
    ("Construction", &[2, 1379, 38, 1349, 855, 1002, 24]),
    ("Maintenance", &[1350, 1349, 2, 13, 15, 1207]),
    ("Property", &[1349, 1350, 1828]),
    ("Roofing", &[1189, 1862, 1114, 1330]),
    ("Roofers", &[1189, 1862, 1114, 1330]),
    ("Roofline", &[1862, 1189, 1125]),
    ("Fascias", &[1862, 1189]),
    ("Guttering", &[1862, 1189, 1125]),
    ("Decorators", &[15]),
    ("Decorating", &[15]),
    ("Painting", &[15]),
    ("Painters", &[15]),
    ("Garden", &[5, 688, 1211, 988, 1207]),
    ("Gardens", &[5, 688, 1211, 988, 1207]),
    ("Gardening", &[5, 688, 1211, 988, 1207]),
    ("Gardeners", &[5, 688, 1211, 988, 1207]),
    ("Landscape", &[688, 5, 24, 1207, 1211]),
    ("Landscapes", &[688, 5, 24, 1207, 1211]),
    ("Landscaping", &[688, 5, 24, 1207, 1211]),
    ("Cleaning", &[1125, 1907, 1140, 1138]),
    ("Cleaners", &[1125, 1907, 1140, 1138]),
    ("Carpentry", &[13, 22, 1045, 14, 1350]),
    ("Joinery", &[13, 22, 1045, 14, 1350]),
    ("Joiners", &[13, 22, 1045, 14, 1350]),
    ("Handyman", &[1350, 1349, 13, 15, 1207]),
    ("Plastering", &[855]),
    ("Plasterers", &[855]),
    ("Rendering", &[855]),
    ("Locksmith", &[17, 1021]),
    ("Locksmiths", &[17, 1021]),
    ("Locks", &[17, 1021]),
    ("Bathroom", &[1038, 1014, 20]),
    ("Bathrooms", &[1038, 1014, 20]),
    ("Window", &[11, 1140]),
    ("Windows", &[11, 1115, 1862]),
    ("Doors", &[11, 19, 13]),
    ("Glazing", &[11, 1115, 1862]),
    ("Glass", &[11, 1115]),
    ("Glaziers", &[11, 1115]),
    ("Kitchen", &[22, 13, 1014]),
    ("Kitchens", &[22, 13, 1014]),
    ("Driveways", &[24, 688, 38]),
    ("Paving", &[24, 688, 38]),
    ("Patios", &[24, 688, 38]),
    ("Tiling", &[1014]),
    ("Tilers", &[1014]),
    ("Fencing", &[1207, 688]),
    ("Gates", &[1207, 688]),
    ("Drainage", &[21]),
    ("Drain", &[21]),
    ("Clearance", &[21, 834]),
    ("Clearances", &[834]),
    ("Flooring", &[14]),
    ("Floors", &[14]),
    ("Carpets", &[14]),
    ("Carpet", &[14, 1907]),
    ("Upholstery", &[1907, 1110]),
    ("Tree", &[988, 5]),
    ("Arboriculture", &[988, 5]),
    ("Brickwork", &[1379, 2, 1002]),
    ("Bricklaying", &[1379, 2, 1002]),
    ("Brick", &[1379, 2, 1002]),
    ("Stone", &[1002, 1379]),
    ("Stonemasons", &[1002, 1379]),
    ("Masonry", &[1002, 1379]),
    ("Damp", &[1011]),
    ("Timber", &[1011]),
    ("Pest", &[1159]),
    ("Removals", &[1164, 834]),
    ("Waste", &[834]),
    ("Rubbish", &[834]),
    ("Appliance", &[1029]),
    ("Security", &[1021, 12, 17]),
    ("Alarms", &[1021, 12]),
    ("Groundworks", &[38, 24, 21, 2]),
    ("Civils", &[38, 24, 21, 2]),
    ("Improvements", &[1349, 1350]),
    ("Renewables", &[1172, 10, 12]),
    ("Renewable", &[1172, 10, 12]),
    ("Solar", &[1172, 12]),
    ("Insulation", &[875, 762]),
    ("Aerials", &[9]),
    ("Aerial", &[9, 1809]),
    ("Satellite", &[9]),
    ("Stoves", &[1095, 1109]),
    ("Stove", &[1095, 1109]),
    ("Fireplaces", &[1095, 1109]),
    ("Chimney", &[1109, 1095, 1189]),
    ("Oven", &[1138, 1125]),
    ("Lawn", &[1211, 5]),
    ("Grass", &[1211, 5]),
    ("Scaffolding", &[1114]),
    ("Air", &[757]),
    ("Climate", &[757]),
    ("Motors", &[7]),
    ("Autos", &[7]),
    ("Vehicle", &[7, 1388]),
    ("Vehicles", &[706, 7]),
    ("Blinds", &[1151, 11]),
    ("Shutters", &[1151, 11]),
    ("Curtains", &[1151]),
    ("Architectural", &[1802]),
    ("Plans", &[1802]),
    ("Asbestos", &[1035]),
    ("Bedrooms", &[1045, 13]),
    ("Wardrobes", &[1045, 13]),
    ("Drone", &[1809]),
    ("Surveys", &[1809, 1813]),
    ("Furniture", &[1110, 13]),
    ("Restorations", &[1110]),
    ("Hire", &[1066]),
    ("Cinema", &[1906]),
    ("Smart", &[1906]),
    ("AV", &[1906]),
    ("Water", &[1120]),
    ("Interiors", &[1294]),
    ("Interior", &[1294]),
    ("IT", &[1734]),
    ("Computers", &[1734]),
    ("Lettings", &[1828]),
    ("Landlord", &[1828]),
    ("Lofts", &[762, 875]),
    ("Loft", &[762, 875]),
    ("Metalwork", &[1050]),
    ("Forge", &[1050]),
    ("Fabrications", &[1050]),
    ("Mobility", &[1105]),
    ("Motorhomes", &[706]),
    ("Shopfitting", &[1373]),
    ("Shopfitters", &[1373]),
    ("Surface", &[1867]),
    ("Repair", &[1867]),
    ("Surveyors", &[1813]),
    ("Surveying", &[1813]),
    ("Pools", &[1160]),
    ("Tubs", &[1160]),
    ("Telecoms", &[667]),
    ("Communications", &[667]),
    ("Recovery", &[1388, 7]),
    ("Towing", &[1388, 7]),
    ("Transport", &[1177, 1164]),
    ("Couriers", &[1177, 1164]),
    ("Travel", &[1177]),
    ("Coatings", &[1330]),
    // Only the miscellaneous trades are named with nothing but "Services".
    ("Services", &[6]),
];

/// The trade words of PLAUSIBLE a name carries.
fn trade_words(name: &str) -> Vec<&'static str> {
    (name.split_whitespace())
        .filter_map(|word| PLAUSIBLE.iter().find(|(known, _)| *known == word))
        .map(|(word, _)| *word)
        .collect()
}

fn plausible(word: &str) -> &'static [u32] {
    PLAUSIBLE
        .iter()
        .find(|(known, _)| *known == word)
        .map_or(&[], |p| p.1)
}

fn parent(category: u32) -> u32 {
    let found = tree().get(category).unwrap();
    found.parent.unwrap_or(found.id)
}

#[test]
fn every_category_a_trade_registers_for_fits_a_trade_word_of_its_name() {
    let mut misfits = Vec::new();
    for record in &full().records {
        let words = trade_words(&record.company_name);
        assert!(
            !words.is_empty(),
            "no trade word in {}",
            record.company_name
        );
        for &category in &record.categories {
            if !words
                .iter()
                .any(|word| plausible(word).contains(&parent(category)))
            {
                misfits.push(format!("{} for {category}", record.company_name));
            }
        }
    }
    assert_eq!(misfits, Vec::<String>::new());
}

#[test]
fn no_plasterer_cleaner_or_blinds_company_is_registered_for_heating_or_boiler_repairs() {
    for record in &full().records {
        if !record
            .categories
            .iter()
            .any(|&c| c == 10 || parent(c) == 10)
        {
            continue;
        }
        for word in [
            "Plastering",
            "Plasterers",
            "Cleaning",
            "Cleaners",
            "Oven",
            "Blinds",
        ] {
            assert!(
                !record.company_name.split_whitespace().any(|w| w == word),
                "{} is registered for {:?}",
                record.company_name,
                record.categories
            );
        }
    }
}

#[test]
fn the_first_plumbers_found_near_westminster_are_named_for_plumbing() {
    let postcode = Postcode::parse("SW1A 1AA").unwrap();
    let location = geography().locate(&postcode);
    let found = full().index.search(20, &postcode, location);
    let name = |company_id: u64| full().index.get(company_id).unwrap().company_name.clone();
    let plumbing = |name: &str| {
        name.split_whitespace()
            .any(|w| w == "Plumbing" || w == "Plumbers")
    };
    for item in &found[..10] {
        assert!(
            plumbing(&name(item.company_id)),
            "{}",
            name(item.company_id)
        );
    }
    for chosen in choose_recipients(found, |_| 0, 3) {
        let name = name(chosen.found.company_id);
        assert!(plumbing(&name), "{name}");
    }
}
