/// The hook a bump's virtual environment loads into every Python process it starts (a `.pth`
/// line in its site-packages): at exit, for each module of the bumped distribution the process
/// has imported, it appends `version path` to `sys.prefix/sentinel-imported`, the version being
/// that of the copy of the distribution the module's file belongs to. So the evidence holds what
/// the tests' own processes imported, not what a later probe finds (a `PYTHONPATH` copy shows
/// up with its own version and path). Processes started outside the environment are not seen.
enum ImportRecorder {
    /// The module's name in site-packages, and the `.pth` file loading it.
    static let module = "_sentinel_imported"

    /// The module (the package name is read from `sys.prefix/sentinel-bump-package`).
    static let source = """
        import atexit, io, os, sys


        def _record():
            try:
                import importlib.metadata as metadata, re
                with io.open(os.path.join(sys.prefix, "sentinel-bump-package")) as handle:
                    wanted = handle.read().strip()
                norm = lambda name: re.sub(r"[-_.]+", "-", name or "").lower()
                lines = []
                for dist in metadata.distributions():
                    if norm(dist.metadata["Name"]) != norm(wanted):
                        continue
                    root = os.path.realpath(str(dist.locate_file("")))
                    tops = set()
                    for path in dist.files or []:
                        top = str(path).split("/")[0]
                        if top.endswith((".dist-info", ".data")) or top in ("..", "__pycache__"):
                            continue
                        tops.add(top[:-3] if top.endswith(".py") else top)
                    for top in sorted(tops):
                        path = getattr(sys.modules.get(top), "__file__", None)
                        if path and os.path.realpath(path).startswith(root + os.sep):
                            lines.append("%s %s\\n" % (dist.version, path))
                if lines:
                    with io.open(os.path.join(sys.prefix, "sentinel-imported"), "a") as out:
                        out.writelines(lines)
            except Exception:
                pass


        atexit.register(_record)

        """
}
