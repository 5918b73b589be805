#!/usr/bin/env python3
"""Builds data/categories.json from the 2021 category dump plus our additions.

Usage (from the repository root):

    python3 tools/build_categories.py [PATH_TO_categories-2021.json]

The default input is ../shared/data/categories-2021.json relative to the
repository root. Output is data/categories.json. Python 3 standard library only;
running it twice gives byte-identical output. docs/categories.md explains every
rule applied here.
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_INPUT = ROOT.parent / "shared" / "data" / "categories-2021.json"
OUTPUT = ROOT / "data" / "categories.json"

# Ids of 2021 are stable keys; our additions count up from here, in ADDITIONS order.
FIRST_NEW_ID = 1971
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# Our additions: (parent id, label). APPEND ONLY: an addition's id is FIRST_NEW_ID
# plus its position in this list, so reordering or deleting would change ids that
# integrators may already store. Labels and slugs must be new across the whole tree.
ADDITIONS = [
    (2, "Single Storey Extensions"), (2, "Double Storey Extensions"),
    (2, "Load Bearing Wall Removal"), (2, "Chimney Breast Removal"),
    (5, "Leaf Clearance"), (5, "Ivy Removal"),
    (7, "Brake Repairs"), (7, "Hybrid / Electric Vehicle Servicing"),
    (9, "Aerial Signal Boosters"),
    (10, "Heat Pump Servicing / Repair"), (10, "Back Boiler Removal"),
    (10, "Boiler Relocation"), (10, "Magnetic System Filter Fitting"),
    (11, "Roof Lanterns"),
    (12, "Socket and Switch Installation"), (12, "Outdoor Sockets"),
    (12, "Extractor Fan Installation"), (12, "Security Lighting"),
    (12, "Video Doorbell Installation"),
    (13, "Wall Panelling"), (13, "Under Stairs Storage"),
    (13, "Banister / Spindle Replacement"),
    (14, "LVT Flooring"), (14, "Engineered Wood Flooring"),
    (15, "Interior Painting"), (15, "Wallpaper Removal"),
    (17, "Burglary Repairs"),
    (19, "Roller Garage Doors"), (19, "Sectional Garage Doors"),
    (19, "Garage Door Servicing"),
    (20, "Outside Tap Installation"), (20, "Toilet Repair / Replacement"),
    (20, "Sink / Basin Installation"), (20, "Appliance Plumbing"),
    (20, "Stopcock Replacement"), (20, "Water Softener Installation"),
    (21, "Drain Jetting"), (21, "Manhole Repairs"),
    (21, "Septic Tank Upgrades (General Binding Rules)"),
    (22, "Kitchen Islands"), (22, "Kitchen Cabinet Wrapping"),
    (24, "Porcelain Paving"), (24, "Indian Sandstone Paving"),
    (38, "Site Clearance"), (38, "Land Drainage"), (38, "Retaining Walls"),
    (667, "Digital Landline Switchover"),
    (688, "Pergolas"), (688, "Raised Beds"),
    (706, "Motor Home Habitation Checks"),
    (757, "Air Conditioning Installation"), (757, "Air Conditioning Servicing"),
    (757, "Air Conditioning Repair"), (757, "Air to Air Heat Pumps"),
    (762, "Raised Loft Flooring"),
    (834, "Garden Waste Removal"), (834, "Builders Waste Removal"),
    (834, "Furniture Disposal"),
    (855, "Artex Removal"), (855, "Plaster Repairs"),
    (875, "Underfloor Insulation"), (875, "Internal Wall Insulation"),
    (875, "Spray Foam Insulation Removal"),
    (988, "Tree Surveys"), (988, "Tree Preservation Order Applications"),
    (1002, "Stone Cladding"),
    (1011, "Wet Rot Treatment"), (1011, "Positive Input Ventilation"),
    (1014, "Bathroom Tiling"), (1014, "Regrouting"),
    (1021, "Alarm Servicing"),
    (1029, "Appliance Installation"), (1029, "Washer Dryer Repair"),
    (1035, "Asbestos Garage Roof Removal"),
    (1038, "En Suite Installation"), (1038, "Walk In Showers"),
    (1038, "Bath to Shower Conversion"), (1038, "Downstairs Toilet Installation"),
    (1045, "Walk In Wardrobes"),
    (1050, "Juliet Balconies"),
    (1066, "Dehumidifier Hire"),
    (1095, "Stove Servicing"), (1095, "Fireplace Opening Up"),
    (1105, "Through Floor Lifts"), (1105, "Grab Rail Fitting"),
    (1105, "Stairlift Servicing / Repair"),
    (1109, "Chimney Bird Nest Removal"), (1109, "Chimney CCTV Inspections"),
    (1110, "Sofa Repair"),
    (1114, "Domestic Scaffolding"), (1114, "Temporary Roofs"),
    (1115, "Boarding Up"),
    (1120, "Reverse Osmosis Systems"), (1120, "Water Softener Servicing"),
    (1125, "After Builders Cleaning"),
    (1138, "Range Cooker Cleaning"), (1138, "Cooker Hood Cleaning"),
    (1140, "Residential Window Cleaning"), (1140, "Commercial Window Cleaning"),
    (1151, "Blind Repairs"),
    (1159, "Rat Control"), (1159, "Mouse Control"), (1159, "Bed Bug Treatment"),
    (1159, "Flea Treatment"), (1159, "Moth Control"),
    (1160, "Swimming Pool Heating"),
    (1164, "Office Removals"),
    (1172, "Solar Panel Bird Proofing"), (1172, "Solar Panel Repairs"),
    (1189, "Roof Inspections"), (1189, "Garage Roof Replacement"),
    (1189, "Chimney Stack Removal"),
    (1207, "Fence Post Replacement"), (1207, "Composite Fencing"),
    (1211, "Regular Lawn Mowing"), (1211, "Overgrown Grass Cutting"),
    (1211, "Paddock Mowing"),
    (1294, "Home Staging"), (1294, "Colour Consultancy"),
    (1350, "Odd Jobs"), (1350, "Picture and Mirror Hanging"),
    (1373, "Shop Fronts"),
    (1379, "Garden Walls"), (1379, "Chimney Rebuilding"),
    (1734, "Virus and Malware Removal"),
    (1802, "Building Regulations Drawings"), (1802, "Lawful Development Certificates"),
    (1809, "Drone Solar Panel Inspections"),
    (1813, "RICS Building Survey (Level 3)"), (1813, "Snagging Surveys"),
    (1828, "Void Property Maintenance"),
    (1862, "Cast Iron Guttering"), (1862, "Gutter Guards"),
    (1906, "Smart Lighting Systems"),
    (1907, "Mattress Cleaning"), (1907, "Pet Odour Removal"),
]

# A category is a "merchant" (sells goods; no service a homeowner hires) when its
# label holds one of RETAIL_WORDS and none of SERVICE_WORDS, as whole words.
RETAIL_WORDS = {"merchant", "merchants", "supplier", "suppliers", "supplies",
                "supplied", "showroom", "retailer", "dealerships", "sales"}
SERVICE_WORDS = {"installer", "installation", "installed", "fitter", "fitting",
                 "hire", "maintenance", "servicing", "repair", "repairs"}


# Words left in lower case inside a label ("Made to Measure Blinds").
SMALL_WORDS = {"a", "and", "for", "in", "of", "or", "the", "to", "with"}
# Plain typos of the 2021 dump, fixed by id (the slug is kept: it is already in use).
LABEL_FIXES = {1655: "VoIP Telephony"}


def clean_label(label):
    """Trims, collapses whitespace runs to one space, capitalises lower-case words.

    Only words that start with a lower-case letter change ("Window film" becomes
    "Window Film"); acronyms and mixed case ("UPVC", "VoIP") are left alone.
    """
    words = label.split()
    return " ".join(
        w[0].upper() + w[1:] if w[0].islower() and (i == 0 or w not in SMALL_WORDS) else w
        for i, w in enumerate(words))


def slugify(label):
    """Lowercase ASCII letters and digits, runs of anything else become one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def node(raw):
    label = clean_label(LABEL_FIXES.get(raw["id"], raw["label"]))
    name = raw.get("name")
    if not isinstance(name, str) or not SLUG.match(name):
        name = slugify(label)
    return {"id": raw["id"], "label": label, "name": name, "subcategories": []}


