//! The words of demo reviews: jobs by parent category, and comments and
//! titles by how the job went.

use std::sync::LazyLock;

/// What was done, by parent id, one job a line as `title | what was done`,
/// for the parents most reviews are about.
const JOBS: &[(u32, &str)] = &[
    (
        20,
        "Leaking pipe fixed fast | Found and fixed a leak under the kitchen floor the same day
         New bathroom suite plumbed in | Plumbed in a new toilet, basin and shower
         Outside tap fitted | Fitted an outside tap for the garden
         Blocked toilet sorted | Cleared a blocked toilet and replaced the cistern valve
         Radiators replaced | Swapped three old radiators for new ones with thermostatic valves",
    ),
    (
        10,
        "New combi boiler fitted | Replaced our old system boiler with a new combi
         Boiler serviced | Annual boiler service and gas safety check
         Heating back on in a day | Found a faulty diverter valve and had the heating back on the same day
         Smart thermostat installed | Installed a smart thermostat and balanced the radiators
         Power flush and new pump | Power flushed the system and fitted a new pump",
    ),
    (
        12,
        "Rewired our kitchen | Rewired the kitchen and added extra sockets
         New consumer unit | Replaced the old fuse box with a new consumer unit
         EV charger installed | Installed an electric vehicle charger on the drive
         Lights and sockets done | Fitted LED downlights and moved several sockets
         Fault found quickly | Tracked down a tripping circuit in under an hour",
    ),
    (
        2,
        "Single storey extension | Built a single storey rear extension
         Garage conversion | Converted our garage into a home office
         Loft conversion finished on time | Completed a dormer loft conversion
         Wall knocked through | Removed a load bearing wall and fitted a steel
         Garden wall rebuilt | Rebuilt a collapsing garden wall",
    ),
    (
        1189,
        "Roof leak fixed | Found and fixed a leak around the chimney flashing
         New flat roof | Replaced the garage flat roof with rubber
         Slipped tiles replaced | Replaced slipped tiles after the storm
         Full re-roof | Stripped and re-roofed the whole house
         Chimney repointed | Repointed the chimney stack and replaced the lead",
    ),
    (
        15,
        "Whole house decorated | Painted every room downstairs
         Exterior repainted | Painted the front of the house and the windows
         Wallpapering done beautifully | Hung feature wallpaper in the living room and hall
         Hallway and stairs | Decorated the hall, stairs and landing
         Kitchen cabinets sprayed | Spray painted our kitchen cabinets",
    ),
    (
        5,
        "Garden transformed | Cleared an overgrown garden and cut back the hedges
         Regular garden maintenance | Looks after our garden every fortnight
         Hedges trimmed | Trimmed a long run of conifer hedges
         Lawn brought back to life | Scarified and treated the lawn
         Autumn tidy up | Cleared the leaves and pruned everything before winter",
    ),
    (
        1125,
        "End of tenancy clean | Did an end of tenancy clean on our flat
         Regular cleaner | Cleans our house every week
         Deep clean after building work | Deep cleaned the house after the builders left
         Kitchen deep clean | Deep cleaned the kitchen, oven included
         Office cleaning | Cleans our small office twice a week",
    ),
    (
        13,
        "Fitted wardrobes | Built fitted wardrobes in the main bedroom
         New internal doors | Hung eight new internal doors
         Under stairs storage | Built pull out storage under the stairs
         Skirting and architraves | Replaced the skirting and architraves throughout
         Bespoke shelving | Made oak shelving for the alcoves",
    ),
    (
        1350,
        "Odd jobs sorted in a day | Worked through a list of odd jobs around the house
         Flat pack assembled | Assembled a wardrobe and two chests of drawers
         Shelves and pictures hung | Put up shelves and hung pictures and a mirror
         Door fixed | Rehung a sticking door and fitted a new handle
         Curtain poles fitted | Fitted curtain poles in four rooms",
    ),
    (
        855,
        "Ceiling reskimmed | Reskimmed the living room ceiling
         Whole room plastered | Plastered a bedroom after a rewire
         Artex covered | Covered an old artex ceiling with a smooth finish
         Render on the extension | Rendered the new extension
         Patch repairs | Repaired cracked plaster in the hall",
    ),
    (
        17,
        "Locked out, back in within minutes | Got us back in after we locked ourselves out
         Locks changed after moving in | Changed all the locks on our new house
         Anti-snap locks fitted | Fitted anti-snap cylinders to the front and back doors
         Door mechanism replaced | Replaced a broken uPVC door mechanism
         Window locks fitted | Fitted locks to all the downstairs windows",
    ),
    (
        1038,
        "Stunning new bathroom | Ripped out and refitted our family bathroom
         Bath to shower conversion | Replaced the bath with a walk in shower
         En suite fitted | Fitted an en suite in the loft room",
    ),
    (
        22,
        "New kitchen fitted | Fitted a new kitchen including worktops and appliances
         Worktops replaced | Replaced our laminate worktops with quartz
         Kitchen doors replaced | Replaced all the kitchen doors and handles",
    ),
];

