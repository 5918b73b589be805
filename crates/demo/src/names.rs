//! Trading names built the way British trades name themselves: a surname, an
//! initial, a place or a made-up brand, then the trade ("Hudson Plumbing &
//! Heating", "A. Patel Roofing", "Thameside Builders", "Brightwire Electrical Ltd").

use rand::Rng;
use std::sync::LazyLock;

/// Common surnames of Great Britain, one word each.
const SURNAMES: &str = "\
    Smith Jones Taylor Brown Williams Wilson Johnson Davies Patel Robinson Wright Thompson Evans \
    Walker White Roberts Green Hall Thomas Clarke Jackson Wood Harris Edwards Turner Martin \
    Cooper Hill Ward Hughes Moore Clark King Harrison Lewis Baker Lee Allen Morris Khan Scott \
    Watson Davis Parker James Bennett Young Phillips Richardson Mitchell Bailey Carter Cook \
    Singh Shaw Bell Collins Morgan Kelly Begum Miller Cox Marshall Simpson Anderson Ellis Adams \
    Wilkinson Ali Foster Lloyd Campbell Murray Price Webb Russell Stewart Chapman Hunt Griffiths \
    Mills Palmer Holmes Rogers Mason Barnes Knight Matthews Lawrence Butler Fisher Graham \
    Stevens Dixon Fletcher Reynolds Hudson Saunders Gibson Howard Pearson Owen Harvey Jenkins \
    Ahmed Hussain Sharma Nowak Kowalski Murphy O'Brien Byrne Walsh Fraser MacDonald Reid Ross \
    Grant Hamilton Kennedy Burns Robertson Paterson Duncan Hunter Morrison Sutherland Rees \
    Powell Pritchard Vaughan Bevan Howells Atkinson Barker Booth Brooks Dawson Doyle Field \
    Hammond Hartley Lambert Nolan Osborne Quinn Sheppard Tucker Wallace Yates";

const FIRST_NAMES: &[&str] = &[
    "James", "Dave", "Mark", "Paul", "Steve", "Chris", "Andy", "Gary", "Lee", "Tom", "Rob", "Matt",
    "Dan", "Ben", "Sam", "Jack", "Ryan", "Kevin", "Ian", "Neil", "Jason", "Craig", "Darren",
    "Wayne", "Tony", "Pete", "Adam", "Luke", "Josh", "Nathan", "Ravi", "Amir", "Tariq", "Piotr",
    "Tomasz", "Marek", "Sean", "Callum", "Gareth", "Rhys", "Owen", "Jamie", "Karen", "Sarah",
    "Emma", "Claire", "Lisa", "Rachel", "Helen", "Kate", "Amy", "Laura", "Jo", "Nicola", "Priya",
    "Aisha", "Sophie", "Fiona", "Megan", "Gemma",
];

const BRAND_STARTS: &[&str] = &[
    "Bright", "Pro", "Clear", "True", "Swift", "Prime", "Ever", "Key", "Blue", "Red", "Oak", "Ash",
    "Elm", "Silver", "Gold", "Apex", "Summit", "Crown", "Castle", "Hill", "Vale", "Star", "North",
    "Fair", "Sure",
];

const BRAND_ENDS: &[&str] = &[
    "line", "way", "field", "crest", "gate", "wood", "ford", "mark", "point", "bridge", "side",
    "view", "stone", "hurst", "dale", "well",
];

/// Brand endings that only suit one line of work, by parent id.
const TRADE_BRAND_ENDS: &[(u32, &[&str])] = &[
    (12, &["wire", "spark", "volt"]),
    (20, &["flow", "tap"]),
    (10, &["heat", "therm", "flame"]),
    (1189, &["slate", "ridge"]),
    (5, &["leaf", "green"]),
    (1125, &["shine", "sparkle"]),
];

