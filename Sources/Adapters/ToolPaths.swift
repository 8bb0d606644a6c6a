import Findings
import Sandbox

/// Paths as external tools print them, made into the scan-root-relative form findings store.
public enum ToolPaths {
    /// `path` relative to the scan root: the tools run in `/workspace` (the root's mount point), so
    /// they print `./app/x.py`, `app/x.py` or `/workspace/app/x.py`; a host path under `root` is
    /// also accepted.
    public static func relative(_ path: String, root: String) -> String {
        let mount = LaunchPlan.workspaceMountPoint
        let inside = Location.relativePath(path, root: mount)
        if inside != Location.relativePath(path) { return inside }
        return Location.relativePath(path, root: root)
    }
}
