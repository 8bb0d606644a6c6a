import Sandbox
import Support

/// The lean launcher's parser of `sandbox run`'s options: the grammar `SandboxRunCommand`
/// accepts in its plain forms (`--name value`, `--name=value`, `-i`, `-t`, `-it`, then `--` and
/// the command), into the same `SandboxRunOptions`, with the same value readers
/// (`Quantity.bytes`, `Quantity.seconds`, `Int`, `Double`).
///
/// It never reports an error: anything it does not take as certain (an unknown or repeated
/// option, a value that starts with `-` or does not read, help, a usage error) is nil, and the
/// lean launcher hands the whole command line to `sentinel-cli`, whose ArgumentParser prints the
/// one text users see. A test runs both parsers over the same argument lists: whenever this one
/// answers, ArgumentParser answers the same.
public enum SandboxRunArguments {
    /// Options taking a value, and what each sets.
    private static let valued: [String: @Sendable (inout SandboxRunOptions, String) -> Bool] = [
        "--profile": {
            $0.profile = $1; return true
        },
        "--workspace": {
            $0.workspace = $1; return true
        },
        "--bind-ro": {
            $0.bindReadOnly.append($1); return true
        },
        "--allow": {
            $0.allow.append($1); return true
        },
        "--memory": { options, text in assign(Quantity.bytes(text), to: &options.memoryBytes) },
        "--workspace-size": { options, text in assign(Quantity.bytes(text), to: &options.workspaceSizeBytes) },
        "--pids": { options, text in assign(Int(text), to: &options.pids) },
        "--cpus": { options, text in assign(Double(text), to: &options.cpus) },
        "--timeout": { options, text in assign(Quantity.seconds(text).flatMap { $0 > 0 ? $0 : nil }, to: &options.timeoutSeconds) },
        "--status-json": {
            $0.statusJSON = $1; return true
        },
    ]
    /// Options that may be given more than once (their values add up).
    private static let repeatable: Set<String> = ["--bind-ro", "--allow"]
    /// Flags, and what each sets.
    private static let flags: [String: @Sendable (inout SandboxRunOptions) -> Void] = [
        "--ro": { $0.mode = .ro },
        "--rw": { $0.mode = .rw },
        "--overlay": { $0.mode = .overlay },
        "--require-limits": { $0.requireLimits = true },
        "--interactive": { $0.interactive = true },
        "-i": { $0.interactive = true },
        "--tty": { $0.tty = true },
        "-t": { $0.tty = true },
    ]
    /// Flags that are one setting under several names (a second of a group is not taken).
    private static let groups: [String: String] = [
        "--ro": "mode", "--rw": "mode", "--overlay": "mode", "-i": "--interactive", "-t": "--tty",
    ]

    /// Every option and flag name this parser takes (a test checks them against the help).
    public static var names: Set<String> { Set(valued.keys).union(flags.keys) }

    /// The options `arguments` (after `sandbox run`) give, or nil when this parser is not certain
    /// to read them as ArgumentParser does, or they make a usage error.
    public static func parse(_ arguments: [String]) -> SandboxRunOptions? {
        var options = SandboxRunOptions()
        var seen = Set<String>()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                options.command = Array(arguments[index...])
                return options.usageError() == nil ? options : nil
            }
            if argument == "-it" || argument == "-ti" {
                guard seen.insert("--interactive").inserted, seen.insert("--tty").inserted else { return nil }
                options.interactive = true
                options.tty = true
                continue
            }
            if let set = flags[argument] {
                guard seen.insert(groups[argument] ?? argument).inserted else { return nil }
                set(&options)
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let set = valued[name], repeatable.contains(name) || seen.insert(name).inserted else { return nil }
            if value == nil, index < arguments.count {
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty, !value.hasPrefix("-"), set(&options, value) else { return nil }
        }
        // No `--`: no command, a usage error.
        return nil
    }

    private static func assign<T>(_ value: T?, to target: inout T?) -> Bool {
        guard let value else { return false }
        target = value
        return true
    }
}
