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
    // Switches, not dictionaries of closures: a launch builds no hashed table (their first use
    // cost more instructions than the rest of the parse).

    /// What option `name` sets from its value (false: the value does not read), or nil when it
    /// takes no value.
    private static func valued(_ name: String) -> (@Sendable (inout SandboxRunOptions, String) -> Bool)? {
        switch name {
        case "--profile": { options, text in replace(&options.profile, with: text) }
        case "--workspace": { options, text in assign(text, to: &options.workspace) }
        case "--bind-ro": { options, text in append(text, to: &options.bindReadOnly) }
        case "--allow": { options, text in append(text, to: &options.allow) }
        case "--memory": { options, text in assign(Quantity.bytes(text), to: &options.memoryBytes) }
        case "--workspace-size": { options, text in assign(Quantity.bytes(text), to: &options.workspaceSizeBytes) }
        case "--pids": { options, text in assign(Int(text), to: &options.pids) }
        case "--cpus": { options, text in assign(Double(text), to: &options.cpus) }
        case "--timeout": { options, text in assign(Quantity.seconds(text).flatMap { $0 > 0 ? $0 : nil }, to: &options.timeoutSeconds) }
        case "--status-json": { options, text in assign(text, to: &options.statusJSON) }
        default: nil
        }
    }

    /// Options that may be given more than once (their values add up).
    private static func isRepeatable(_ name: String) -> Bool { name == "--bind-ro" || name == "--allow" }

    /// What flag `name` sets, and the setting it is a name of (a second name of one setting is
    /// not taken), or nil when it is no flag.
    private static func flag(_ name: String) -> (setting: String, set: @Sendable (inout SandboxRunOptions) -> Void)? {
        switch name {
        case "--ro": ("mode", { $0.mode = .ro })
        case "--rw": ("mode", { $0.mode = .rw })
        case "--overlay": ("mode", { $0.mode = .overlay })
        case "--require-limits": (name, { $0.requireLimits = true })
        case "--interactive", "-i": ("--interactive", { $0.interactive = true })
        case "--tty", "-t": ("--tty", { $0.tty = true })
        default: nil
        }
    }

    private static let valuedNames = [
        "--profile", "--workspace", "--bind-ro", "--allow", "--memory", "--workspace-size", "--pids", "--cpus", "--timeout",
        "--status-json",
    ]
    private static let flagNames = ["--ro", "--rw", "--overlay", "--require-limits", "--interactive", "-i", "--tty", "-t"]

    /// Every option and flag name this parser takes (a test checks them against the help, and
    /// that each is one `parse` takes).
    public static var names: Set<String> { Set(valuedNames + flagNames) }

    /// Whether `parse` takes `name` as an option or flag.
    public static func takes(_ name: String) -> Bool { valued(name) != nil || flag(name) != nil }

    /// The options `arguments` (after `sandbox run`) give, or nil when this parser is not certain
    /// to read them as ArgumentParser does, or they make a usage error.
    public static func parse(_ arguments: [String]) -> SandboxRunOptions? {
        var options = SandboxRunOptions()
        var seen: [String] = []
        func firstTime(_ setting: String) -> Bool {
            guard !seen.contains(setting) else { return false }
            seen.append(setting)
            return true
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                options.command = Array(arguments[index...])
                return options.usageError() == nil ? options : nil
            }
            if argument == "-it" || argument == "-ti" {
                guard firstTime("--interactive"), firstTime("--tty") else { return nil }
                options.interactive = true
                options.tty = true
                continue
            }
            if let (setting, set) = flag(argument) {
                guard firstTime(setting) else { return nil }
                set(&options)
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let set = valued(name), isRepeatable(name) || firstTime(name) else { return nil }
            if value == nil, index < arguments.count {
                value = arguments[index]
                index += 1
            }
            guard let value, !value.isEmpty, !value.hasPrefix("-"), set(&options, value) else { return nil }
        }
        // No `--`: no command, a usage error.
        return nil
    }

    private static func replace(_ target: inout String, with value: String) -> Bool {
        target = value
        return true
    }

    private static func append(_ value: String, to list: inout [String]) -> Bool {
        list.append(value)
        return true
    }

    private static func assign<T>(_ value: T?, to target: inout T?) -> Bool {
        guard let value else { return false }
        target = value
        return true
    }
}
