/// The commented `.sentinel.yml` `sentinel init` writes: the defaults spelled out, each key
/// explained, the optional ones commented out. `ScanConfig.parse` reads it as it is.
enum SentinelConfigTemplate {
    static func text(for setup: ProjectSetup) -> String {
        let ecosystems = setup.ecosystems.isEmpty ? "none yet" : setup.ecosystems.joined(separator: ", ")
        return """
            # Sentinel's settings for this repository, written by `sentinel init`. Every key is optional;
            # `sentinel config show` prints the settings in force and where each came from.

            # The lowest severity that fails `sentinel scan` (and so CI): none, info, low, medium, high, critical.
            failOn: high

            # Findings below this confidence are left out of reports: low, medium, high.
            minConfidence: medium

            # Files to leave out (globs relative to this directory), on top of the default excludes:
            # tests, virtual environments, vendored and build directories (`default-excludes: false`
            # scans those too).
            # exclude:
            #   - docs/**
            #   - scripts/one-off/**

            # Dependency checks read the OSV database (`sentinel db update --for .` fetches the
            # ecosystems your lockfiles use: \(ecosystems)). A scan fails when those advisories are
            # older than this; it may only be lowered here.
            sca:
              max-db-age: 7d

            # A rule's severity, changed for this project:
            # severity:
            #   python.flask-debug-true: low

            # Your own taint sources, sanitisers and sinks (see the README's Configuration section):
            # models:
            #   sanitizers:
            #     - myapp.security.clean_html

            """
    }
}