/// Place words by postcode area (`area:word|word; ...`), for names such as
/// "Thameside Builders".
const AREA_PLACES: &str = "\
    AB:Aberdeen|Deeside; AL:St Albans|Hertfordshire; B:Birmingham|Midland|Brum; BA:Bath|Mendip; \
    BB:Blackburn|Pennine; BD:Bradford|Airedale; BH:Bournemouth|Wessex; BL:Bolton; \
    BN:Brighton|Sussex|Downland; BR:Bromley|Kent; BS:Bristol|Avon; BT:Ulster|Province; \
    CA:Carlisle|Cumbria|Lakeland; CB:Cambridge|Fenland; CF:Cardiff|Taff; CH:Chester|Wirral; \
    CM:Chelmsford|Essex; CO:Colchester|Essex; CR:Croydon; CT:Canterbury|Kent; \
    CV:Coventry|Warwickshire; CW:Cheshire; DA:Dartford|Kent; DD:Dundee|Tayside; DE:Derby|Peak; \
    DG:Dumfries|Galloway; DH:Durham|Wearside; DL:Darlington|Dales; DN:Doncaster; DT:Dorset; \
    DY:Dudley|Black Country; E:Eastside|London; EC:City|London; EH:Edinburgh|Lothian; EN:Enfield; \
    EX:Exeter|Devon; FK:Falkirk|Forth Valley; FY:Fylde|Blackpool; G:Glasgow|Clyde; \
    GL:Cotswold|Gloucester; GU:Guildford|Surrey; GY:Guernsey|Sarnia; HA:Harrow; \
    HD:Huddersfield|Kirklees; HG:Harrogate|Nidd; HP:Chiltern; HR:Hereford|Wye; \
    HS:Hebridean|Island; HU:Hull|Humber; HX:Halifax|Calder; IG:Ilford; IM:Manx|Mona; \
    IP:Ipswich|Suffolk; IV:Inverness|Highland; JE:Jersey|Island; KA:Ayrshire; KT:Kingston|Surrey; \
    KW:Orkney|Caithness; KY:Fife|Kingdom; L:Liverpool|Mersey; LA:Lancaster|Lune; LD:Powys; \
    LE:Leicester|Charnwood; LL:Snowdonia|Gwynedd|Conwy; LN:Lincoln|Wolds; LS:Leeds|Aire; \
    LU:Luton|Chiltern; M:Manchester|Mancunian; ME:Medway|Kent; MK:Milton Keynes; ML:Lanarkshire; \
    N:North London; NE:Tyneside|Northumbria; NG:Nottingham|Trent; NN:Northampton|Nene; \
    NP:Newport|Gwent; NR:Norwich|Norfolk|Broadland; NW:North West London; OL:Oldham|Pennine; \
    OX:Oxford|Cherwell; PA:Paisley|Renfrew; PE:Peterborough|Fenland; PH:Perth|Tayside; \
    PL:Plymouth|Tamar; PO:Portsmouth|Solent; PR:Preston|Ribble; RG:Reading|Thames Valley; \
    RH:Redhill|Weald; RM:Romford|Havering; S:Sheffield|Steel City; SA:Swansea|Gower; \
    SE:Thameside|South London; SG:Stevenage|Hertfordshire; SK:Stockport|Peak; SL:Slough|Windsor; \
    SM:Sutton; SN:Swindon|Wiltshire; SO:Southampton|Solent; SP:Salisbury|Wiltshire; \
    SR:Sunderland|Wearside; SS:Southend|Estuary; ST:Stoke|Potteries; \
    SW:Thameside|South West London; SY:Shrewsbury|Shropshire; TA:Taunton|Somerset; \
    TD:Borders|Tweed; TF:Telford|Wrekin; TN:Tunbridge|Weald; TQ:Torbay|South Devon; \
    TR:Cornwall|Kernow; TS:Teesside|Cleveland; TW:Twickenham|Thames; UB:Uxbridge; W:West London; \
    WA:Warrington|Cheshire; WC:London; WD:Watford; WF:Wakefield|Calder; WN:Wigan; \
    WR:Worcester|Malvern; WS:Walsall; WV:Wolverhampton; YO:York|Yorkshire|Ouse; \
    ZE:Shetland|Island";

static SURNAME_LIST: LazyLock<Vec<&str>> = LazyLock::new(|| SURNAMES.split_whitespace().collect());

static AREA_PLACE_LIST: LazyLock<Vec<(&str, Vec<&str>)>> = LazyLock::new(|| {
    (AREA_PLACES.split(';'))
        .filter_map(|entry| entry.trim().split_once(':'))
        .map(|(area, words)| (area, words.split('|').collect()))
        .collect()
});

fn one<'a>(rng: &mut impl Rng, words: &[&'a str]) -> &'a str {
    words[rng.gen_range(0..words.len())]
}

/// A trading name for a trade whose main parent is `parent` and whose kind of
/// business is called `trade` (e.g. "Plumbing & Heating"), based in postcode
/// area `area` (e.g. `SW`).
pub(super) fn company_name(rng: &mut impl Rng, parent: u32, trade: &str, area: &str) -> String {
    let surname = one(rng, &SURNAME_LIST);
    let stem = match rng.gen_range(0..100) {
        0..=29 => surname.to_owned(),
        30..=44 => format!("{}. {surname}", &one(rng, FIRST_NAMES)[..1]),
        45..=59 => place(rng, area).unwrap_or(surname).to_owned(),
        60..=71 => brand(rng, parent),
        72..=81 => format!("{surname} & Sons"),
        82..=89 => format!("{} {surname}", one(rng, FIRST_NAMES)),
        _ => format!("{surname} & {}", one(rng, &SURNAME_LIST)),
    };
    let limited = if rng.gen_bool(0.3) { " Ltd" } else { "" };
    format!("{stem} {trade}{limited}")
}

fn place(rng: &mut impl Rng, area: &str) -> Option<&'static str> {
    let (_, words) = AREA_PLACE_LIST.iter().find(|(code, _)| *code == area)?;
    Some(one(rng, words))
}

fn brand(rng: &mut impl Rng, parent: u32) -> String {
    let start = one(rng, BRAND_STARTS);
    let special = TRADE_BRAND_ENDS
        .iter()
        .find(|(id, _)| *id == parent)
        .map(|(_, ends)| *ends);
    let end = match special {
        Some(ends) if rng.gen_bool(0.5) => one(rng, ends),
        _ => one(rng, BRAND_ENDS),
    };
    if start.eq_ignore_ascii_case(end) {
        format!("{start}point")
    } else {
        format!("{start}{end}")
    }
}

/// The mail domain label of a trading name: its letters and digits, lower
/// case, without a trailing "Ltd", at most 40 characters.
pub(super) fn slug(name: &str) -> String {
    let name = name.strip_suffix(" Ltd").unwrap_or(name);
    let slug: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .take(40)
        .collect();
    if slug.is_empty() {
        "trade".to_owned()
    } else {
        slug
    }
}
