import Foundation

/// An ecosystem's version ordering. Versions are never compared as strings: each scheme parses
/// text into a `Version` whose `Comparable` conformance is the ecosystem's precedence.
public protocol VersionScheme: Sendable {
    /// A parsed version; `==` means "same precedence" (PEP 440 `1.0 == 1.0.0`).
    associatedtype Version: Comparable & Sendable

    /// A short name for messages ("PEP 440", "SemVer").
    var name: String { get }

    /// The parsed version, or nil when `text` is not a valid version in this scheme.
    func parse(_ text: String) -> Version?

    /// A spelling that is equal for versions of equal precedence; used to index explicit
    /// `versions` lists so that membership is a string lookup.
    func equalityKey(_ version: Version) -> String

    /// The release line a fix must share to count as "same major" (`"1"`, `"0.3"` for 0.x SemVer
    /// is not used: the first component, with the epoch for PEP 440).
    func majorKey(_ version: Version) -> String
}

extension VersionScheme {
    /// The ordering of two version strings, or nil when either is not valid in this scheme.
    public func compare(_ a: String, _ b: String) -> ComparisonResult? {
        guard let x = parse(a), let y = parse(b) else { return nil }
        return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
    }

    /// Whether `text` is a valid version in this scheme.
    public func isValid(_ text: String) -> Bool { parse(text) != nil }

    /// The equality key of `text`, or `text` itself when it does not parse (so that an exact
    /// spelling still matches an exact spelling).
    public func equalityKey(of text: String) -> String {
        parse(text).map(equalityKey) ?? text
    }
}

extension Ecosystem {
    /// The version ordering OSV uses for this ecosystem's `ECOSYSTEM` ranges. Ecosystems without a
    /// scheme of their own get `DottedNumericScheme`, which accepts only plain dotted numbers, so an
    /// unknown ordering never silently produces a wrong answer.
    public var versionScheme: any VersionScheme {
        switch name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name {
        case "PyPI": return PEP440Scheme()
        case "crates.io", "npm", "SwiftURL", "Hex", "Pub": return SemVerScheme(lenient: true)
        case "Go": return GoVersionScheme()
        case "RubyGems": return RubyGemsScheme()
        default: return DottedNumericScheme()
        }
    }
}

/// A non-negative integer of any size: version components (dates, build numbers) can exceed
/// 64 bits and must never overflow. Values that fit are kept as `UInt64` so that comparing and
/// copying stay cheap; larger ones keep their digits.
public struct Natural: Comparable, Hashable, Sendable, CustomStringConvertible {
    private let value: UInt64
    /// Digits without leading zeros, only for values above 19 digits.
    private let big: String?

    /// Builds from ASCII digits; nil when `text` is empty or holds a non-digit.
    public init?<S: StringProtocol>(_ text: S) {
        var kept = [UInt8]()
        var value: UInt64 = 0
        var any = false
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            any = true
            if byte == 0x30 && kept.isEmpty { continue }
            kept.append(byte)
            if kept.count <= 19 { value = value * 10 + UInt64(byte - 0x30) }
        }
        guard any else { return nil }
        self.value = kept.count <= 19 ? value : 0
        self.big = kept.count <= 19 ? nil : String(decoding: kept, as: UTF8.self)
    }

    /// The value 0.
    public static let zero = Natural("0")!

    /// Whether the value is 0.
    public var isZero: Bool { big == nil && value == 0 }
    /// Decimal digits, no leading zeros ("0" for zero).
    public var digits: String { big ?? String(value) }
    /// Decimal digits, no leading zeros.
    public var description: String { digits }

    /// Numeric order, whatever the size.
    public static func < (a: Natural, b: Natural) -> Bool {
        switch (a.big, b.big) {
        case (nil, nil): return a.value < b.value
        case (nil, _?): return true
        case (_?, nil): return false
        case let (x?, y?):
            return x.utf8.count != y.utf8.count ? x.utf8.count < y.utf8.count : x.utf8.lexicographicallyPrecedes(y.utf8)
        }
    }
}

/// A value that can also sort below or above every value: PEP 440's implicit segments and OSV's
/// `introduced: "0"` and `limit: "*"`.
public enum VersionBound<T: Comparable>: Comparable {
    case low
    case value(T)
    case high
}