def is_merchant(label):
    """True for sellers of goods (merchants, suppliers, showrooms, sales)."""
    words = set(re.findall(r"[a-z]+", label.lower()))
    return bool(words & RETAIL_WORDS) and not words & SERVICE_WORDS


def sort_key(category):
    return (category["label"].casefold(), category["id"])


def load(path):
    """Reads the dump: two levels, labels cleaned, ids and valid slugs kept."""
    parents = []
    for raw in json.loads(Path(path).read_text(encoding="utf-8")):
        parent = node(raw)
        for sub in raw.get("subcategories", []):
            if sub.get("subcategories"):
                sys.exit(f"category {sub['id']}: the dump has a third level")
            parent["subcategories"].append(node(sub))
        parents.append(parent)
    return parents


def all_nodes(parents):
    for parent in parents:
        yield parent
        yield from parent["subcategories"]


def extend(parents):
    """Adds ADDITIONS under their parents, refusing any clash with what exists."""
    by_id = {p["id"]: p for p in parents}
    old_max = max(n["id"] for n in all_nodes(parents))
    if FIRST_NEW_ID <= old_max:
        sys.exit(f"FIRST_NEW_ID {FIRST_NEW_ID} must be above the 2021 maximum {old_max}")
    slugs = {n["name"] for n in all_nodes(parents)}
    labels = {n["label"].casefold() for n in all_nodes(parents)}
    for offset, (parent_id, label) in enumerate(ADDITIONS):
        sub = node({"id": FIRST_NEW_ID + offset, "label": label})
        if parent_id not in by_id:
            sys.exit(f"addition {label!r}: no parent {parent_id}")
        if sub["name"] in slugs or sub["label"].casefold() in labels:
            sys.exit(f"addition {label!r}: label or slug {sub['name']!r} already exists")
        slugs.add(sub["name"])
        labels.add(sub["label"].casefold())
        by_id[parent_id]["subcategories"].append(sub)


