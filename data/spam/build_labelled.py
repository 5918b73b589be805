#!/usr/bin/env python3
"""Builds corpus/templates.jsonl: job submissions from templates, labelled
spam or ham, one source of the corpus (corpus/README.md).

Deterministic (stdlib only, random.Random(2026)): run it again and the output
is byte-for-byte the same. Templates are filled from slot lists. Each row
names its family: the spam kind it was made as, or `templated_jobs` for the
real jobs.

    python3 data/spam/build_labelled.py > data/spam/corpus/templates.jsonl
"""

import json
import random
import sys

R = random.Random(2026)
HAM_TARGET = 420
SPAM_TARGET = 210

FIRST = ["Gareth", "Priya", "Sam", "Emma", "Oliver", "Sophie", "Mohammed", "Aisha", "James",
         "Chloe", "Liam", "Hannah", "Tom", "Megan", "Daniel", "Fatima", "Rhys", "Siobhan",
         "Connor", "Ewan", "Isla", "Kwame", "Grace", "Ben", "Lucy", "Raj", "Anna", "Jack",
         "Olivia", "Harry", "Zara", "Callum", "Niamh", "Dev", "Ruth", "Alan", "Bethan", "Jo",
         "Wojciech", "Agnieszka", "Chen", "Mei", "Ade", "Tunde", "Margaret", "Derek", "Sue"]
LAST = ["Evans", "Shah", "Jones", "Smith", "Taylor", "Brown", "Williams", "Khan", "Patel",
        "Wilson", "Thomas", "Roberts", "Walker", "Wright", "Hughes", "Murphy", "O'Neill",
        "MacDonald", "Campbell", "Davies", "Ahmed", "Okafor", "Nowak", "Kowalski", "Li",
        "Wong", "Green", "Hall", "Clarke", "Lewis", "Morgan", "Begum", "Reid", "Fraser",
        "Bennett", "Cooper", "Price", "Ellis", "Doyle", "Byrne", "Singh", "Mensah"]
DOMAINS = ["gmail.com", "hotmail.co.uk", "outlook.com", "yahoo.co.uk", "btinternet.com",
           "icloud.com", "sky.com", "live.co.uk", "talktalk.net", "virginmedia.com",
           "googlemail.com", "aol.com", "protonmail.com"]
RELAYS = ["privaterelay.appleid.com", "duck.com", "simplelogin.com"]
POSTCODES = ["CF10 1EP", "LS6 2AB", "SW11 4NJ", "BS1 5TR", "M14 5RT", "B29 6BD", "G12 8QQ",
             "EH6 5JL", "NE6 1AS", "L17 8XY", "NG7 2RD", "S10 2TN", "BN2 0GH", "OX4 1XX",
             "CB1 3AZ", "PL4 8AA", "EX2 4QD", "CV3 5FB", "LE2 1RQ", "BT9 6AZ", "AB10 1XG",
             "SA1 8PH", "N16 8JH", "E17 4PP", "SE15 3DN", "RG1 7QT", "YO10 3DD", "TR1 2HE"]
DISPOSABLE = ["mailinator.com", "10minutemail.com", "guerrillamail.com", "yopmail.com",
              "tempmail.com", "trashmail.com", "sharklasers.com", "throwawaymail.com",
              "getnada.com", "maildrop.cc", "dispostable.com", "temp-mail.org"]
SPAM_DOMAINS = ["seo-rankpro.com", "growthleads.io", "webboost-agency.net", "gmail.com",
                "outlook.com", "yahoo.com", "mail.ru", "qq.com", "hotmail.com"]


def pick(xs):
    return R.choice(xs)


def phone():
    return "07700 9%05d" % R.randint(0, 99999) if R.random() < 0.8 else "0%d 496 %04d" % (
        R.choice([20, 29, 113, 117, 121, 131, 141, 161]), R.randint(0, 9999))


def person():
    first, last = pick(FIRST), pick(LAST)
    r = R.random()
    local = pick(["%s.%s", "%s%s", "%s_%s%d"])
    if "%d" in local:
        local = local % (first.lower(), last.lower().replace("'", ""), R.randint(1, 99))
    else:
        local = local % (first.lower(), last.lower().replace("'", ""))
    domain = pick(RELAYS) if r < 0.05 else pick(DOMAINS)
    if domain != "gmail.com" and R.random() < 0.1:
        first = first[0]
    return first, last, "%s@%s" % (local, domain)


