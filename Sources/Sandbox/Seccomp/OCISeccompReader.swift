import Documents
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Reads an OCI/Docker seccomp profile (JSON, through Documents' reader) into an
/// `OCISeccompProfile` for a payload with no capabilities. Entries gated on `includes.caps` are
/// left out (the payload holds none), as are those `includes.arches` / `excludes.arches` keep
/// from this architecture and those whose `includes.minKernel` is above the running kernel;
/// `archMap`'s sub-architectures are deliberately not added, so foreign-ABI calls stay killed.
/// The file is bounded (size, nesting, entries, names) and every problem is an
/// `invalidInput` error that starts with the file's name.
enum OCISeccompReader {
    /// The largest profile read (Docker's default is 13 KB).
    static let sizeLimit = 1 << 20
    /// The most `syscalls` entries, and the most syscall names over all of them: a filter holds
    /// at most 4096 BPF instructions anyway.
    static let entryLimit = 4096
    /// See `entryLimit`.
    static let nameLimit = 4096
    /// The names `arches` lists use for this machine's architecture (the launcher's is x86_64).
    static let nativeArchitectures: Set<String> = ["amd64", "x86_64", "SCMP_ARCH_X86_64"]

    /// The profile in the file at `path`, for this machine's kernel.
    static func read(path: String) throws -> OCISeccompProfile {
        let bytes: [UInt8]
        do {
            bytes = Array(try BoundedFile.read(path, limit: sizeLimit))
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, "\(error.message) (cannot read seccomp profile)", errno: error.errno)
        }
        return try parse(bytes, source: path, kernelRelease: runningKernelRelease())
    }

    /// The profile `bytes` hold; `source` names them in errors, `kernelRelease` (uname's
    /// release) decides `minKernel`, `architectures` are the names of this machine's.
    static func parse(
        _ bytes: [UInt8], source: String, kernelRelease: String,
        architectures: Set<String> = nativeArchitectures
    ) throws -> OCISeccompProfile {
        let file = File(source: source, bytes: bytes)
        guard bytes.count <= sizeLimit else { throw file.fail("larger than \(sizeLimit) bytes") }
        // The reader's own depth bound (JSON.maxDepth) keeps hostile nesting off the stack.
        let root = try JSON.parse(bytes, file: source)
        guard root.isObject else { throw file.fail("a seccomp profile must be a JSON object") }
        let defaultErrno = try file.errno(root["defaultErrnoRet"], "defaultErrnoRet") ?? UInt16(EPERM)
        guard let defaultName = root["defaultAction"]?.string else { throw file.fail("missing defaultAction") }
        let defaultAction = try file.action(defaultName, errno: defaultErrno)
        var profile = OCISeccompProfile(defaultAction: defaultAction, rules: [])
        guard let entries = present(root["syscalls"]) else { return profile }
        guard case .array(let items) = entries.value else { throw file.fail("syscalls must be an array") }
        guard items.count <= entryLimit else {
            throw file.fail("syscalls has \(items.count) entries, more than \(entryLimit)")
        }
        let context = Context(
            file: file, defaultAction: defaultAction, defaultErrno: defaultErrno,
            kernelRelease: kernelRelease, architectures: architectures)
        for (index, item) in items.enumerated() {
            profile.rules += try context.rules(item, index: index)
            guard profile.rules.count <= nameLimit else {
                throw file.fail("the syscalls entries name more than \(nameLimit) syscalls")
            }
        }
        return profile
    }

    /// uname's release of the running kernel ("6.1.0-13-amd64"); empty when uname fails.
    static func runningKernelRelease() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "" }
        return withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Whether a kernel of `release` is at least `version`, both read as C's `sscanf("%d.%d")`
    /// reads them (`5.4`, `6`, `6.1.0-13-amd64`); one that has no leading number passes.
    static func kernel(_ release: String, isAtLeast version: String) -> Bool {
        guard let want = majorMinor(version), let have = majorMinor(release) else { return true }
        return have.major > want.major || (have.major == want.major && have.minor >= want.minor)
    }

    /// `%d.%d`: optional leading blanks and sign, digits, then optionally `.` and the same again.
    private static func majorMinor(_ text: String) -> (major: Int, minor: Int)? {
        var rest = Substring(text).utf8[...]
        guard let major = leadingInteger(&rest) else { return nil }
        guard rest.first == UInt8(ascii: ".") else { return (major, 0) }
        rest = rest.dropFirst()
        return (major, leadingInteger(&rest) ?? 0)
    }

    private static func leadingInteger(_ text: inout Substring.UTF8View.SubSequence) -> Int? {
        text = text.drop { $0 == 0x20 || (0x09...0x0D).contains($0) }
        var negative = false
        if let sign = text.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            text = text.dropFirst()
        }
        let digits = text.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard !digits.isEmpty else { return nil }
        text = text.dropFirst(digits.count)
        // Saturated: a kernel version has no 10-digit part, and no overflow may trap.
        var value = 0
        for digit in digits { value = min(value * 10 + Int(digit - UInt8(ascii: "0")), Int(Int32.max)) }
        return negative ? -value : value
    }

    /// A node that is there and not null.
    fileprivate static func present(_ node: DocumentNode?) -> DocumentNode? {
        guard let node, node.value != .null else { return nil }
        return node
    }

    /// The file being read: its name for errors and its bytes for numbers above `Int.max`.
    private struct File {
        let source: String
        let bytes: [UInt8]

        func fail(_ problem: String) -> SentinelError {
            SentinelError(.invalidInput, "\(source): \(problem)")
        }

        func action(_ name: String, errno: UInt16) throws -> OCISeccompProfile.Action {
            guard let action = OCISeccompProfile.Action(name: name, errno: errno) else {
                throw fail("unsupported seccomp action \(name)")
            }
            return action
        }

        /// An errno (0...4095; the kernel returns no higher one); nil when absent or null.
        func errno(_ node: DocumentNode?, _ key: String) throws -> UInt16? {
            guard let node = OCISeccompReader.present(node) else { return nil }
            guard case .integer(let number) = node.value else { throw fail("\(key) must be an integer") }
            guard (0...4095).contains(number) else { throw fail("\(key) \(number) is out of range (0..4095)") }
            return UInt16(number)
        }

        /// An argument's operand: a negative integer as its two's complement (as libseccomp's
        /// `scmp_datum_t`), one above `Int.max` read again from its digits; 0 when absent.
        func operand(_ node: DocumentNode?, _ key: String) throws -> UInt64 {
            guard let node = OCISeccompReader.present(node) else { return 0 }
            switch node.value {
            case .integer(let number): return UInt64(bitPattern: Int64(number))
            case .double:
                if let value = UInt64(numberText(at: node)) { return value }
            default: break
            }
            throw fail("\(key) must be an integer (0 to 2^64-1, or negative)")
        }

        /// The text of the number `node` was read from (its line and byte column).
        private func numberText(at node: DocumentNode) -> String {
            let body = DocumentInput.droppingBOM(bytes)
            var index = body.startIndex
            var line = 1
            while line < node.line, let newline = body[index...].firstIndex(of: 0x0A) {
                index = newline + 1
                line += 1
            }
            let start = min(index + node.column - 1, body.endIndex)
            let token = body[start...].prefix { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("+-.eE".utf8).contains(byte)
            }
            return String(decoding: token, as: UTF8.self)
        }
    }

    /// What deciding and reading one `syscalls` entry needs.
    private struct Context {
        let file: File
        let defaultAction: OCISeccompProfile.Action
        let defaultErrno: UInt16
        let kernelRelease: String
        let architectures: Set<String>

        /// The rules entry `index` makes: none when it does not apply here or repeats the
        /// default action. Checked in the order of the C loader this replaces, so a profile it
        /// accepted is accepted (an entry that does not apply is not checked further).
        func rules(_ entry: DocumentNode, index: Int) throws -> [OCISeccompProfile.Rule] {
            let at = "syscalls[\(index)]"
            guard entry.isObject else { throw file.fail("\(at) must be an object") }
            guard try applies(entry, at: at) else { return [] }
            guard let actionName = entry["action"]?.string else { throw file.fail("\(at) has no action") }
            let errno = try file.errno(entry["errnoRet"], "\(at): errnoRet") ?? defaultErrno
            let action = try file.action(actionName, errno: errno)
            if action == defaultAction { return [] }
            let comparisons = try self.comparisons(OCISeccompReader.present(entry["args"]), at: at)
            return try names(entry, at: at).map {
                OCISeccompProfile.Rule(syscall: $0, action: action, comparisons: comparisons, entry: index)
            }
        }

        /// Whether the entry holds for a capability-less payload on this architecture and kernel.
        private func applies(_ entry: DocumentNode, at: String) throws -> Bool {
            if let includes = OCISeccompReader.present(entry["includes"]) {
                guard includes.isObject else { throw file.fail("\(at).includes must be an object") }
                if try !strings(includes["caps"], at: "\(at).includes.caps").isEmpty { return false }
                let arches = try strings(includes["arches"], at: "\(at).includes.arches")
                if !arches.isEmpty && architectures.isDisjoint(with: arches) { return false }
                if let minKernel = OCISeccompReader.present(includes["minKernel"]) {
                    guard let version = minKernel.string else {
                        throw file.fail("\(at).includes.minKernel must be a string")
                    }
                    if !OCISeccompReader.kernel(kernelRelease, isAtLeast: version) { return false }
                }
            }
            if let excludes = OCISeccompReader.present(entry["excludes"]) {
                guard excludes.isObject else { throw file.fail("\(at).excludes must be an object") }
                // excludes.caps holds: the payload has no capability to be excluded by.
                let arches = try strings(excludes["arches"], at: "\(at).excludes.arches")
                if !architectures.isDisjoint(with: arches) { return false }
            }
            return true
        }

        /// The syscalls of `names`, else of the legacy `name`; none when neither is there.
        private func names(_ entry: DocumentNode, at: String) throws -> [String] {
            if OCISeccompReader.present(entry["names"]) != nil { return try strings(entry["names"], at: "\(at).names") }
            guard let name = OCISeccompReader.present(entry["name"]) else { return [] }
            guard let text = name.string, !text.utf8.contains(0) else { throw file.fail("\(at).name must be a string") }
            return [text]
        }

        private func comparisons(_ args: DocumentNode?, at: String) throws -> [OCISeccompProfile.Comparison] {
            guard let args else { return [] }
            guard case .array(let items) = args.value else { throw file.fail("\(at).args must be an array") }
            guard items.count <= 6 else { throw file.fail("\(at) has more than 6 args") }
            return try items.enumerated().map { position, arg in
                let here = "\(at).args[\(position)]"
                let opName = arg["op"]?.string
                guard let opName, let op = OCISeccompProfile.Operator(rawValue: opName) else {
                    throw file.fail("\(here): unknown op \(opName ?? "(missing)")")
                }
                var index = 0
                if let node = OCISeccompReader.present(arg["index"]) {
                    guard case .integer(let number) = node.value else { throw file.fail("\(here): index must be an integer") }
                    index = number
                }
                guard (0...5).contains(index) else { throw file.fail("\(here): index out of range") }
                return OCISeccompProfile.Comparison(
                    index: index, op: op, value: try file.operand(arg["value"], "\(here): value"),
                    valueTwo: try file.operand(arg["valueTwo"], "\(here): valueTwo"))
            }
        }

        /// A list of strings (no NUL: they go to C); empty when absent or null.
        private func strings(_ node: DocumentNode?, at: String) throws -> [String] {
            guard let node = OCISeccompReader.present(node) else { return [] }
            guard case .array(let items) = node.value else { throw file.fail("\(at) must be an array of strings") }
            return try items.map { item in
                guard let text = item.string, !text.utf8.contains(0) else {
                    throw file.fail("\(at) must be an array of strings")
                }
                return text
            }
        }
    }
}