def flag(parents):
    """Sets noindex/nofollow by the rule written down in docs/categories.md."""
    primary = {}
    for n in all_nodes(parents):
        primary[n["name"]] = min(primary.get(n["name"], n["id"]), n["id"])
    for n in all_nodes(parents):
        merchant = is_merchant(n["label"])
        n["noindex"] = merchant or primary[n["name"]] != n["id"]
        n["nofollow"] = merchant


def check(parents):
    """Refuses to write a tree that the service would reject or that breaks a promise."""
    nodes = list(all_nodes(parents))
    ids = [n["id"] for n in nodes]
    problems = []
    if len(ids) != len(set(ids)):
        problems.append("duplicate ids")
    if len(nodes) <= 1000:
        problems.append(f"only {len(nodes)} categories; the tree must hold over 1,000")
    for n in nodes:
        if not n["label"] or not SLUG.match(n["name"]):
            problems.append(f"category {n['id']}: blank label or bad slug {n['name']!r}")
    for parent in parents:
        labels = [s["label"].casefold() for s in parent["subcategories"]]
        if len(labels) != len(set(labels)):
            problems.append(f"parent {parent['id']}: two sub categories share a label")
    if problems:
        sys.exit("\n".join(problems))


def render(parents):
    """One parent per line opening, one sub category per line."""
    def obj(n):
        fields = {k: n[k] for k in ("id", "label", "name", "noindex", "nofollow")}
        return json.dumps(fields, ensure_ascii=False)[:-1]

    out = []
    for i, parent in enumerate(parents):
        subs = parent["subcategories"]
        if not subs:
            out.append(f'  {obj(parent)}, "subcategories": []}}')
        else:
            lines = [f'    {obj(s)}, "subcategories": []}}' for s in subs]
            out.append(f'  {obj(parent)}, "subcategories": [\n' + ",\n".join(lines) + "\n  ]}")
        if i + 1 < len(parents):
            out[-1] += ","
    return "[\n" + "\n".join(out) + "\n]\n"


def main():
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_INPUT
    parents = load(source)
    before = sum(1 for _ in all_nodes(parents))
    extend(parents)
    flag(parents)
    parents.sort(key=sort_key)
    for parent in parents:
        parent["subcategories"].sort(key=sort_key)
    check(parents)
    ids = [n["id"] for n in all_nodes(parents)]
    OUTPUT.write_text(render(parents), encoding="utf-8")
    subs = sum(len(p["subcategories"]) for p in parents)
    print(f"{OUTPUT.relative_to(ROOT)}: {len(parents)} parents, {subs} sub categories, "
          f"{len(ids) - before} new, {len(ids)} in all; "
          f"noindex {sum(n['noindex'] for n in all_nodes(parents))}, "
          f"nofollow {sum(n['nofollow'] for n in all_nodes(parents))}")


if __name__ == "__main__":
    main()
