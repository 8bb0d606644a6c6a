#!/usr/bin/env python3
"""Builds the labelled SAST corpus (cases/ and labels.json) from the pair templates in templates/.

Each template file holds several pairs. A pair is written once; the vulnerable case and its safe twin
are expanded from it, so the twins differ only where the template says they do:

    === <pair id>
    class: cmdi                      # one of CLASSES below
    shape: interproc-helper-sanitises # the dataflow shape tested (free text, kebab-case)
    framework: flask                 # flask, django, django-cbv, drf, fastapi, starlette, tornado,
                                     # aiohttp, http.server, cgi, socket, stdlib, script
    feature: what differs between the twins (one line)
    cwe: 79, 80, 94                  # optional: overrides the class's CWE set for this pair
    --- app.py                       # one file section per file; more than one = a directory case
    ...code...  <<<vulnerable text|||safe text>>>  ...code...
    ...code...  #SINK                # marks the sink line (the marker is removed)

`<<<A|||B>>>` may span lines. The sink is the line that carries `#SINK` after expansion (in the file
that carries it). Files under cases/ are generated: edit the templates and re-run this script;
`make.py --check` fails when cases/ or labels.json are out of date (and parses every case with ast).

Usage: bench/sast-corpus/make.py [--check]
"""
from __future__ import annotations

import ast
import json
import re
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
CASES = HERE / "cases"
LABELS = HERE / "labels.json"

# class -> (title, CWE ids a finding may carry to count for a case of this class)
CLASSES: dict[str, tuple[str, list[int]]] = {
    "cmdi": ("command injection", [78]),
    "codei": ("code injection / eval", [94, 95]),
    "sqli": ("SQL injection", [89]),
    "path": ("path traversal", [22, 23, 36, 73]),
    "ssrf": ("server-side request forgery", [918]),
    "xss": ("cross-site scripting", [79, 80]),
    "redirect": ("open redirect", [601]),
    "deser": ("unsafe deserialisation", [502, 20]),
    "xxe": ("XML external entities", [611, 776, 827, 20]),
    "xpath": ("XPath injection", [643]),
    "ldap": ("LDAP injection", [90]),
    "trust": ("trust boundary violation", [501]),
    "weakhash": ("weak hash for passwords", [327, 328, 916, 759]),
    "weakrand": ("weak randomness for secrets", [330, 338]),
    "cookie": ("insecure cookie", [614, 1004]),
    "tls": ("TLS verification off", [295]),
    "local": ("local source vs remote source (scored at high/critical only)", []),
}

ALT = re.compile(r"<<<(.*?)\|\|\|(.*?)>>>", re.S)
SINK = re.compile(r"[ \t]*#SINK[ \t]*$", re.M)


def parse_templates() -> list[dict]:
    pairs = []
    for tpl in sorted(TEMPLATES.glob("*.txt")):
        text = tpl.read_text(encoding="utf-8")
        for block in re.split(r"^=== ", text, flags=re.M)[1:]:
            head, *sections = re.split(r"^--- ", block, flags=re.M)
            lines = head.splitlines()
            pair: dict = {"id": lines[0].strip(), "template": tpl.name, "files": {}}
            for line in lines[1:]:
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                key, _, value = line.partition(":")
                pair[key.strip()] = value.strip()
            for sec in sections:
                name, _, body = sec.partition("\n")
                pair["files"][name.strip()] = body.rstrip("\n") + "\n"
            for key in ("class", "shape", "framework", "feature"):
                if key not in pair:
                    sys.exit(f"{tpl.name}: pair {pair['id']}: missing {key}")
            if pair["class"] not in CLASSES:
                sys.exit(f"{tpl.name}: pair {pair['id']}: unknown class {pair['class']}")
            if not pair["files"]:
                sys.exit(f"{tpl.name}: pair {pair['id']}: no files")
            pairs.append(pair)
    ids = [p["id"] for p in pairs]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit(f"duplicate pair ids: {sorted(dup)}")
    return pairs


