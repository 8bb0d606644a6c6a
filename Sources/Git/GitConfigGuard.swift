/// The overrides that keep a repository's own configuration from running anything.
///
/// A repository's `.git/config` (and what it includes) is as hostile as its tree: filters run on
/// every file git reads from the working tree, textconv and external diffs on every diff,
/// fsmonitor on every status, hooks on commits, and the pager, editor, askpass, ssh, credential
/// and gpg programs whenever git wants them. git has no switch to ignore a repository's
/// configuration, so every run first lists the names of the keys it sets (`git config --list
/// --name-only`, which only reads) and overrides each key that names a program, on top of fixed
/// overrides for the keys git reads without them.
///
/// Overrides travel as `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, never as
/// `-c KEY=VALUE`: git splits `-c` at the first `=`, and a subsection may hold one
/// (`[filter "x=y"]`), so `-c filter.x=y.clean=` would override `filter.x` and leave the
/// filter in place. Submodules are never entered (`submodule.recurse`, `diff.ignoreSubmodules`):
/// a submodule's configuration is its own, listed by no run of ours (red team R2, issue 53).
/// Everything here is also inside the sandbox (`GitSandbox`): the guard keeps a hostile
/// configuration from changing what git reports; the sandbox keeps it from reaching the host.
enum GitConfigGuard {
    /// Overrides that apply whatever the repository sets, in the order git applies them.
    static let fixed: [(key: String, value: String)] = [
        ("core.hooksPath", "/dev/null"), ("core.fsmonitor", "false"), ("core.pager", "cat"), ("core.editor", "false"),
        ("sequence.editor", "false"), ("core.askPass", ""), ("core.sshCommand", "false"), ("diff.external", ""),
        ("credential.helper", ""), ("commit.gpgSign", "false"), ("tag.gpgSign", "false"), ("gpg.program", "false"),
        ("core.gitProxy", ""), ("protocol.allow", "never"), ("uploadpack.packObjectsHook", ""),
        ("core.alternateRefsCommand", ""), ("submodule.recurse", "false"), ("diff.ignoreSubmodules", "all"),
        ("status.submoduleSummary", "false"), ("fetch.recurseSubmodules", "false"), ("push.recurseSubmodules", "no"),
        ("core.untrackedCache", "false"), ("gc.auto", "0"), ("maintenance.auto", "false"),
        ("diff.mnemonicPrefix", "false"), ("diff.noprefix", "false"),
    ]

    /// Per-name keys that name a program or make one mandatory: `filter.NAME.clean`, ...
    static let programSuffixes: [(suffix: String, value: String)] = [
        ("clean", ""), ("smudge", ""), ("process", ""), ("required", "false"), ("textconv", ""), ("command", ""),
        ("driver", ""), ("uploadpack", ""), ("receivepack", ""), ("vcs", ""), ("promisor", "false"),
    ]
    /// The sections whose per-name keys those suffixes belong to (`remote.NAME.uploadpack` names
    /// a program a fetch runs; `remote.NAME.promisor` makes git fetch missing objects from it).
    static let programSections = ["filter", "diff", "merge", "remote"]

    /// The environment carrying `fixed` and then `extra` (later entries win for one key).
    static func environment(extra: [(key: String, value: String)] = []) -> [String: String] {
        var variables: [String: String] = [:]
        for (index, entry) in (fixed + extra).enumerated() {
            variables["GIT_CONFIG_KEY_\(index)"] = entry.key
            variables["GIT_CONFIG_VALUE_\(index)"] = entry.value
        }
        variables["GIT_CONFIG_COUNT"] = String(fixed.count + extra.count)
        return variables
    }

    /// The shell prelude run in the sandbox before git itself: it lists the repository's key names
    /// (git prints section and variable names in lower case; a name never holds a newline) and
    /// exports an override for each per-name program key, after the fixed ones. No key name is
    /// ever evaluated: `export "NAME=$k"` assigns the text as it is.
    static var prelude: String {
        var cases = ""
        for (suffix, value) in programSuffixes {
            let alternatives = programSections.map { "\($0).*.\(suffix)" }.joined(separator: "|")
            cases += "    \(alternatives)) v='\(value)' ;;\n"
        }
        return """
            n=${GIT_CONFIG_COUNT:-0}
            keys=$(git config --list --name-only 2>/dev/null) || exit 125
            while IFS= read -r k; do
              case "$k" in
            \(cases)    *) continue ;;
              esac
              export "GIT_CONFIG_KEY_$n=$k" "GIT_CONFIG_VALUE_$n=$v"
              n=$((n + 1))
            done <<SENTINEL_KEYS
            $keys
            SENTINEL_KEYS
            export GIT_CONFIG_COUNT=$n

            """
    }
}