# ---------------------------------------------------------------- ham slots
ROOMS = ["kitchen", "bathroom", "lounge", "hallway", "back bedroom", "front room", "en suite",
         "loft", "utility room", "dining room", "landing", "downstairs loo", "conservatory"]
HOUSES = ["2 bed terrace", "3 bed semi", "1930s semi", "Victorian terrace", "new build",
          "ground floor flat", "bungalow", "4 bed detached", "ex council house", "2 bed flat"]
BRANDS = ["Worcester Bosch", "Vaillant", "Baxi", "Ideal Logic", "Glow-worm", "Viessmann"]
WHEN = ["asap", "this week if possible", "any weekday after 3pm", "before Christmas",
        "next month", "weekends only", "flexible on dates", "by the 14th", "urgently",
        "no rush", "before the tenants move in", "mornings are best"]
SIZES = ["3m x 4m", "about 2.5m x 3m", "roughly 12 square metres", "5.2m x 3.8m",
         "approx 20m2", "4m by 3m", "10ft x 12ft", "about 6 metres long"]
PRICES = ["£200", "£500", "£1,200", "£1500", "£3k", "£6k-£8k", "around £800", "£250 max"]

HAM = [
    "{brand} boiler not working, no hot water",
    "Boiler not working, no hot water",
    "boiler showing fault code F{n}, pressure keeps dropping",
    "no heating or hot water since {day}, {brand} combi about {n} years old",
    "Leaking tap in {room}",
    "Leaking tap",
    "tap dripping in the {room}, needs new washer or cartridge",
    "toilet keeps running after flush",
    "Toilet blocked, tried plunger, no joy",
    "radiator in {room} cold at the top, probably needs bleeding",
    "Replace {n} radiators, one is leaking",
    "Power flush needed, {n} rads, {brand} boiler",
    "Annual gas safety check for {house}, landlord cert needed",
    "Need {n} sockets added in the {room}",
    "Need {n} double sockets in {room} and outside socket for the garden",
    "Lights keep tripping the RCD when it rains",
    "Fuse box keeps tripping, no power to {room}",
    "Full rewire of {house}, budget {price}",
    "EICR certificate needed for rental flat",
    "fit EV charger on driveway, cable run about {n}m",
    "Replace {n} downlights in {room} with LED",
    "Roof tiles blown off in storm",
    "few slates missing on the roof after the wind, water coming in to {room}",
    "Flat roof over garage leaking, {size}",
    "Gutters overflowing at front, blocked with moss",
    "gutter cleaning for {house}",
    "Chimney needs repointing and new flashing",
    "Garden fence panels down after wind",
    "Replace {n} fence panels and {m} concrete posts",
    "Lay patio {size}, slabs already bought",
    "new patio wanted, {size}, indian sandstone, budget {price}",
    "Tarmac driveway for 2 cars, old concrete cracked",
    "block paving drive is sinking near the gate",
    "Blocked drain outside back door",
    "drain smells in the {room}, think the trap is blocked",
    "Damp patch on {room} wall under window, getting worse",
    "Black mould in the {room} ceiling, need it sorted and extractor fan fitted",
    "Bathroom extractor fan stopped working",
    "Lock snapped, can't open front door!!",
    "Locked out, keys left inside, {postcode}",
    "uPVC back door won't lock, handle goes all the way round",
    "Misted double glazed unit in {room} window, {mm}mm x {mm2}mm",
    "Sash window sticking, cord snapped one side",
    "Hang {n} internal doors, doors and handles supplied",
    "Paint {room} walls and ceiling, {size}",
    "Paint hallway stairs and landing, available {when}",
    "Fit laminate flooring in {room}, {size}",
    "Carpet fitting for stairs and landing, {n} stairs",
    "Plaster {n} walls in {room} after wallpaper removal",
    "skim ceiling in {room}, old artex",
    "Tile splashback behind hob, about {n} square metres",
    "Regrout shower tiles and reseal bath",
    "Silicone round bath gone mouldy, needs redoing",
    "Install new bathroom, supply and fit, budget {price}",
    "New kitchen fitting, units already delivered, {n} wall units and {m} base units",
    "Worktop has a burn mark near the hob, can it be repaired? {n}m long",
    "Washing machine not draining, error E{n}",
    "Dishwasher leaking from the bottom, {brand2}",
    "Oven not heating up, fan runs but no heat",
    "Wasps nest in the loft",
    "Mice in kitchen cupboards, can hear them at night",
    "Rats in the garden near the shed, kids play out there",
    "End of tenancy clean for {house}, oven included",
    "Deep clean before we move in, {house}, {when}",
    "Loft insulation top up to 270mm",
    "Board the loft and fit a loft ladder",
    "Knock through between kitchen and dining room, need RSJ and building control",
    "Garden wall leaning after storm, about {n} metres long",
    "Hedge cutting and garden tidy, front and back, {when}",
    "Lawn needs turfing, {size}",
    "Tree in back garden overhanging neighbours, needs cutting back",
    "Aerial realignment, lost Freeview after the wind",
    "Shed base needed {size}, concrete or slabs",
    "Shower pump very noisy, please help!!",
    "Electric shower cuts out after a few mins",
    "Outside tap frozen and split, needs replacing",
    "Move washing machine plumbing {n}m along the wall",
    "Smoke alarm keeps beeping, want mains ones fitted throughout {house}",
    "Boiler service and CP12, {house}",
    "Need quote for new {brand} combi, old back boiler to be removed",
    "Water coming through the {room} ceiling from upstairs!! need someone today",
    "Built in wardrobes in alcoves, about 90cm each",
    "Skirting boards and architrave in {room}, about {n}m",
    "Garage door spring broken, cant open it",
    "Cracked hearth, loose handrail and a slipped slate, happy for one trade to do all",
    "Survey flagged damp and rotten joist under {room} floor",
    "Soffits and fascias rotten at the back, {house}",
    "Need TV mounted on wall in {room}, cables hidden",
    "Replace kitchen tap, have the tap already",
    "Sink draining really slowly in {room}",
    "Conservatory roof leaking where it meets the house",
    "Gate post rotted, gate dragging on the ground",
    "Decking boards rotten, about {size}, replace or remove",
    "Artificial grass for back garden {size}",
    "Stair carpet worn, need quote for new carpet and fitting",
    "Pressure on boiler keeps going up to 3 bar",
    "Need a locksmith to change locks after tenant moved out, {postcode}",
]
OPENERS = ["Hi, ", "Hello, ", "Hi there, ", "Looking for someone to help: ", "Looking for a quote. ",
           "Can I get a price for this please? ", "Would like a quote. ", "Landlord here. ",
           "Hi, I'm a landlord. ", "Small business owner, for my shop: ", "Hi, I'm Sue. ",
           "Contact me for access. ", "Free most days. ", "Work needed: ", "Good morning, ",
           "Looking for a reliable trade. ", "Can you help? ", "Quick one: "]
