//! The default screen against realistic descriptions: real UK homeowner jobs
//! must pass and typical junk must not. A change to any rule that flags one of
//! these jobs is a regression for real customers.

use super::*;

fn assess(description: &str) -> Assessment {
    SpamScreen::default().assess(&SpamInput {
        description,
        first_name: "Gareth",
        last_name: "Evans",
        email: "gareth.evans@example.co.uk",
        phone: "029 2018 0123",
        postcode: "CF10 1EP",
        history: Default::default(),
    })
}

pub(super) const REAL_JOBS: &[&str] = &[
    // From the issue.
    "Boiler not working, no hot water",
    "Leaking tap in kitchen needs fixing",
    "Need 3 sockets added in the lounge",
    "Roof tiles blown off in storm",
    "Garden fence panels down after wind",
    "EICR certificate needed for rental flat",
    "Bathroom extractor fan stopped working",
    "Replace 2 radiators, one leaking",
    "Blocked drain outside back door",
    "Lock snapped, can't open front door!!",
    // Plumbing and heating.
    "Combi boiler showing F28 fault code, pressure keeps dropping below 1 bar",
    "Annual gas safety check for 2 bed terraced house, landlord certificate needed (CP12)",
    "Toilet keeps running after flushing, think it's the fill valve",
    "Need quote ASAP!!! Water coming through the kitchen ceiling from upstairs bathroom",
    "Power flush wanted, radiators cold at the bottom. 8 rads, Worcester Bosch 30i about 10 years old",
    "Outside tap frozen and split over winter, needs replacing",
    "Move washing machine plumbing 2m along the wall to make room for a dishwasher",
    // Electrics.
    "Upgrade consumer unit to 18th edition, old fuse box with rewirable fuses",
    "Fit EV charger on driveway, cable run about 12m from meter cupboard",
    "Lights tripping the RCD whenever it rains. Outside lights on back wall, 3 of them",
    "Replace 6 downlights in kitchen with LED, ceiling height 2.4m",
    "Full rewire of 1930s semi, 3 bed, currently empty so easy access. Budget around £5,000",
    // Building, roofing and outdoor.
    "Flat roof over garage leaking, felt is about 20 years old. Roughly 3.5m x 2m",
    "Chimney stack needs repointing and new flashing, 2 storey house",
    "Gutters overflowing at the front, probably blocked with moss",
    "Lay patio at the back, approx 4m x 3m, Indian sandstone, slabs already bought",
    "Knock through between kitchen and dining room, load bearing wall, need RSJ and building control sign off",
    "Damp patch on bedroom wall under the window, getting worse since October",
    "Tarmac driveway for 2 cars, old concrete cracked and needs breaking out",
    "Replace 10 fence panels (6ft x 6ft) and 3 concrete posts, access via side gate",
    "Garden wall leaning after the storm, about 8 metres long and 1.2m high",
    // Joinery, decorating, flooring.
    "Hang 4 internal doors, oak veneer, doors and handles supplied",
    "Paint hallway, stairs and landing. Walls and ceilings, white woodwork. Available from 14th March",
    "Fit laminate flooring in lounge, 5.2m x 3.8m, underlay needed",
    "Built in wardrobes in alcoves either side of chimney breast, about 90cm wide each",
    "Sash window sticking and rattling, cord snapped on one side",
    "Tile splashback behind hob and sink, roughly 3 square metres, tiles bought from Topps Tiles",
    "Plaster 2 walls after wallpaper removal, bedroom 3m x 3.5m",
    // Locks, glazing, appliances, cleaning, pests, other.
    "Misted double glazed unit in bedroom window, 1200mm x 1050mm",
    "uPVC back door won't lock, handle goes all the way round",
    "Wasps nest in the loft, kids are scared to go in the garden",
    "End of tenancy clean for 2 bed flat in SW11 4NJ, oven included please",
    "Washing machine not draining, Bosch Serie 4, error E18",
    "Mice in kitchen cupboards and loft. Can hear them at night.",
    "Loft insulation top up to 270mm, loft is about 40 square metres, boarded over the middle",
    "Install new bathroom: supply and fit shower over bath, toilet and basin. Tiles floor to ceiling, room is 2.1m x 1.9m. Old suite to be removed and taken away. Looking to start early next month, budget £6k-£8k. Please call after 5pm on 07700 900789 or email me at gareth.evans@example.co.uk",
    "Hi, we've just moved into a Victorian terrace in Leeds (LS6 2AB) and the survey flagged a few things. Cracked hearth in the front room, loose handrail on the stairs, and a slipped slate on the rear roof. Happy to have one trade do the lot if possible. Thanks!",
    "Shower pump very noisy, 1.5 bar Salamander. Please help!!!!!",
    "Water pouring through the light fitting in the hall, need someone today!!!!!!!",
    "Carpet needs stretching on stairs and landing, 14 stairs",
    "Aerial realignment - lost all Freeview channels after the wind on Sunday.",
    "Kitchen worktop burn mark near hob, 38mm oak, can it be repaired or replaced? Length 3m.",
];

#[test]
fn real_homeowner_jobs_are_not_spam() {
    assert!(REAL_JOBS.len() >= 40);
    let flagged: Vec<(&str, Assessment)> = REAL_JOBS
        .iter()
        .map(|job| (*job, assess(job)))
        .filter(|(_, assessment)| assessment.is_spam)
        .collect();
    assert!(
        flagged.is_empty(),
        "real jobs flagged as spam: {flagged:#?}"
    );
}

#[test]
fn real_homeowner_jobs_have_no_reasons_except_a_weak_one_for_shouting() {
    let with_reasons: Vec<(&str, Vec<&str>)> = REAL_JOBS
        .iter()
        .map(|job| (*job, assess(job).reasons))
        .filter(|(_, reasons)| !reasons.is_empty())
        .map(|(job, reasons)| (job, reasons.iter().map(|r| r.signal).collect()))
        .collect();
    assert_eq!(
        with_reasons,
        [(
            "Water pouring through the light fitting in the hall, need someone today!!!!!!!",
            vec!["repeated_characters"]
        )]
    );
}

#[test]
fn typical_junk_is_spam_and_the_reasons_name_the_signals() {
    for (description, signals) in [
        ("test", &["thin"][..]),
        ("asdf asdf", &["thin"]),
        ("Buy cheap watches at www.cheap-watches.ru", &["link"]),
        ("Visit https://bit.ly/xyz for SEO services", &["link"]),
        ("aaaaaaaaaaaaaaaaa", &["thin", "repeated_characters"]),
        ("fix fix fix fix fix fix", &["thin"]),
        ("??????????? !!!!!!!!!!!", &["thin", "repeated_characters"]),
        ("click here http://spam.example.com/offer", &["link"]),
        (".......... .........", &["thin", "repeated_characters"]),
        ("lorem ipsum dolor sit amet", &["thin"]),
    ] {
        let assessment = assess(description);
        assert!(assessment.is_spam, "{description:?}: {assessment:?}");
        let found: Vec<&str> = assessment.reasons.iter().map(|r| r.signal).collect();
        assert_eq!(found, signals, "{description:?}");
        let sum: f64 = assessment.reasons.iter().map(|r| r.weight).sum();
        assert_eq!(assessment.score, sum, "{description:?}");
    }
}
