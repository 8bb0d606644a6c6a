"""Sentinel's JavaScript/TypeScript parser against tree-sitter (and `node --check`) over real projects.

usage: .venv-bench/bin/python bench/js-parse-parity.py --bench SENTINEL_BENCH [--root DIR]... [--details N]
                                                       [--no-node] [--json OUT]

For every .js .mjs .cjs .jsx .ts .mts .cts .tsx .vue .svelte file under each project directory (each
root's subdirectories are the projects; files are read in place, never copied), compares the
accept/reject verdict of `sentinel-bench parse-js` with tree-sitter's (tree-sitter-javascript for
JavaScript and JSX, tree-sitter-typescript's typescript and tsx grammars; a tree with an ERROR or MISSING
node is a rejection) and, for .js/.mjs/.cjs, with `node --check`. Files both accept are compared on a
structural fingerprint: counts of function-like nodes with a body, classes, calls, `new`, member
accesses, imports, exports, JSX elements, string and template literals, and top-level statements.
Vue and Svelte files are compared on their `<script>` blocks, blanked in place as Sentinel does.

Skipped, and counted as such: node_modules, vendored `dist`/`build`/`vendor`/`public/assets`
directories, minified files (`.min.js` or a first 2 KB with a line longer than 1,000 characters) and
files larger than 1 MB. Prints a Markdown table per project, the totals, the disagreements, and the
parse throughput of the largest project (files/s, MB/s, measured inside sentinel-bench).
"""
import argparse
import collections
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

EXTENSIONS = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".vue", ".svelte"}
SKIP_DIRECTORIES = {"node_modules", "dist", "vendor", "bower_components", ".git", "build", "coverage", ".next", ".nuxt"}
MAX_BYTES = 1 << 20
DEFAULT_ROOTS = ["/work/shared/corpora/realcode-dev/proj", "/work/shared/corpora/js-vuln-dev/apps"]

LANGUAGES = {
    "javascript": tree_sitter.Language(tree_sitter_javascript.language()),
    "typescript": tree_sitter.Language(tree_sitter_typescript.language_typescript()),
    "tsx": tree_sitter.Language(tree_sitter_typescript.language_tsx()),
}
PARSERS = {name: tree_sitter.Parser(language) for name, language in LANGUAGES.items()}

SCRIPT_OPEN = re.compile(rb"<script(?=[\s>/])", re.IGNORECASE)
SCRIPT_CLOSE = re.compile(rb"</script", re.IGNORECASE)


def mask_script_blocks(data: bytes):
    """The component with everything but its `<script>` blocks blanked (as ScriptBlocks.swift does)."""
    masked = bytearray(b if b in (10, 13) else 32 for b in data)
    typescript = False
    tsx = False
    position = 0
    while True:
        match = SCRIPT_OPEN.search(data, position)
        if not match:
            break
        end = tag_end(data, match.end())
        if end is None:
            break
        attributes = data[match.end():end].decode("utf-8", "replace").lower()
        if data[end - 1:end] == b"/":
            position = end + 1
            continue
        content_start = end + 1
        close = SCRIPT_CLOSE.search(data, content_start)
        content_end = close.start() if close else len(data)
        if is_script(attributes):
            if re.search(r"lang=(\"ts\"|'ts'|ts\b|\"typescript\")", attributes):
                typescript = True
            if re.search(r"lang=(\"tsx\"|'tsx')", attributes):
                tsx = True
            masked[content_start:content_end] = data[content_start:content_end]
            if content_end < len(data):
                masked[content_end] = ord(";")
        position = content_end + len("</script")
    return bytes(masked), ("tsx" if tsx else "typescript" if typescript else "javascript")


def tag_end(data: bytes, start: int):
    quote = 0
    for i in range(start, len(data)):
        b = data[i]
        if quote:
            if b == quote:
                quote = 0
        elif b in (34, 39):
            quote = b
        elif b == 62:
            return i
    return None


def is_script(attributes: str) -> bool:
    index = attributes.find("type=")
    if index < 0:
        return True
    value = attributes[index + 5:index + 35]
    return any(word in value for word in ("javascript", "module", "typescript", "text/babel"))