def expand(body: str, which: int) -> str:
    return ALT.sub(lambda m: m.group(1 + which), body)


def build(pairs: list[dict]) -> tuple[dict[str, str], list[dict]]:
    files: dict[str, str] = {}
    labels: list[dict] = []
    for pair in pairs:
        cls = pair["class"]
        if not any(ALT.search(b) for b in pair["files"].values()):
            sys.exit(f"pair {pair['id']}: the twins do not differ")
        cwe = ([int(x) for x in pair["cwe"].split(",")] if "cwe" in pair else CLASSES[cls][1])
        if not cwe:
            sys.exit(f"pair {pair['id']}: no CWE set (class {cls} needs a cwe: line)")
        multi = len(pair["files"]) > 1
        for which, kind in ((0, "vuln"), (1, "safe")):
            cid = f"{pair['id']}-{kind}"
            base = f"{cls}/{cid}"
            sink = None
            for name, body in pair["files"].items():
                text = expand(body, which)
                for n, line in enumerate(text.splitlines(), 1):
                    if SINK.search(line):
                        if sink is not None:
                            sys.exit(f"pair {pair['id']}: more than one #SINK")
                        sink = {"file": name, "line": n}
                text = SINK.sub("", text)
                if "<<<" in text or "|||" in text or ">>>" in text:
                    sys.exit(f"pair {pair['id']}: unbalanced <<< ||| >>> in {name}")
                rel = f"{base}/{name}" if multi else f"{base}.py"
                try:
                    ast.parse(text, filename=rel)
                except SyntaxError as exc:
                    sys.exit(f"pair {pair['id']} ({kind}) {name}: {exc}")
                files[rel] = text
            if sink is None:
                sys.exit(f"pair {pair['id']}: no #SINK")
            labels.append({
                "id": cid,
                "path": f"cases/{base}" + ("" if multi else ".py"),
                "class": cls,
                "cwe": cwe,
                "vulnerable": which == 0,
                "twin": f"{pair['id']}-{'safe' if which == 0 else 'vuln'}",
                "pair": pair["id"],
                "shape": pair["shape"],
                "framework": pair["framework"],
                "feature": pair["feature"],
                "sink": {"file": f"cases/{base}/{sink['file']}" if multi else f"cases/{base}.py",
                         "line": sink["line"]},
            })
    return files, labels


def main() -> None:
    check = "--check" in sys.argv[1:]
    pairs = parse_templates()
    files, labels = build(pairs)
    doc = {
        "about": "Labelled SAST corpus: one vulnerable case and one safe twin per pair, generated by "
                 "make.py from templates/. 'cwe' is the set of CWE ids a finding may carry to count "
                 "for the case; class 'local' pairs a remote source (vulnerable: expected at "
                 "high/critical) with the same flow from a local source (expected at most medium).",
        "classes": {k: {"title": t, "cwe": c} for k, (t, c) in CLASSES.items()},
        "cases": labels,
    }
    rendered = json.dumps(doc, indent=1) + "\n"
    if check:
        stale = [r for r, t in files.items() if not (CASES / r).is_file()
                 or (CASES / r).read_text(encoding="utf-8") != t]
        extra = [str(p.relative_to(CASES)) for p in CASES.rglob("*.py")
                 if str(p.relative_to(CASES)) not in files]
        if stale or extra or not LABELS.is_file() or LABELS.read_text() != rendered:
            sys.exit(f"corpus out of date (stale {stale[:5]}, extra {extra[:5]}): run make.py")
        print(f"corpus up to date: {len(labels)} cases, {len(pairs)} pairs")
        return
    if CASES.exists():
        shutil.rmtree(CASES)
    for rel, text in files.items():
        path = CASES / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    LABELS.write_text(rendered)
    per = {}
    for lab in labels:
        per[lab["class"]] = per.get(lab["class"], 0) + 1
    print(f"{len(labels)} cases ({len(pairs)} pairs) in {len(files)} files: "
          + ", ".join(f"{k} {v}" for k, v in per.items()))


if __name__ == "__main__":
    main()
