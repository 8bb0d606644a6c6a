#!/usr/bin/env python3
"""Fails when a module under Sources/ imports a module the layer table does not allow.

The table (scripts/layers.txt) lists modules top to bottom; a module may import only modules listed
above it, plus system and third-party modules. ArgumentParser belongs to the CLI surface alone.
Every directory under Sources/ must appear in the table, so a new module is placed on purpose.
Package.swift declares exactly what each target imports (Swift `import`s; a C target's `#include`s of
a system library's headers): an import of a package module that is not a declared dependency, or a
declared dependency no source of the target imports, fails.
A deny-list keeps one mechanism per job (DENIED): NSLock nowhere (Mutex), DispatchQueue.concurrentPerform
only in Support's ParallelFor, JSONSerialization only in the files that still have it, Foundation's
Process only in the fleet's JobProcess, accept loops only in HTTPResponder, the proxy and the broker.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLI_ONLY = {"ArgumentParser": {"SentinelCLI", "sentinel"}}
# Issue 77, the language seam: each language's front end reads and lowers into SyntaxTree, never
# into another language's parser (a front end built on another's tree breaks on the third language).
# ... and the engine asks a file's Language (SyntaxTree's protocol) instead of recognising one
# language by name, flag or spelling: none of these appear under Sources/SAST.
LANGUAGE_SPELLINGS = re.compile(r'isJavaScript|"#fn|"-js"')
PYTHON_TREE_NAMES = re.compile(r"\b(?:PyNode|PyNodeKind|PyLargeStack)\b")
LANGUAGE_SIBLINGS = {
    "PythonSyntax": {"JavaScriptSyntax", "JavaScriptLowering"},
    "JavaScriptSyntax": {"PythonSyntax"},
    "JavaScriptLowering": {"PythonSyntax"},
}
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_implementationOnly\s+|@_exported\s+|@preconcurrency\s+|public\s+|internal\s+|package\s+)*"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
C_INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([A-Za-z0-9_]+)/')
# DESIGN §5b: one primitive writes files (Support's PreparedOutputFile / PreparedOutputDirectory,
# directory fd + O_NOFOLLOW + temp and rename). Foundation's path-based writers follow links.
PATH_WRITERS = re.compile(r"FileManager\.default\.createFile\(|\.write\(toFile:|\.write\(to: *URL\(|\bAtomicFile\b|\bfopen\(")
# The read side (issue 26): code that reads the scanned tree's files goes through Support's
# TreeReader (directory fd, openat2 beneath, no links, regular files, bounded), never a path reader.
PATH_READERS = re.compile(r"\.contents\(atPath:|Data\(contentsOf:|contentsOfFile:")
TREE_READERS = ("Sources/Scan/", "Sources/SCA/Lockfiles/", "Sources/Adapters/SourceLines.swift")
# Every raw file-system call (open, mkdir, link, rename, chmod... of libc, and Foundation's path
# readers and mutators) sits in a file listed in scripts/raw-file-calls.txt with the reason it may:
# the primitives themselves, and code acting on kernel or root-owned trees. Anything else goes
# through the primitives; a new raw call fails here until it is listed and justified.
RAW_FS_CALLS = re.compile(
    r"(?<![\w.])(?<!func )(?<!case )(?:Glibc\.)?"
    r"(open|openat|openat2|creat|fopen|opendir|mkdir|mkdirat|mkfifo|mknod|mknodat|unlink|unlinkat|rmdir|rename|"
    r"renameat|renameat2|symlink|symlinkat|link|linkat|chmod|fchmodat|chown|lchown|fchownat|truncate|utimensat)"
    r"\((?!\))(?![^()]*\b[a-z]\w*: )")
STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')
FOUNDATION_PATH_IO = re.compile(
    r"FileManager\.default\.(createDirectory|copyItem|moveItem|removeItem|createSymbolicLink|linkItem|setAttributes|"
    r"replaceItem|trashItem|createFile|contents)\(|FileHandle\((forWriting|forUpdating|forReading)|"
    r"Data\(contentsOf:|contentsOfFile:")

# Issue 57, one mechanism per job (docs/HACKING.md, "One way per job"): each token below is allowed
# only in the files listed with it (none: nowhere), under the directories it is checked in; anything
# else uses the named home. Comments and string literals do not count.
PARALLEL_FOR_HOME = "Sources/Support/Concurrency/ParallelFor.swift"
# Where JSONSerialization still is, to move to the Documents reader (and then leave this list);
# nowhere new.
JSON_SERIALIZATION_HOMES = {
    "Sources/Audit/AuditLog.swift",
    "Sources/Audit/AuditVerifier.swift",
    "Sources/Autonomy/Controller/Evidence+Autonomy.swift",
    "Sources/Autonomy/GitHub/GitHubJSON.swift",
    "Sources/Autonomy/Queue/ProposalIntegrity.swift",
    "Sources/Autonomy/Queue/ProposalRecovery.swift",
    "Sources/Fleet/FleetAudit.swift",
    "Sources/Fleet/JobExecution.swift",
}
DENIED = [
    # (token, directories checked, files that may use it, what to use instead)
    ("NSLock", ("Sources", "Tests"), set(), "Synchronization.Mutex"),
    ("JSONSerialization", ("Sources",), JSON_SERIALIZATION_HOMES, "the Documents reader"),
    ("DispatchQueue.concurrentPerform", ("Sources",), {PARALLEL_FOR_HOME}, f"ParallelFor of {PARALLEL_FOR_HOME}"),
    # Outside the sandbox a process is started in one place: the fleet's job (its output to files,
    # its deadline the job's). Anything else runs in the sandbox (SandboxSession), bounded there.
    ("Process()", ("Sources",), {"Sources/Fleet/JobProcess.swift"}, "SandboxSession, or the fleet's JobProcess"),
    # Connections are accepted in three places: the one small HTTP server (bounded threads and
    # reads), the egress proxy and the launch broker; a new listener answers through the first.
    ("csys_accept4", ("Sources",),
     {"Sources/HTTP/Responder/HTTPResponder.swift", "Sources/Egress/SocketIO.swift", "Sources/Sandbox/Broker/LaunchBroker.swift"},
     "HTTP's HTTPResponder"),
]


def denied_uses() -> list[str]:
    """`path:line: token is not allowed here (use ...)` for each use of a DENIED token outside its
    homes, and a line for each home that no longer uses its token (so the list only shrinks)."""
    problems = []
    for token, directories, homes, instead in DENIED:
        pattern = re.compile(r"(?<![\w.])" + re.escape(token) + (r"\b" if token[-1].isalnum() else ""))
        using = set()
        for directory in directories:
            for source in sorted((ROOT / directory).rglob("*.swift")) if (ROOT / directory).is_dir() else []:
                name = str(source.relative_to(ROOT))
                for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
                    if line.lstrip().startswith("//") or not pattern.search(STRING_LITERAL.sub('""', line)):
                        continue
                    using.add(name)
                    if name not in homes:
                        problems.append(f"{name}:{number}: {token} is not allowed here (use {instead})")
        for home in sorted(homes - using):
            problems.append(f"scripts/check-architecture.py: {home} no longer uses {token}; remove it from its homes")
    return problems


def raw_file_call_allowances() -> dict[str, str]:
    allowed = {}
    for line in (ROOT / "scripts" / "raw-file-calls.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            path, _, reason = line.partition(" ")
            allowed[path] = reason.strip()
    return allowed


def raw_file_calls(source: pathlib.Path) -> list[tuple[int, str]]:
    """(line, call) of each raw file-system call in `source`, skipping names the file defines itself."""
    text = source.read_text(errors="replace")
    own = set(re.findall(r"\bfunc ([a-z]\w*)\(", text))
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("//"):
            continue
        # A string literal names a call (an error's stage, "openat2(upper)"); it makes none.
        line = STRING_LITERAL.sub('""', line)
        for match in RAW_FS_CALLS.finditer(line):
            if match.group(1) not in own:
                found.append((number, match.group(1)))
        found += [(number, match.group(0).rstrip("(")) for match in FOUNDATION_PATH_IO.finditer(line)]
    return found


SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s+<([^>]+)>", re.M)
TARGET_CALL = re.compile(r"\.(target|testTarget|executableTarget|systemLibrary)\(")
DEFAULT_ROOT = {"target": "Sources", "executableTarget": "Sources", "testTarget": "Tests", "systemLibrary": "Sources"}


def package_targets() -> dict[str, tuple[str, set[str]]]:
    """Each target of Package.swift: name → (its source directory, its declared dependencies).

    A dependency is a target name, a product by name (`"Yams"`) or `.product(name: "ArgumentParser", ...)`,
    whose module bears the product's name.
    """
    text = (ROOT / "Package.swift").read_text()
    targets = {}
    for match in TARGET_CALL.finditer(text):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        call = text[match.end():end]
        name = re.search(r'name:\s*"([^"]+)"', call).group(1)
        path = re.search(r'\bpath:\s*"([^"]+)"', call)
        listed = re.search(r"dependencies:\s*\[(.*?)\]\s*(?:,\s*[a-zA-Z]+:|$)", call, re.S)
        dependencies = set()
        if listed:
            body = re.sub(r"\.product\(\s*name:\s*(\"[^\"]+\")[^)]*\)", r"\1", listed.group(1))
            dependencies = set(re.findall(r'"([^"]+)"', body))
        directory = path.group(1) if path else f"{DEFAULT_ROOT[match.group(1)]}/{name}"
        targets[name] = (directory, dependencies)
    return targets


def dependency_drift() -> list[str]:
    """Targets whose imports of package modules differ from their declared dependencies.

    System modules (Foundation, Glibc, Dispatch, Synchronization, Testing...) are not the package's
    and are ignored. A C target imports a system library when it includes a header the library's
    shim includes (`<seccomp.h>` is CSeccomp's).
    """
    targets = package_targets()
    modules = set(targets) | {dependency for _, declared in targets.values() for dependency in declared}
    shim_headers = {}
    for name, (directory, _) in targets.items():
        for shim in sorted((ROOT / directory).glob("*.h")) if (ROOT / directory / "module.modulemap").exists() else []:
            for header in SYSTEM_INCLUDE.findall(shim.read_text(errors="replace")):
                shim_headers[header] = name
    problems = []
    for name, (directory, declared) in sorted(targets.items()):
        root = ROOT / directory
        if not root.is_dir() or (root / "module.modulemap").exists():
            continue
        imported = set()
        for source in sorted(root.rglob("*.swift")):
            for line in source.read_text(errors="replace").splitlines():
                match = IMPORT.match(line)
                if match and match.group(1) in modules and match.group(1) != name:
                    imported.add(match.group(1))
        for source in sorted(root.rglob("*")):
            if source.suffix in (".c", ".h"):
                included = SYSTEM_INCLUDE.findall(source.read_text(errors="replace"))
                imported |= {shim_headers[header] for header in included if header in shim_headers}
        for module in sorted(imported - declared):
            problems.append(f"Package.swift: {name} imports {module} but does not declare it as a dependency")
        for module in sorted(declared - imported):
            problems.append(f"Package.swift: {name} declares {module} but no source of it imports it")
    return problems


def layers() -> list[str]:
    text = (ROOT / "scripts" / "layers.txt").read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def design_order(design: pathlib.Path) -> list[str]:
    """The module names of the design page's §1 layout block, in order: each `  Name/` entry of
    its Sources/ part (empty without the page)."""
    if not design.exists():
        return []
    block = design.read_text().split("## 1. Layout", 1)[-1].split("```")[1]
    sources = block.split("\nSources/\n", 1)[-1].split("\nTests/", 1)[0]
    return [match.group(1) for match in re.finditer(r"^  ([A-Za-z][A-Za-z0-9-]*)/", sources, re.M)]


def main() -> int:
    order = layers()
    rank = {name: index for index, name in enumerate(order)}
    problems = []
    # The map and the code agree both ways: every module on the page, every name on the page a
    # module, in the layer table's order (`--design PATH` checks another page: the test's).
    arguments = sys.argv[1:]
    design_page = pathlib.Path(arguments[arguments.index("--design") + 1]) if "--design" in arguments else ROOT / "docs" / "DESIGN.md"
    design = design_order(design_page)
    modules = {p.name for p in (ROOT / "Sources").iterdir() if p.is_dir()}
    page = design_page.name
    for name in sorted(modules - set(design)):
        problems.append(f"{page}: §1 does not list the module Sources/{name}")
    for name in [name for name in design if name not in modules]:
        problems.append(f"{page}: §1 lists {name}/, which is no module under Sources/")
    placed = [name for name in design if name in rank]
    if [rank[name] for name in placed] != sorted(rank[name] for name in placed):
        problems.append(f"scripts/layers.txt: modules are not in {page} §1's order")
    for module_dir in sorted(p for p in (ROOT / "Sources").iterdir() if p.is_dir()):
        module = module_dir.name
        if module not in rank:
            problems.append(f"Sources/{module}: not in scripts/layers.txt (place it in the layer table)")
            continue
        for source in sorted(module_dir.rglob("*.swift")):
            for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
                if PATH_WRITERS.search(line) and not line.lstrip().startswith("//"):
                    problems.append(f"{source.relative_to(ROOT)}:{number}: writes a file by path; use PreparedOutputFile")
                tree_code = str(source.relative_to(ROOT)).startswith(TREE_READERS)
                if tree_code and PATH_READERS.search(line) and not line.lstrip().startswith("//"):
                    problems.append(f"{source.relative_to(ROOT)}:{number}: reads a tree file by path; use TreeReader")
                match = IMPORT.match(line)
                if not match:
                    continue
                imported = match.group(1)
                where = f"{source.relative_to(ROOT)}:{number}"
                if imported in rank and rank[imported] >= rank[module]:
                    problems.append(f"{where}: {module} imports {imported}, which is not above it in the layer table")
                if imported in LANGUAGE_SIBLINGS.get(module, set()):
                    problems.append(f"{where}: {module} imports {imported}: a language's front end depends on SyntaxTree, "
                                    "not on another language's parser")
                allowed = CLI_ONLY.get(imported)
                if allowed is not None and module not in allowed:
                    problems.append(f"{where}: {module} imports {imported}; only {', '.join(sorted(allowed))} may")
    for source in sorted((ROOT / "Sources" / "SAST").rglob("*.swift")):
        for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
            if LANGUAGE_SPELLINGS.search(line):
                problems.append(f"{source.relative_to(ROOT)}:{number}: recognises a language by name or spelling; "
                                "ask the file's Language (SyntaxTree) instead")
    # The tree is no parser's: Python's former names for it (removed in issue 77) stay gone.
    for source in sorted(list((ROOT / "Sources").rglob("*.swift")) + list((ROOT / "Tests").rglob("*.swift"))):
        for number, line in enumerate(source.read_text(errors="replace").splitlines(), 1):
            if PYTHON_TREE_NAMES.search(line):
                problems.append(f"{source.relative_to(ROOT)}:{number}: names the shared tree after Python; "
                                "use SyntaxNode, SyntaxKind, LargeStack")
    problems += dependency_drift()
    problems += denied_uses()
    allowed = raw_file_call_allowances()
    for source in sorted((ROOT / "Sources").rglob("*.swift")):
        name = str(source.relative_to(ROOT))
        calls = raw_file_calls(source)
        if calls and name not in allowed:
            number, call = calls[0]
            problems.append(f"{name}:{number}: {call}: a raw file-system call; use the primitives in Support "
                            "(PreparedOutputFile, AppendOnlyFile, TreeReader, BoundedFile, DirectoryDescriptor) or list the file "
                            "with its reason in scripts/raw-file-calls.txt")
        elif not calls and name in allowed:
            problems.append(f"scripts/raw-file-calls.txt: {name} makes no raw file-system call any more; remove it")
    for listed in allowed:
        if not (ROOT / listed).exists():
            problems.append(f"scripts/raw-file-calls.txt: {listed} does not exist")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"architecture: {len(order)} modules in the layer table, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