def grammar_for(path: str, data: bytes):
    """(grammar name, bytes to parse) as Sentinel chooses them."""
    suffix = pathlib.Path(path).suffix.lower()
    if suffix in (".vue", ".svelte"):
        masked, grammar = mask_script_blocks(data)
        return grammar, masked
    if suffix in (".ts", ".mts", ".cts"):
        return "typescript", data
    if suffix == ".tsx":
        return "tsx", data
    return "javascript", data


FUNCTION_TYPES = {
    "function_declaration", "function_expression", "function", "generator_function_declaration",
    "generator_function", "arrow_function", "method_definition",
}
COUNTED = {
    "class": {"class_declaration", "class", "abstract_class_declaration"},
    "call": {"call_expression", "decorator_call_expression"},
    "new": {"new_expression"},
    # `namespace A.B` and `import X = A.B` hold a nested_identifier where Sentinel has a member chain.
    "member": {"member_expression", "decorator_member_expression", "nested_identifier"},
    "import": {"import_statement", "import_alias"},
    "export": {"export_statement"},
    "jsx": {"jsx_element", "jsx_self_closing_element"},
    "string": {"string"},
    "template": {"template_string"},
}
JSX_TAGS = {"jsx_opening_element", "jsx_closing_element", "jsx_self_closing_element"}
NOT_STATEMENTS = {"comment", "hash_bang_line", "html_comment"}


def tree_sitter_verdict(grammar: str, data: bytes):
    """(accepted, fingerprint, first error line) of tree-sitter's parse."""
    tree = PARSERS[grammar].parse(data)
    root = tree.root_node
    counts = collections.Counter()
    error_line = None
    stack = [(root, None)]
    while stack:
        node, parent = stack.pop()
        if node.type == "type_query" and node.text.split(b"(")[0].strip().endswith(b"import"):
            # `typeof import('m').X` is one import type in Sentinel's tree, a call and a member here.
            parent = "import_type_query"
        if node.type == "ERROR" or node.is_missing:
            if error_line is None or node.start_point[0] + 1 < error_line:
                error_line = node.start_point[0] + 1
        # Only named nodes: keywords are anonymous nodes whose type is their text (`class`, `string`).
        kind = node.type if node.is_named else ""
        if kind in FUNCTION_TYPES and node.child_by_field_name("body") is not None:
            counts["function"] += 1
        for label, kinds in COUNTED.items():
            if kind in kinds:
                # A JSX tag name `Foo.Bar` is a name in Sentinel's tree, not a member access.
                if label == "member" and parent in JSX_TAGS:
                    continue
                if label in ("member", "call") and parent == "import_type_query":
                    continue
                counts[label] += 1
        inherited = kind if kind in JSX_TAGS else (parent if kind == "member_expression" and parent in JSX_TAGS else None)
        if parent == "import_type_query":
            inherited = parent
        for child in node.children:
            stack.append((child, inherited))
    top = [child for child in root.named_children if child.type not in NOT_STATEMENTS]
    # tree-sitter reads the `;` after a body-less `declare module 'm'` as a statement of its own.
    counts["top"] = len(top) - sum(
        1 for before, after in zip(top, top[1:])
        if after.type == "empty_statement" and before.type == "ambient_declaration" and before.end_byte == after.start_byte)
    fingerprint = {label: counts.get(label, 0) for label in list(COUNTED) + ["function", "top"]}
    return not root.has_error, fingerprint, error_line


def tree_sitter_gap(path: str, error_line):
    """Why tree-sitter rejects a file Sentinel accepts, when it is one of the grammars' known gaps
    (each checked by hand on the corpus: the code is valid TypeScript or JSX that tsc/Babel read)."""
    data = pathlib.Path(path).read_bytes()
    lines = data.split(b"\n")
    line = error_line or 1
    context = b"\n".join(lines[max(0, line - 3):line + 1])
    if re.search(rb">\s*`", context):
        return "tree-sitter gap: type arguments on a tagged template (styled.div<Props>`...`, sql<T>`...`)"
    if b"\x00" in data:
        return "tree-sitter gap: a NUL byte inside a string literal (valid JavaScript)"
    if re.search(rb"^\s*export type \*", data, re.M):
        return "tree-sitter gap: `export type * from` (TypeScript 5.0)"
    if re.search(rb"(^|[>}\s])&([\s{]|$)", context, re.M):
        return "tree-sitter gap: a bare `&` in JSX text (JSX keeps what is not an entity)"
    if re.search(rb"<\w[\w.]*[^>]*\s(in|if|for|class|default)=", context):
        return "tree-sitter gap: a JSX attribute named by a keyword (`in={open}`)"
    if re.search(rb"import\(\s*['\"][^'\"]+['\"]\s*\)\.\w+<", context):
        return "tree-sitter gap: an import type with type arguments in a generic argument"
    if re.search(rb"^\s*in\w*\??:", context, re.M):
        return "tree-sitter gap: a member named `in...` on the line after one without `;`"
    return None


