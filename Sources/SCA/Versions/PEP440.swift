/// PEP 440 versions (PyPI): epochs, release segments with implicit zero padding, pre/post/dev
/// releases with the PEP's spelling normalisation, and local versions with the PEP's ordering.
public struct PEP440Scheme: VersionScheme {
    /// Makes the scheme; it has no options.
    public init() {}
    /// The scheme's name for messages.
    public var name: String { "PEP 440" }
    /// Parses `text`; nil when it is not a valid version in this scheme.
    public func parse(_ text: String) -> PEP440Version? { PEP440Version(text) }
    /// A spelling equal for versions of equal precedence.
    public func equalityKey(_ version: PEP440Version) -> String { version.equalityKey }
    /// The release line a fix must share to count as same major: the epoch and first release number.
    public func majorKey(_ version: PEP440Version) -> String {
        "\(version.epoch)!\(version.release.first ?? .zero)"
    }
}

/// One parsed PEP 440 version.
public struct PEP440Version: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Pre-release phase, in precedence order (`alpha`/`a` < `beta`/`b` < `rc`/`c`/`pre`/`preview`).
    public enum Phase: Int, Comparable, Sendable {
        case alpha, beta, rc
        /// Orders alpha < beta < rc.
        public static func < (a: Phase, b: Phase) -> Bool { a.rawValue < b.rawValue }
    }
    /// One local-version segment: numbers sort after strings and compare numerically.
    public enum LocalPart: Comparable, Hashable, Sendable {
        case text(String)
        case number(Natural)
    }

    /// The epoch (`N!`), 0 when absent.
    public let epoch: Natural
    /// The release numbers, e.g. [1, 2, 0] for `1.2.0`.
    public let release: [Natural]
    /// The pre-release phase and number, nil for none.
    public let pre: (phase: Phase, number: Natural)?
    /// The post-release number, nil for none.
    public let post: Natural?
    /// The development-release number, nil for none.
    public let dev: Natural?
    /// The local version segments (after `+`), empty for none.
    public let local: [LocalPart]
    /// The release segment without trailing zeros (at least one element): `1.0.0` and `1` are equal.
    let trimmedRelease: [Natural]

    /// Parses `text`; nil when it is not a valid PEP 440 version.
    public init?(_ text: String) {
        var scanner = PEP440Scanner(text)
        guard let parts = scanner.parse() else { return nil }
        (epoch, release, pre, post, dev, local) = parts
        var end = release.count
        while end > 1 && release[end - 1].isZero { end -= 1 }
        trimmedRelease = Array(release[0..<end])
    }

    /// The normalised spelling (`1.0a1.post2.dev3+ubuntu.1`), as `packaging` prints it.
    public var description: String { spelled(release: release[...]) }

    /// The normalised spelling with trailing release zeros dropped, equal for equal versions.
    var equalityKey: String { spelled(release: trimmedRelease[...]) }

    private func spelled(release: ArraySlice<Natural>) -> String {
        var out = epoch.isZero ? "" : "\(epoch)!"
        out += release.map(\.digits).joined(separator: ".")
        if let pre { out += ["a", "b", "rc"][pre.phase.rawValue] + pre.number.digits }
        if let post { out += ".post\(post)" }
        if let dev { out += ".dev\(dev)" }
        if !local.isEmpty {
            out +=
                "+"
                + local.map { part -> String in
                    switch part {
                    case .text(let s): return s;
                    case .number(let n): return n.digits
                    }
                }.joined(separator: ".")
        }
        return out
    }

    /// Equal precedence, e.g. `1.0 == 1.0.0`.
    public static func == (a: PEP440Version, b: PEP440Version) -> Bool { compare(a, b) == 0 }
    /// PEP 440 precedence.
    public static func < (a: PEP440Version, b: PEP440Version) -> Bool { compare(a, b) < 0 }
    /// Hashes the equality key, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(equalityKey) }

    /// Three-way comparison following the PEP's precedence rules.
    static func compare(_ a: PEP440Version, _ b: PEP440Version) -> Int {
        if a.epoch != b.epoch { return a.epoch < b.epoch ? -1 : 1 }
        let ra = a.trimmedRelease, rb = b.trimmedRelease
        for i in 0..<max(ra.count, rb.count) {
            let x = i < ra.count ? ra[i] : .zero
            let y = i < rb.count ? rb[i] : .zero
            if x != y { return x < y ? -1 : 1 }
        }
        let pa = a.preKey, pb = b.preKey
        if pa != pb { return pa < pb ? -1 : 1 }
        let qa = a.post.map { VersionBound.value($0) } ?? .low, qb = b.post.map { VersionBound.value($0) } ?? .low
        if qa != qb { return qa < qb ? -1 : 1 }
        let da = a.dev.map { VersionBound.value($0) } ?? .high, db = b.dev.map { VersionBound.value($0) } ?? .high
        if da != db { return da < db ? -1 : 1 }
        if a.local.isEmpty != b.local.isEmpty { return a.local.isEmpty ? -1 : 1 }
        for i in 0..<max(a.local.count, b.local.count) {
            guard i < a.local.count else { return -1 }
            guard i < b.local.count else { return 1 }
            if a.local[i] != b.local[i] { return a.local[i] < b.local[i] ? -1 : 1 }
        }
        return 0
    }

    /// A dev release of a final version (`1.0.dev0`) sorts before its pre-releases.
    private var preKey: VersionBound<PhaseKey> {
        if let pre { return .value(PhaseKey(phase: pre.phase, number: pre.number)) }
        return (post == nil && dev != nil) ? .low : .high
    }

    struct PhaseKey: Comparable {
        var phase: Phase
        var number: Natural
        static func < (a: PhaseKey, b: PhaseKey) -> Bool {
            a.phase != b.phase ? a.phase < b.phase : a.number < b.number
        }
    }
}

