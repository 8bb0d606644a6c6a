import Foundation
import Support

/// A pytest plugin that runs only the tests a heal names: a candidate is first run on the tests
/// that failed on the unchanged tree (a screen), and the whole command runs only when they pass.
/// With a real suite (dozens of tests, some on large inputs) most candidates fail that screen in
/// a fraction of the suite's time, so the same budget tries many more of them.
///
/// The module sits beside the coverage tracer (same directory, reached the same two ways: see
/// ``CoverageTracer/environment(directory:workspace:merging:)``) and is loaded with
/// ``pytestOption``; the node ids come in ``environmentVariable`` as a JSON array. Tests not named
/// are deselected as `-k` deselects them (pytest reports them as deselected, not skipped); the
/// named ones run in the order given.
public enum TestSelection {
    /// The plugin's module name.
    public static let moduleName = "sentinel_heal_select"
    /// The pytest option that loads it.
    public static let pytestOption = "-p \(moduleName)"
    /// The variable holding the node ids, a JSON array of strings.
    public static let environmentVariable = "SENTINEL_HEAL_SELECT"
    /// The most tests a screen names; a signal with more failing tests is not screened (its
    /// screen would be most of the suite).
    public static let maximumTests = 200
    /// The longest value of ``environmentVariable``: node ids are the repository's names, and
    /// one variable past the kernel's 128 KiB would fail every screen's `execve`.
    public static let maximumBytes = 64 << 10

    /// Writes the plugin as `<moduleName>.py` into `directory` (the tracer's, which must exist).
    public static func install(into directory: String) throws {
        try PreparedOutputFile(path: directory + "/" + moduleName + ".py").write(pluginSource)
    }

    /// The variable's value naming `tests`.
    public static func environmentValue(_ tests: [String]) -> String {
        // A list of strings always encodes; "[]" selects nothing away.
        String(decoding: (try? JSONEncoder().encode(tests)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// The plugin's Python source (Python 3.8+, pytest 6.2+). A value that is not a JSON array
    /// of strings selects nothing away: the run is then the whole command's, never an empty one.
    public static let pluginSource = #"""
        """Sentinel heal: run only the tests named in SENTINEL_HEAL_SELECT (a JSON array of node ids)."""
        import json
        import os

        import pytest


        def _wanted():
            try:
                value = json.loads(os.environ.get("SENTINEL_HEAL_SELECT", ""))
            except ValueError:
                return None
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                return None
            return {nodeid: position for position, nodeid in reversed(list(enumerate(value)))}


        @pytest.hookimpl(trylast=True)
        def pytest_collection_modifyitems(session, config, items):
            wanted = _wanted()
            if wanted is None:
                return
            kept = [item for item in items if item.nodeid in wanted]
            dropped = [item for item in items if item.nodeid not in wanted]
            if dropped:
                config.hook.pytest_deselected(items=dropped)
            # In the order named (the quickest first): with -x the first still failing ends the run.
            kept.sort(key=lambda item: wanted[item.nodeid])
            items[:] = kept
        """#
}