# One minimal, valid example of each gap: tree-sitter's verdict on it is printed with the results.
GAP_EXAMPLES = [
    ("typescript", b"const A = styled.span<{ yellow?: boolean }>`x`;\n"),
    ("typescript", b"const r = sql<{ exists: boolean }>`select 1`;\n"),
    ("javascript", b"x = 'a\x00b';\n"),
    ("typescript", b'export type * from "./types";\n'),
    ("javascript", b"x = <p>Terms & conditions</p>;\n"),
    ("javascript", b"x = <C in={open} />;\n"),
    ("typescript", b'function f(): Promise<\n  import("axios").AxiosResponse<T>\n> {}\n'),
    ("typescript", b"interface C {\n  a: number\n  in_progress: number\n}\n"),
]


def node_verdict(path: str):
    """`node --check`'s verdict. A .js file with `import`/`export` lines is checked as a module too:
    Node 20 passes such a file in a CommonJS package without reading it as either."""
    try:
        result = subprocess.run(["node", "--check", path], capture_output=True, timeout=60)
        if result.returncode == 0 and path.endswith(".js") and re.search(
                rb"^\s*(import|export)\b", pathlib.Path(path).read_bytes(), re.M):
            result = subprocess.run(
                ["node", "--experimental-default-type=module", "--check", path], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None, "node unavailable"
    lines = result.stderr.decode("utf-8", "replace").strip().splitlines()
    message = next((line for line in lines if "Error" in line), lines[-1] if lines else "")
    return result.returncode == 0, message


def is_minified(path: pathlib.Path, data: bytes) -> bool:
    if path.name.endswith((".min.js", ".min.mjs", ".bundle.js")):
        return True
    head = data[:2048]
    return any(len(line) > 1000 for line in head.split(b"\n")[:-1]) or (len(head) == 2048 and b"\n" not in head)


def collect(project: pathlib.Path):
    files, skipped = [], collections.Counter()
    for directory, subdirectories, names in os.walk(project):
        kept = []
        for name in subdirectories:
            if name in SKIP_DIRECTORIES or (name == "assets" and pathlib.Path(directory).name in ("public", "static")):
                skipped["vendored-directory"] += 1
            else:
                kept.append(name)
        subdirectories[:] = sorted(kept)
        for name in sorted(names):
            path = pathlib.Path(directory, name)
            if path.suffix.lower() not in EXTENSIONS or path.is_symlink() or not path.is_file():
                continue
            size = path.stat().st_size
            if size > MAX_BYTES:
                skipped["over-1MB"] += 1
                continue
            data = path.read_bytes()
            if is_minified(path, data):
                skipped["minified"] += 1
                continue
            files.append(str(path))
    return files, skipped


def run_sentinel(bench: str, files):
    results = {}
    with tempfile.TemporaryFile() as paths:
        paths.write("\n".join(files).encode() + b"\n")
        paths.seek(0)
        output = subprocess.run([bench, "parse-js"], stdin=paths, capture_output=True, check=True).stdout
    for line in output.decode("utf-8", "replace").splitlines():
        record = json.loads(line)
        results[record["file"]] = record
    return results


MUTATION_BYTES = b"(){}[];,=<>/`'\"!?:.*+-&|@#"


def compare_mutants(arguments, files, disagreements):
    """Verdicts on mutated copies: where real code is valid, this is where rejections are compared."""
    import random
    generator = random.Random(60)
    row = collections.Counter()
    with tempfile.TemporaryDirectory() as directory:
        mutants = []
        for i in range(arguments.mutants):
            path = generator.choice(files)
            data = bytearray(pathlib.Path(path).read_bytes())
            if not data:
                continue
            position = generator.randrange(len(data))
            if generator.random() < 0.5:
                del data[position]
            else:
                data.insert(position, generator.choice(MUTATION_BYTES))
            target = pathlib.Path(directory, f"m{i}{pathlib.Path(path).suffix.lower()}")
            target.write_bytes(bytes(data))
            mutants.append((str(target), path, position))
        sentinel = run_sentinel(arguments.bench, [m[0] for m in mutants])
        for target, origin, position in mutants:
            data = pathlib.Path(target).read_bytes()
            grammar, source = grammar_for(target, data)
            ts_ok, _, ts_line = tree_sitter_verdict(grammar, source)
            ours = sentinel[target]["ok"]
            row["mutants"] += 1
            if ours == ts_ok:
                row["both-accept" if ours else "both-reject"] += 1
                continue
            row["only-ts-rejects" if ours else "only-sentinel-rejects"] += 1
            line = data[:position].count(b"\n") + 1
            node = node_verdict(target) if target.endswith((".js", ".mjs", ".cjs")) else (None, "")
            disagreements.append((
                "mutant: " + ("only tree-sitter rejects" if ours else "only Sentinel rejects"),
                {"file": origin, "mutation-line": line, "context": data.split(b"\n")[line - 1][:160].decode("utf-8", "replace"),
                 "sentinel": sentinel[target].get("error"), "tree-sitter-error-line": ts_line, "node": node}))
    agree = row["both-accept"] + row["both-reject"]
    print(f"\nmutants ({row['mutants']}, seed 60): both accept {row['both-accept']}, both reject {row['both-reject']}, "
          f"only tree-sitter rejects {row['only-ts-rejects']}, only Sentinel rejects {row['only-sentinel-rejects']}: "
          f"verdict agreement {100 * agree / max(1, row['mutants']):.2f} %")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", required=True, help="path to sentinel-bench (a release build for timings)")
    parser.add_argument("--root", action="append", help="a directory whose subdirectories are projects")
    parser.add_argument("--details", type=int, default=60, help="disagreements listed")
    parser.add_argument("--no-node", action="store_true", help="skip `node --check`")
    parser.add_argument("--json", help="write every disagreement to this file")
    parser.add_argument("--mutants", type=int, default=0,
                        help="also compare verdicts on N mutated copies (one byte deleted or inserted) of corpus files, "
                             "written to a temporary directory: the corpus holds almost no invalid code")
    arguments = parser.parse_args()
    roots = arguments.root or DEFAULT_ROOTS

    totals = collections.Counter()
    disagreements = []
    skipped_total = collections.Counter()
    throughput = None
    all_files = []
    print("| project | files | both accept | both reject | only tree-sitter rejects | only Sentinel rejects | fingerprint agrees | node --check rejects (of .js/.mjs/.cjs without JSX) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for root in roots:
        for project in sorted(pathlib.Path(root).iterdir()):
            if not project.is_dir():
                continue
            files, skipped = collect(project)
            skipped_total.update(skipped)
            all_files.extend(files)
            if not files:
                continue
            sentinel = run_sentinel(arguments.bench, files)
            row = collections.Counter()
            total_us = sum(record.get("us", 0) for record in sentinel.values())
            total_bytes = sum(record.get("bytes", 0) for record in sentinel.values())
            if throughput is None or len(files) > throughput[1]:
                throughput = (project.name, len(files), total_bytes, total_us)
            for path in files:
                record = sentinel.get(path, {"ok": False, "error": "missing from sentinel-bench output"})
                data = pathlib.Path(path).read_bytes()
                grammar, source = grammar_for(path, data)
                ts_ok, ts_fingerprint, ts_line = tree_sitter_verdict(grammar, source)
                node_ok, node_message = (None, "")
                if not arguments.no_node and pathlib.Path(path).suffix in (".js", ".mjs", ".cjs") and \
                        record.get("fp", {}).get("jsx", 0) == 0 and ts_ok == record["ok"]:
                    # JSX is not JavaScript to Node: only files without it are compared.
                    node_ok, node_message = node_verdict(path)
                    row["node-checked"] += 1
                    if node_ok is False:
                        row["node-rejects"] += 1
                        if record["ok"]:
                            disagreements.append(("node --check rejects, Sentinel accepts", {"file": path, "node": node_message}))
                row["files"] += 1
                ours = record["ok"]
                entry = {
                    "file": path, "grammar": grammar, "sentinel": record.get("error") and
                    f"{record.get('line')}:{record.get('column')} {record.get('code')}: {record.get('error')}",
                    "tree-sitter-error-line": ts_line, "node": None if node_ok is None else (node_ok, node_message),
                }
                if ours and ts_ok:
                    row["both-accept"] += 1
                    if record["fp"] == ts_fingerprint:
                        row["fingerprint"] += 1
                    else:
                        differences = {k: (record["fp"].get(k), v) for k, v in ts_fingerprint.items() if record["fp"].get(k) != v}
                        disagreements.append(("fingerprint", entry | {"differences (sentinel, tree-sitter)": differences}))
                elif not ours and not ts_ok:
                    row["both-reject"] += 1
                elif ours:
                    row["only-ts-rejects"] += 1
                    entry["explained"] = tree_sitter_gap(path, ts_line) or (
                        "node --check accepts it" if node_ok else None)
                    if entry["explained"]:
                        row["explained"] += 1
                    disagreements.append(("only tree-sitter rejects", entry))
                else:
                    row["only-sentinel-rejects"] += 1
                    disagreements.append(("only Sentinel rejects", entry))
            totals.update(row)
            print(
                f"| {project.name} | {row['files']} | {row['both-accept']} | {row['both-reject']} | {row['only-ts-rejects']} "
                f"| {row['only-sentinel-rejects']} | {row['fingerprint']}/{row['both-accept']} | {row['node-rejects']}/{row['node-checked']} |")
            sys.stdout.flush()
    print(
        f"| **total** | {totals['files']} | {totals['both-accept']} | {totals['both-reject']} | {totals['only-ts-rejects']} "
        f"| {totals['only-sentinel-rejects']} | {totals['fingerprint']}/{totals['both-accept']} | {totals['node-rejects']}/{totals['node-checked']} |")
    agree = totals["both-accept"] + totals["both-reject"]
    if totals["files"]:
        print(f"\nverdict agreement: {agree}/{totals['files']} = {100 * agree / totals['files']:.2f} %; "
              f"fingerprint agreement: {totals['fingerprint']}/{totals['both-accept']} = "
              f"{100 * totals['fingerprint'] / max(1, totals['both-accept']):.2f} %")
    explained = collections.Counter(
        entry.get("explained") for kind, entry in disagreements if kind == "only tree-sitter rejects")
    if explained:
        print("\nonly tree-sitter rejects, by cause:")
        for cause, count in explained.most_common():
            print(f"- {count} × {cause or 'unexplained'}")
        print(f"verdict agreement counting the explained tree-sitter gaps as agreement: "
              f"{agree + totals['explained']}/{totals['files']} = "
              f"{100 * (agree + totals['explained']) / max(1, totals['files']):.2f} %")
    print("\nminimal valid examples of those gaps, and whether tree-sitter rejects them:")
    for grammar, example in GAP_EXAMPLES:
        print(f"- {grammar}: `{example.decode('utf-8', 'replace').strip()!r}` → "
              f"{'rejected' if PARSERS[grammar].parse(example).root_node.has_error else 'accepted'}")
    print(f"skipped: {dict(skipped_total)} (node_modules and vendored directories are not walked)")
    if throughput:
        name, count, size, micros = throughput
        seconds = max(micros, 1) / 1e6
        print(f"throughput on {name} ({count} files, {size / 1e6:.1f} MB): {count / seconds:.0f} files/s, "
              f"{size / 1e6 / seconds:.1f} MB/s (parse time inside sentinel-bench, one thread)")
    if arguments.mutants:
        compare_mutants(arguments, all_files, disagreements)
    if disagreements:
        print(f"\n### Disagreements ({len(disagreements)})\n")
        for kind, entry in disagreements[: arguments.details]:
            print(f"- {kind}: {json.dumps(entry, ensure_ascii=False)}")
    if arguments.json:
        pathlib.Path(arguments.json).write_text(json.dumps(disagreements, indent=1, ensure_ascii=False))
    return 0 if totals["only-sentinel-rejects"] == 0 and totals["only-ts-rejects"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