/// A job: its review title and what was done.
type Job = (&'static str, &'static str);

static JOB_LIST: LazyLock<Vec<(u32, Vec<Job>)>> = LazyLock::new(|| {
    (JOBS.iter())
        .map(|(parent, jobs)| {
            let jobs = jobs
                .lines()
                .filter_map(|line| line.split_once(" | "))
                .map(|(title, job)| (title.trim(), job.trim()));
            (*parent, jobs.collect())
        })
        .collect()
});

/// The jobs (title, what was done) reviews of a trade of `parent` tell of;
/// empty for parents without their own.
pub(super) fn jobs(parent: u32) -> &'static [Job] {
    JOB_LIST
        .iter()
        .find(|(id, _)| *id == parent)
        .map_or(&[], |(_, jobs)| jobs.as_slice())
}

/// Titles for any category, `{}` standing for its label.
pub(super) const GENERIC_TITLES: &[&str] = &[
    "Excellent {} service",
    "{}: highly recommended",
    "{}, great job",
    "Very pleased: {}",
];

/// What was done for any category, `{}` standing for its label in lower case.
pub(super) const GENERIC_JOBS: &[&str] = &[
    "Booked them for {} and they fitted us in within the week",
    "Used them for {} at our house",
    "Needed help with {} at short notice",
    "Got three quotes for {} and went with this firm",
];

/// Comments of a happy customer.
pub(super) const GOOD: &[&str] = &[
    "Arrived on time and kept us informed throughout.",
    "Left the place spotless.",
    "Fair price and no hidden extras.",
    "Would definitely use again.",
    "Friendly, polite and clearly knew what they were doing.",
    "Explained everything clearly before starting.",
    "The quote was clear and they stuck to it.",
    "Highly recommended.",
    "Came back to sort a small snag without any fuss.",
    "Really pleased with the finish.",
];

/// Comments of a customer with reservations.
pub(super) const MIXED: &[&str] = &[
    "Good work overall, though they were a day late starting.",
    "Job done well but communication could be better.",
    "A bit more than we expected to pay, but a decent finish.",
    "Had to chase them once for an update.",
    "Tidy enough, a few bits left for us to clear.",
];

/// Comments of an unhappy customer.
pub(super) const POOR: &[&str] = &[
    "Turned up late twice and the job took far longer than quoted.",
    "We had to call them back to put the work right.",
    "Left a mess behind.",
    "The price went up part way through the job.",
    "Poor communication throughout.",
];

/// Titles when the job went less well.
pub(super) const MIXED_TITLES: &[&str] = &[
    "Decent job",
    "Good work, slow to start",
    "Okay overall",
    "Fine in the end",
];

/// Titles when the job went badly.
pub(super) const POOR_TITLES: &[&str] = &[
    "Disappointing",
    "Not what we were promised",
    "Poor communication",
    "Finished, but not happy",
];
