"""Regenerate ``corpus/editions.toml`` from a folder of CR editions.

    python corpus/make_manifest.py [CORPUS_DIR]      # default: $RULEDIFF_CORPUS
    python corpus/make_manifest.py --check [DIR]     # exit 1 if the file is stale

What is computed from the files: the effective date (from each text, never the file
name), sha256 and byte size. What is written down here, as facts about the Magic
release schedule: the set whose release each edition accompanies, and the file name
Wizards published it under where it is known. No rules text goes into the manifest.

Sets were checked against the text: each edition's new keyword headings (e.g. Gift,
Offspring, Forage → Bloomburrow) match the set. Editions that accompany no particular
set (mid-cycle updates) have none. URLs are given only for editions whose corpus copy
is Wizards' original bytes (the fetch verifies the sha256) and whose published file
name is known; Wizards names the file by its publication date, which can precede the
effective date.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from rulediff.ingest import find_effective_date, ingest_bytes  # noqa: E402

MANIFEST = HERE / "editions.toml"

#: effective date -> (set code, set name); None where the code is not certain.
SETS: dict[str, tuple[str | None, str]] = {
    "2002-02-20": ("TOR", "Torment"),  # Madness is new
    "2002-10-07": ("ONS", "Onslaught"),
    "2003-07-01": ("8ED", "Eighth Edition"),
    "2003-10-01": ("MRD", "Mirrodin"),
    "2004-02-01": ("DST", "Darksteel"),
    "2004-06-01": ("5DN", "Fifth Dawn"),
    "2004-10-01": ("CHK", "Champions of Kamigawa"),
    "2005-02-01": ("BOK", "Betrayers of Kamigawa"),
    "2005-08-01": ("9ED", "Ninth Edition"),
    "2005-10-01": ("RAV", "Ravnica: City of Guilds"),
    "2006-02-01": ("GPT", "Guildpact"),
    "2006-05-01": ("DIS", "Dissension"),
    "2006-07-15": ("CSP", "Coldsnap"),
    "2006-10-01": ("TSP", "Time Spiral"),
    "2007-02-01": ("PLC", "Planar Chaos"),
    "2007-05-01": ("FUT", "Future Sight"),
    "2007-10-01": ("LRW", "Lorwyn"),
    "2008-02-01": ("MOR", "Morningtide"),
    "2008-05-01": ("SHM", "Shadowmoor"),
    "2008-07-15": ("EVE", "Eventide"),
    "2008-10-01": ("ALA", "Shards of Alara"),
    "2009-02-01": ("CON", "Conflux"),
    "2009-05-01": ("ARB", "Alara Reborn"),
    "2009-07-11": ("M10", "Magic 2010"),
    "2009-09-04": ("HOP", "Planechase"),
    "2009-10-01": ("ZEN", "Zendikar"),
    "2010-02-01": ("WWK", "Worldwake"),
    "2010-04-23": ("ROE", "Rise of the Eldrazi"),
    "2010-06-18": ("ARC", "Archenemy"),
    "2010-07-16": ("M11", "Magic 2011"),
    "2010-10-01": ("SOM", "Scars of Mirrodin"),
    "2011-02-04": ("MBS", "Mirrodin Besieged"),
    "2011-05-01": ("NPH", "New Phyrexia"),
    "2011-07-15": ("M12", "Magic 2012"),
    "2011-09-30": ("ISD", "Innistrad"),
    "2012-02-01": ("DKA", "Dark Ascension"),
    "2012-05-01": ("AVR", "Avacyn Restored"),
    "2012-06-01": ("PC2", "Planechase 2012"),
    "2012-07-01": ("M13", "Magic 2013"),
    "2012-10-01": ("RTR", "Return to Ravnica"),
    "2013-02-01": ("GTC", "Gatecrash"),
    "2013-05-01": ("DGM", "Dragon's Maze"),
    "2013-07-13": ("M14", "Magic 2014"),
    "2013-09-27": ("THS", "Theros"),
    "2013-11-01": ("C13", "Commander 2013"),
    "2014-02-01": ("BNG", "Born of the Gods"),
    "2014-05-01": ("JOU", "Journey into Nyx"),  # Strive, Constellation are new
    "2014-06-01": ("CNS", "Conspiracy"),  # Conspiracies, Conspiracy Draft, Dethrone, Vote
    "2014-07-18": ("M15", "Magic 2015"),  # no new keyword; effective on M15's release day
    "2014-09-25": ("KTK", "Khans of Tarkir"),
    "2015-01-23": ("FRF", "Fate Reforged"),
    "2015-03-27": ("DTK", "Dragons of Tarkir"),
    "2015-07-17": ("ORI", "Magic Origins"),
    "2015-09-26": ("BFZ", "Battle for Zendikar"),
    "2015-11-13": ("C15", "Commander 2015"),
    "2016-01-16": ("OGW", "Oath of the Gatewatch"),
    "2016-04-08": ("SOI", "Shadows over Innistrad"),
    "2016-07-22": ("EMN", "Eldritch Moon"),
    "2016-08-26": ("CN2", "Conspiracy: Take the Crown"),
    "2016-09-30": ("KLD", "Kaladesh"),
    "2016-11-11": ("C16", "Commander 2016"),
    "2017-01-20": ("AER", "Aether Revolt"),
    "2017-04-28": ("AKH", "Amonkhet"),
    "2017-07-08": ("HOU", "Hour of Devastation"),
    "2017-08-25": ("C17", "Commander 2017"),
    "2018-01-19": ("RIX", "Rivals of Ixalan"),
    "2018-04-27": ("DOM", "Dominaria"),
    "2018-06-08": ("BBD", "Battlebond"),
    "2018-07-13": ("M19", "Core Set 2019"),
    "2018-08-10": ("C18", "Commander 2018"),
    "2018-10-05": ("GRN", "Guilds of Ravnica"),
    "2019-01-25": ("RNA", "Ravnica Allegiance"),
    "2019-05-03": ("WAR", "War of the Spark"),
    "2019-06-14": ("MH1", "Modern Horizons"),
    "2019-08-23": ("C19", "Commander 2019"),
    "2019-10-04": ("ELD", "Throne of Eldraine"),
    "2020-01-24": ("THB", "Theros Beyond Death"),
    "2020-04-17": ("IKO", "Ikoria: Lair of Behemoths"),
    "2020-07-03": ("M21", "Core Set 2021"),
    "2020-08-07": ("2XM", "Double Masters"),
    "2020-09-25": ("ZNR", "Zendikar Rising"),
    "2020-11-20": ("CMR", "Commander Legends"),
    "2021-02-05": ("KHM", "Kaldheim"),
    "2021-04-22": ("STX", "Strixhaven: School of Mages"),
    "2021-06-18": ("MH2", "Modern Horizons 2"),
    "2021-07-23": ("AFR", "Adventures in the Forgotten Realms"),
    "2021-09-24": ("MID", "Innistrad: Midnight Hunt"),
    "2021-11-19": ("VOW", "Innistrad: Crimson Vow"),
    "2022-02-18": ("NEO", "Kamigawa: Neon Dynasty"),
    "2022-04-29": ("SNC", "Streets of New Capenna"),
    "2022-06-10": ("CLB", "Commander Legends: Battle for Baldur's Gate"),
    "2022-07-08": ("2X2", "Double Masters 2022"),
    "2022-09-08": ("DMU", "Dominaria United"),
    "2022-10-07": ("UNF", "Unfinity"),
    "2023-02-03": ("ONE", "Phyrexia: All Will Be One"),
    "2023-04-14": ("MOM", "March of the Machine"),
    "2023-06-16": ("LTR", "The Lord of the Rings: Tales of Middle-earth"),
    "2023-09-01": ("WOE", "Wilds of Eldraine"),
    "2023-10-13": ("WHO", "Doctor Who"),
    "2023-11-17": ("LCI", "The Lost Caverns of Ixalan"),
    "2024-02-02": ("MKM", "Murders at Karlov Manor"),
    "2024-03-08": ("PIP", "Fallout"),
    "2024-04-12": ("OTJ", "Outlaws of Thunder Junction"),
    "2024-06-07": ("MH3", "Modern Horizons 3"),
    "2024-07-30": ("BLB", "Bloomburrow"),
    "2024-09-20": ("DSK", "Duskmourn: House of Horror"),
    "2024-11-08": ("FDN", "Foundations"),
    "2025-02-07": ("DFT", "Aetherdrift"),
    "2025-04-04": ("TDM", "Tarkir: Dragonstorm"),
    "2025-06-06": ("FIN", "Final Fantasy"),
    "2025-07-25": ("EOE", "Edge of Eternities"),
    "2025-09-19": ("SPM", "Marvel's Spider-Man"),
    "2025-11-14": ("TLA", "Avatar: The Last Airbender"),
    "2026-01-16": ("ECL", "Lorwyn Eclipsed"),
    "2026-02-27": (None, "Teenage Mutant Ninja Turtles"),
}

#: effective date -> publication date in Wizards' file name (MagicCompRules YYYYMMDD.txt).
PUBLISHED: dict[str, str] = {
    "2019-05-03": "20190503",
    "2019-08-23": "20190823",
    "2019-10-04": "20191004",
    "2020-04-17": "20200417",
    "2020-06-01": "20200601",
    "2020-07-03": "20200703",
    "2020-08-07": "20200807",
    "2020-09-25": "20200925",
    "2020-11-20": "20201120",
    "2021-04-22": "20210419",
    "2022-02-18": "20220218",
    "2022-04-29": "20220429",
    "2022-06-10": "20220610",
    "2022-07-08": "20220708",
    "2022-09-08": "20220908",
    "2022-10-07": "20221007",
    "2023-04-14": "20230414",
    "2023-10-13": "20231013",
    "2023-11-17": "20231117",
    "2024-03-08": "20240308",
    "2024-06-07": "20240607",
    "2024-11-08": "20241108",
    "2025-02-07": "20250207",
    "2025-04-04": "20250404",
    "2025-06-06": "20250606",
    "2025-07-25": "20250725",
    "2025-09-19": "20250919",
    "2025-11-14": "20251114",
    "2026-01-16": "20260116",
}


def official_url(published: str) -> str:
    return f"https://media.wizards.com/{published[:4]}/downloads/MagicCompRules%20{published}.txt"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build(corpus_dir: Path) -> str:
    """The manifest text for every edition file in ``corpus_dir``."""
    rows: dict[dt.date, str] = {}
    for path in sorted(corpus_dir.glob("*.txt")):
        data = path.read_bytes()
        found = find_effective_date(ingest_bytes(data, str(path)).text)
        if found is None:
            raise SystemExit(f"{path}: no effective date in the text")
        date = found[0]
        if date in rows:
            raise SystemExit(f"{path}: a second file dated {date}")
        key = date.isoformat()
        lines = ["[[edition]]", f"date = {key}"]
        code, name = SETS.get(key, (None, None))
        if code:
            lines.append(f"set_code = {_quote(code)}")
        if name:
            lines.append(f"set_name = {_quote(name)}")
        if key in PUBLISHED:
            lines.append(f"url = {_quote(official_url(PUBLISHED[key]))}")
        lines.append(f'sha256 = "{hashlib.sha256(data).hexdigest()}"')
        lines.append(f"bytes = {len(data)}")
        rows[date] = "\n".join(lines) + "\n"
    unknown = sorted((set(SETS) | set(PUBLISHED)) - {d.isoformat() for d in rows})
    if unknown:
        raise SystemExit(f"facts given for dates with no edition file: {', '.join(unknown)}")
    header = (
        "# Official Comprehensive Rules editions: facts only, no rules text.\n"
        "# Generated by corpus/make_manifest.py from the corpus files; edit SETS/PUBLISHED\n"
        "# there and rerun rather than editing this file.\n"
        "#\n"
        "# date      effective date printed in the edition (a TOML date)\n"
        "# set_code  the Magic set whose release the edition accompanies, set_name its name\n"
        "# url       Wizards' official TXT download, where known (`rulediff corpus fetch`)\n"
        "# sha256    of the file's bytes; bytes = its size\n"
    )
    return header + "".join(f"\n{rows[d]}" for d in sorted(rows))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", nargs="?", default=os.environ.get("RULEDIFF_CORPUS"))
    parser.add_argument("--check", action="store_true", help="exit 1 if editions.toml is stale")
    parser.add_argument("-o", "--output", type=Path, default=MANIFEST)
    args = parser.parse_args(argv)
    if not args.corpus:
        parser.error("give CORPUS_DIR or set RULEDIFF_CORPUS")
    text = build(Path(args.corpus))
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is stale: rerun corpus/make_manifest.py", file=sys.stderr)
            return 1
        return 0
    tmp = args.output.with_name(f".{args.output.name}.tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    os.replace(tmp, args.output)
    print(f"wrote {args.output} ({text.count('[[edition]]')} editions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