EXTRA_HAM = [
    "Looking for a gardener to cut the grass every 2 weeks",
    "Looking for a handyman to put up shelves and a mirror, half day job",
    "Looking for a decorator for the whole house before we sell",
    "Local business owner, shop front needs repainting and sign refitting",
    "Office kitchen tap leaking, we are a small business, free after 6pm",
    "We run a cafe and the extractor hood has stopped working",
    "Want a price for a new composite front door, contact me by text",
    "Work from home office in the garden, need power run to it",
    "Need a quote for new guttering all round, bungalow, free any day",
    "Would like someone to look at the damp in the cellar, happy to get more than one quote",
    "Investment flat needs redecorating between tenants, 2 bed",
    "Hi, can you give me a price to tile the {room} floor, {size}",
    "Our {brand} boiler is making a banging noise when the heating comes on",
    "Can someone look at my fuse board, its buzzing",
    "Wifi doesn't reach the {room}, want an ethernet cable run",
    "Grass cutting and hedge trimming, front and back garden, regular work",
    "Stair lift broken, not sure if you do these, please get in touch",
    "Japanese knotweed in the garden, need it treated and a certificate for the mortgage",
    "Gas fire in the {room} to be capped off and removed",
    "Clear out the garage and take away old furniture, need a skip probably",
]
TERSE = ["pls call", "thx", "cheers", "ta", "thanks", "asap pls", "can u quote",
         "call after 5", "text me", "", "", "", "", ""]
DAYS = ["Monday", "yesterday", "the weekend", "last night", "Friday", "this morning"]
TYPOS = [("the", "teh"), ("leaking", "leakin"), ("needs", "neds"), ("boiler", "boilor"),
         ("please", "plz"), ("and", "n"), ("you", "u"), ("replace", "replce"),
         ("radiator", "raditor"), ("bathroom", "bathrom"), ("kitchen", "kitchin")]