/// A hand-written scanner for the PEP 440 appendix grammar (case-insensitive, surrounding
/// whitespace allowed), working on bytes to stay fast.
struct PEP440Scanner {
    typealias Parts = (
        Natural, [Natural], (phase: PEP440Version.Phase, number: Natural)?,
        Natural?, Natural?, [PEP440Version.LocalPart]
    )
    private let bytes: [UInt8]
    private var at = 0

    init(_ text: String) {
        var b = Array(text.utf8).map { ($0 >= 0x41 && $0 <= 0x5A) ? $0 + 0x20 : $0 }
        while let f = b.first, f == 0x20 || f == 0x09 || f == 0x0A || f == 0x0D { b.removeFirst() }
        while let l = b.last, l == 0x20 || l == 0x09 || l == 0x0A || l == 0x0D { b.removeLast() }
        bytes = b
    }

    private var current: UInt8? { at < bytes.count ? bytes[at] : nil }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    private static func isSeparator(_ b: UInt8) -> Bool { b == 0x2D || b == 0x5F || b == 0x2E }

    private mutating func number() -> Natural? {
        let start = at
        while let c = current, Self.isDigit(c) { at += 1 }
        guard at > start else { return nil }
        return Natural(String(decoding: bytes[start..<at], as: UTF8.self))
    }

    /// Matches the first of `options` (tried in order, as the PEP's regex alternation does).
    private mutating func word(_ options: [[UInt8]]) -> Int? {
        for (index, option) in options.enumerated() where at + option.count <= bytes.count {
            var same = true
            for k in 0..<option.count where bytes[at + k] != option[k] { same = false; break }
            if same {
                at += option.count
                return index
            }
        }
        return nil
    }

    private static let preLabels: [[UInt8]] = ["alpha", "a", "beta", "b", "preview", "pre", "c", "rc"].map { Array($0.utf8) }
    /// The phase of each entry of `preLabels`.
    private static let prePhases: [PEP440Version.Phase] = [.alpha, .alpha, .beta, .beta, .rc, .rc, .rc, .rc]
    private static let postLabels: [[UInt8]] = ["post", "rev", "r"].map { Array($0.utf8) }
    private static let devLabels: [[UInt8]] = [Array("dev".utf8)]

    /// `[-_.]? label [-_.]? number?`, restoring the position when the label is absent.
    private mutating func labelled(_ labels: [[UInt8]]) -> (Int, Natural)? {
        let start = at
        if let c = current, Self.isSeparator(c) { at += 1 }
        guard let label = word(labels) else { at = start; return nil }
        // The grammar allows a separator after the label even when no number follows ("1.0a-").
        if let c = current, Self.isSeparator(c) { at += 1 }
        return (label, number() ?? .zero)
    }

    mutating func parse() -> Parts? {
        if current == 0x76 { at += 1 }  // "v"
        guard var first = number() else { return nil }
        var epoch = Natural.zero
        if current == 0x21 {  // "!"
            at += 1
            epoch = first
            guard let n = number() else { return nil }
            first = n
        }
        var release = [first]
        while current == 0x2E, at + 1 < bytes.count, Self.isDigit(bytes[at + 1]) {
            at += 1
            guard let n = number() else { return nil }
            release.append(n)
        }
        var pre: (phase: PEP440Version.Phase, number: Natural)?
        if let (label, n) = labelled(Self.preLabels) { pre = (Self.prePhases[label], n) }
        var post: Natural?
        if current == 0x2D, at + 1 < bytes.count, Self.isDigit(bytes[at + 1]) {
            at += 1
            post = number()
        } else if let (_, n) = labelled(Self.postLabels) {
            post = n
        }
        var dev: Natural?
        if let (_, n) = labelled(Self.devLabels) { dev = n }
        var local = [PEP440Version.LocalPart]()
        if current == 0x2B {  // "+"
            at += 1
            while true {
                let start = at
                while let c = current, Self.isDigit(c) || (c >= 0x61 && c <= 0x7A) { at += 1 }
                guard at > start else { return nil }
                let text = String(decoding: bytes[start..<at], as: UTF8.self)
                local.append(Natural(text).map { .number($0) } ?? .text(text))
                guard let c = current, Self.isSeparator(c) else { break }
                at += 1
            }
        }
        guard at == bytes.count else { return nil }
        return (epoch, release, pre, post, dev, local)
    }
}