def ham_text():
    t = pick(HAM) if R.random() < 0.85 else pick(EXTRA_HAM)
    t = t.format(brand=pick(BRANDS), n=R.randint(2, 12), m=R.randint(2, 6), room=pick(ROOMS),
                 house=pick(HOUSES), day=pick(DAYS), size=pick(SIZES), price=pick(PRICES),
                 when=pick(WHEN), postcode=pick(POSTCODES), mm=R.choice([900, 1050, 1200]),
                 mm2=R.choice([600, 750, 1100]), brand2=pick(["Bosch", "Beko", "Hotpoint"]))
    r = R.random()
    if r < 0.25:
        t += ", " + pick(WHEN)
    elif r < 0.35:
        t += ". Budget " + pick(PRICES)
    elif r < 0.45:
        t += ". " + pick(["Postcode", "I'm in", "Area"]) + " " + pick(POSTCODES)
    if R.random() < 0.2:
        t = pick(OPENERS) + t[0].lower() + t[1:]
    extra = pick(TERSE)
    if extra:
        t += " " + extra
    if R.random() < 0.2:
        a, b = pick(TYPOS)
        t = t.replace(a, b, 1)
    if R.random() < 0.25:
        t = t.lower()
    if R.random() < 0.1:
        t = t.rstrip(".!") + pick(["!!", "!!!", "?", " :("])
    return t


# ---------------------------------------------------------------- spam kinds
SITES = ["yourbusiness", "rank-first", "cheapseo", "top-leads", "crypto-gains", "fastcash",
         "bestloans", "hot-singles", "job-hub", "growthhackers"]
TLDS = [".com", ".net", ".xyz", ".online", ".ru", ".info", ".site", ".top"]


def link():
    site = pick(SITES) + pick(TLDS)
    return pick(["https://" + site + "/" + pick(["offer", "go", "free", "apply", "r?id=77"]),
                 "www." + site, site, "bit.ly/" + "".join(R.choice("aBcDxYz123") for _ in range(6))])


SEO = [
    "Hi, I noticed your website is not ranking on the first page of Google. We offer SEO services to get you more leads.",
    "We are a digital marketing agency offering affordable SEO, backlinks and web design. Reply for a free audit.",
    "Boost your website traffic with our guaranteed SEO packages, page 1 ranking in 30 days",
    "Hello business owner, would you like more customers? Our lead generation service delivers qualified leads daily.",
    "I can get your business to the top of Google Maps. Cheap local SEO, monthly packages from $99.",
    "Dear Sir/Madam, we build high quality backlinks and guest posts to improve your domain authority.",
    "Your website needs a redesign. We do professional web design and social media marketing at low prices.",
    "Get 10,000 real followers and likes for your business Instagram and Facebook pages",
    "Hi there, I am a freelance SEO expert with 10 years experience. I will increase your organic traffic and sales.",
    "We help tradesmen get more jobs with Google Ads management and pay per click campaigns. Free consultation.",
    "Increase your online visibility and conversions with our marketing automation platform",
    "Quick question: are you the owner of this business? I have a proposal to double your revenue with SEO.",
]
SCAM = [
    "Invest in Bitcoin today and earn 300% returns in one week, guaranteed profit",
    "Crypto trading platform with daily profits, start with just $250 and withdraw anytime",
    "Congratulations! You have won a £1000 Amazon gift card, claim your prize now",
    "Need cash fast? Payday loans approved in minutes, bad credit OK, no credit check",
    "Get a personal loan up to £25,000 with instant approval, low APR, apply today",
    "Earn $5000 per week working from home, no experience needed, limited places",
    "Forex signals with 95% accuracy, join our VIP group and make money online",
    "Urgent: your account has been suspended, verify your bank details to avoid closure",
    "Double your bitcoin in 24 hours, send BTC to our wallet and receive twice back",
    "Exclusive investment opportunity in NFT and crypto tokens, early investors earn big",
    "Debt consolidation loans, clear all your debts with one easy monthly payment",
    "Casino bonus: 200 free spins and £500 welcome bonus, play now and win real money",
]
JOBSPAM = [
    "We are hiring! Remote data entry jobs, earn £300 a day, send your CV now",
    "Job vacancy: part time online assistant, flexible hours, great salary, apply now",
    "Recruitment agency looking for candidates, send CV to our HR team for immediate interview",
    "Hiring drivers and warehouse staff, weekly pay, immediate start, apply via our job portal",
    "Looking for work as a plasterer, 15 years experience, please add me to your list of trades",
    "I am a self employed electrician looking for subcontract work, please send me jobs",
    "Work from home opportunity, be your own boss, join our team of online sellers",
    "Seeking employment, hard working and reliable, available immediately for any position",
]
ADULT = [
    "Hot singles in your area want to meet you tonight, click to chat",
    "Lonely wives looking for discreet fun, sign up free",
    "Cheap viagra and cialis without prescription, discreet delivery",
    "Meet beautiful women for dating and more, 100% free registration",
    "Adult webcam girls live now, no credit card required",
]
FOREIGN = [
    "Bonjour, nous proposons des services de référencement pour votre site web à prix réduit",
    "Hola, ofrecemos servicios de marketing digital y diseño web para su empresa con los mejores precios",
    "Guten Tag, wir bieten professionelle Suchmaschinenoptimierung für Ihr Unternehmen an und freuen uns",
    "Здравствуйте, предлагаем услуги продвижения сайтов в поисковых системах недорого",
    "我们提供专业的网站优化服务，价格优惠，欢迎联系",
    "Ciao, offriamo servizi di consulenza per aumentare le vendite della vostra azienda online",
    "Olá, oferecemos empréstimos rápidos sem consulta ao crédito para todos os clientes",
    "Dzień dobry, oferujemy tanie pożyczki bez zaświadczeń dla każdego klienta w naszej firmie",
    "Здравствуйте! Заработок в интернете от 5000 рублей в день без вложений",
    "こんにちは、あなたのビジネスのためのマーケティングサービスを提供します",
    "Hallo, wij bieden goedkope leningen aan voor iedereen zonder controle van de bank",
    "Merhaba, işletmeniz için dijital pazarlama ve web tasarım hizmetleri sunuyoruz",
]
GIBBER = ["sdfkjh", "qwrtpl", "zxcvbnm", "lkjhgf", "fghjkl", "mnbvcx", "kjhasd", "poiuyt",
          "wxcvbn", "jkljkl", "dfghdfgh", "xcvxcv", "hjkhjk", "qwsdrf", "bnmbnm", "rtyrty",
          "sdfsdf", "ghjghj", "vbnvbn", "plmkoj", "asdasd", "jhgjhg"]
TESTS = ["test", "Test 123", "testing testing", "this is a test please ignore",
         "test submission from affiliate integration", "TEST JOB DO NOT ATTEND", "asdf",
         "lorem ipsum dolor sit amet", "sample description", "xxx", "n/a", "hello world",
         "Test job, please ignore this request", "dummy job for testing the API", "qwerty",
         "just testing the form", "abc", "foo bar", "ignore this", "placeholder text"]
FAKE_NAMES = [("asdf", "qwerty"), ("test", "test"), ("John", "Doe1"), ("aaa", "bbb"),
              ("x", "y"), ("Test", "User"), ("qwe", "asd"), ("zxcv", "zxcv"), ("admin", "admin"),
              ("jkl", "jkl"), ("foo", "bar"), ("a", "a"), ("user123", "test"), ("sdf", "fgh")]


GREET = ["Hi,", "Hello,", "Dear Sir/Madam,", "Hi there,", "Good day,", "Hello business owner,",
         "Dear homeowner,", ""]
CLOSE = ["Reply for details.", "Contact us today.", "Limited time offer!", "Act now.",
         "WhatsApp us for more info.", "Call now for a free quote.", "Don't miss out!", ""]
SERVICE = ["SEO", "local SEO", "link building", "web design", "Google Ads management",
           "social media marketing", "lead generation", "content marketing", "app development"]
GAIN = ["more customers", "page 1 on Google", "10x more leads", "higher rankings",
        "more website traffic", "more sales", "5 star reviews"]
MONEY = ["Bitcoin", "crypto", "Ethereum", "forex", "stocks", "gold", "NFT"]


def composed(kind):
    if kind == "seo":
        body = pick(["We offer %s to get you %s." % (pick(SERVICE), pick(GAIN)),
                     "Our %s packages guarantee %s, from $%d per month." % (
                         pick(SERVICE), pick(GAIN), R.choice([49, 99, 199, 299])),
                     "I am an expert in %s and can help your business get %s." % (
                         pick(SERVICE), pick(GAIN))])
    elif kind == "scam":
        body = pick(["Invest in %s and earn %d%% profit every week." % (
            pick(MONEY), R.choice([20, 50, 200, 300])),
                     "Fast loans up to £%d, approved today, no credit check." % R.choice(
                         [500, 2000, 5000, 25000]),
                     "Make £%d a day from home trading %s, guaranteed returns." % (
                         R.choice([300, 500, 1000]), pick(MONEY))])
    elif kind == "job":
        body = pick(["We are hiring %s, weekly pay, send your CV." % pick(
            ["remote assistants", "drivers", "data entry clerks", "online sellers"]),
                     "Looking for work as a %s, please add me to your trades list." % pick(
                         ["plumber", "painter", "labourer", "roofer"]),
                     "Job vacancy: %s, salary £%d, apply now." % (
                         pick(["sales agent", "call centre staff", "warehouse operative"]),
                         R.choice([25000, 30000, 40000]))])
    else:
        body = pick(["Meet %s in your area tonight." % pick(["hot singles", "lonely women",
                                                            "local girls"]),
                     "Discreet %s delivered, no prescription needed." % pick(
                         ["viagra", "cialis", "pills"])])
    return " ".join(p for p in (pick(GREET), body, pick(CLOSE)) if p)


def spam_text(kind):
    if kind in ("seo", "scam", "job", "adult") and R.random() < 0.6:
        t = composed(kind)
        return t + (" " + link() if R.random() < 0.35 else "")
    if kind == "seo":
        t = pick(SEO)
        return t + (" " + link() if R.random() < 0.4 else "")
    if kind == "scam":
        t = pick(SCAM)
        return t + (" " + link() if R.random() < 0.5 else "")
    if kind == "job":
        return pick(JOBSPAM)
    if kind == "adult":
        return pick(ADULT) + (" " + link() if R.random() < 0.5 else "")
    if kind == "foreign":
        return pick(FOREIGN) + pick(["", "", " " + link(), " +7 %d" % R.randint(1000000, 9999999)])
    if kind == "gibberish":
        return " ".join(pick(GIBBER) for _ in range(R.randint(1, 7)))
    if kind == "test":
        t = pick(TESTS)
        return t + pick(["", "", " %d" % R.randint(1, 99), "!!", " pls ignore"])
    if kind == "repeat":
        c = pick("a!?.xz$k")
        return pick(["", "help ", "fix ", "call "]) + c * R.randint(8, 30)
    if kind == "link":
        return pick(["check this out ", "visit ", "see ", "", "click here "]) + link()
    raise ValueError(kind)


KINDS = ["seo", "seo", "scam", "scam", "job", "adult", "foreign", "gibberish", "gibberish",
         "test", "test", "repeat", "link"]


def spam_person(kind):
    r = R.random()
    if kind in ("test", "gibberish") and r < 0.6 or r < 0.15:
        first, last = pick(FAKE_NAMES)
    else:
        first, last = pick(FIRST + ["Mike", "David", "Alex", "Kevin", "Sarah"]), pick(LAST)
    local = "".join(c for c in (first + last).lower() if c.isalnum()) or "x"
    r = R.random()
    if r < 0.3:
        domain = pick(DISPOSABLE)
    elif kind in ("seo",) and r < 0.7:
        domain = pick(SPAM_DOMAINS[:3])
    else:
        domain = pick(SPAM_DOMAINS[3:] + DOMAINS[:3])
    return first, last, "%s%d@%s" % (local, R.randint(1, 999), domain)


# The corpus family of each spam kind.
FAMILY = {"seo": "seo_links", "scam": "finance_crypto", "job": "jobs_essays", "adult": "adult",
          "foreign": "foreign_script", "gibberish": "gibberish", "test": "test_submissions",
          "repeat": "gibberish", "link": "link_only"}


def build():
    rows, seen = [], set()

    def add(description, who, label, family):
        # The API refuses 10 characters or fewer before any screening.
        if description in seen or len(description) <= 10:
            return False
        seen.add(description)
        first, last, email = who
        rows.append({"label": label, "family": family, "source": "templates", "licence": "MIT",
                     "description": description, "firstName": first, "lastName": last,
                     "email": email, "phone": phone().replace(" ", ""),
                     "postcode": pick(POSTCODES)})
        return True

    ham = 0
    while ham < HAM_TARGET:
        ham += add(ham_text(), person(), "ham", "templated_jobs")
    spam, attempts = 0, 0
    while spam < SPAM_TARGET and attempts < 100000:
        attempts += 1
        kind = KINDS[spam % len(KINDS)]
        spam += add(spam_text(kind), spam_person(kind), "spam", FAMILY[kind])
    order = list(range(len(rows)))
    R.shuffle(order)
    return [rows[i] for i in order]


if __name__ == "__main__":
    out = sys.stdout
    for row in build():
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
