import Synchronization

/// The fleet's Prometheus metrics: counters, gauges and histograms, each a family of series told
/// apart by their labels, rendered in the text exposition format 0.0.4 for `MetricsServer`.
/// Thread-safe: every update and every rendering takes one lock, so a scrape sees a consistent
/// snapshot. Names are code constants, so an invalid one is a programming error (a precondition).
public final class MetricsRegistry: Sendable {
    /// The bucket bounds for durations in seconds, from 50 ms to ten minutes.
    public static let durationBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600]

    private let families = Mutex<[String: Family]>([:])

    /// An empty registry.
    public init() {}

    /// The counter `name` (created on first use): a value that only goes up.
    public func counter(_ name: String, help: String) -> Counter {
        register(name, help: help, kind: .counter)
        return Counter(registry: self, name: name)
    }

    /// The gauge `name` (created on first use): a value that goes up and down.
    public func gauge(_ name: String, help: String) -> Gauge {
        register(name, help: help, kind: .gauge)
        return Gauge(registry: self, name: name)
    }

    /// The histogram `name` (created on first use) counting observations into `buckets`, upper
    /// bounds in increasing order; the `+Inf` bucket is implicit.
    public func histogram(_ name: String, help: String, buckets: [Double]) -> Histogram {
        precondition(!buckets.isEmpty && buckets.allSatisfy(\.isFinite), "histogram \(name): buckets must be finite")
        precondition(zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 }, "histogram \(name): buckets must increase")
        register(name, help: help, kind: .histogram(bounds: buckets))
        return Histogram(registry: self, name: name)
    }

    /// Every family in the text exposition format 0.0.4: families by name, series by labels.
    public func exposition() -> String {
        let snapshot = families.withLock { $0 }
        var text = ""
        for name in snapshot.keys.sorted() {
            snapshot[name]!.render(name: name, into: &text)
        }
        return text
    }

    /// Whether `name` is a valid metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    public static func isValidName(_ name: String) -> Bool {
        isIdentifier(name, extra: ":")
    }

    /// Whether `name` is a valid label name: `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__`
    /// (reserved for Prometheus itself).
    public static func isValidLabelName(_ name: String) -> Bool {
        isIdentifier(name, extra: "") && !name.hasPrefix("__")
    }

    private static func isIdentifier(_ name: String, extra: String) -> Bool {
        let extraBytes = Array(extra.utf8)
        func isStart(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || extraBytes.contains(byte)
        }
        let bytes = Array(name.utf8)
        guard let first = bytes.first, isStart(first) else { return false }
        return bytes.dropFirst().allSatisfy { isStart($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    private func register(_ name: String, help: String, kind: Family.Kind) {
        precondition(Self.isValidName(name), "invalid metric name \(name)")
        families.withLock { families in
            if let existing = families[name] {
                // Asking twice for the same metric is fine (two components sharing it); asking
                // for another kind under the same name would render an invalid exposition.
                precondition(existing.kind == kind, "metric \(name) registered twice with different types")
                return
            }
            families[name] = Family(help: help, kind: kind)
        }
    }

    fileprivate func update(_ name: String, _ labels: MetricLabels, _ change: (inout Family.Value, Family.Kind) -> Void) {
        families.withLock { families in
            guard let kind = families[name]?.kind else { preconditionFailure("metric \(name) is not registered") }
            // In place: no copy of the family's series on each update.
            change(&families[name]!.series[labels, default: kind.zero], kind)
        }
    }
}

/// A counter's handle: adds to one series per label set. Cheap to copy and share.
public struct Counter: Sendable {
    fileprivate let registry: MetricsRegistry
    /// The metric name.
    public let name: String

    /// Adds `amount` (not negative: a counter only goes up) to the series `labels`. A series
    /// appears in the exposition from its first increment; `increment(by: 0)` shows it at zero.
    public func increment(by amount: Double = 1, labels: MetricLabels = [:]) {
        precondition(amount >= 0, "counter \(name): increment by a negative amount")
        registry.update(name, labels) { value, _ in value.total += amount }
    }
}

/// A gauge's handle: sets or adjusts one series per label set. Cheap to copy and share.
public struct Gauge: Sendable {
    fileprivate let registry: MetricsRegistry
    /// The metric name.
    public let name: String

    /// Sets the series `labels` to `value`.
    public func set(_ value: Double, labels: MetricLabels = [:]) {
        registry.update(name, labels) { current, _ in current.total = value }
    }

    /// Adds `delta` (negative to lower it) to the series `labels`.
    public func add(_ delta: Double, labels: MetricLabels = [:]) {
        registry.update(name, labels) { current, _ in current.total += delta }
    }
}

/// A histogram's handle: counts observations into buckets, per label set. Cheap to copy and share.
public struct Histogram: Sendable {
    fileprivate let registry: MetricsRegistry
    /// The metric name.
    public let name: String

    /// Records `value` in the series `labels`: into the first bucket whose bound is at least
    /// `value` (`+Inf` when none is), its sum and its count.
    public func observe(_ value: Double, labels: MetricLabels = [:]) {
        precondition(labels.pairs.allSatisfy { $0.name != "le" }, "histogram \(name): the le label is reserved")
        registry.update(name, labels) { current, kind in
            guard case .histogram(let bounds) = kind else { return }
            current.buckets[bounds.firstIndex { value <= $0 } ?? bounds.count] += 1
            current.total += value
            current.count += 1
        }
    }

    /// Shows the series `labels` with no observation yet (every bucket at zero), so that it is
    /// scraped from the start rather than from its first observation.
    public func show(labels: MetricLabels = [:]) {
        precondition(labels.pairs.allSatisfy { $0.name != "le" }, "histogram \(name): the le label is reserved")
        registry.update(name, labels) { _, _ in }
    }
}

/// A series' label pairs, kept sorted by name so the same set written in any order is one series.
/// Written as a dictionary literal: `["state": "claimed"]`.
public struct MetricLabels: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// One label.
    public struct Pair: Sendable, Hashable {
        /// The label name, e.g. `state`.
        public let name: String
        /// The label value, any text.
        public let value: String
    }

    /// The pairs, sorted by name.
    public let pairs: [Pair]

    /// The labels `pairs`; each name valid (`MetricsRegistry.isValidLabelName`) and given once.
    public init(_ pairs: [(String, String)]) {
        let sorted = pairs.map { Pair(name: $0.0, value: $0.1) }.sorted { $0.name < $1.name }
        for pair in sorted { precondition(MetricsRegistry.isValidLabelName(pair.name), "invalid label name \(pair.name)") }
        precondition(zip(sorted, sorted.dropFirst()).allSatisfy { $0.name != $1.name }, "a label is given twice")
        self.pairs = sorted
    }

    /// The labels of a dictionary literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// `{a="1",b="2"}` with `extra` appended last (a histogram's `le`); empty without any label.
    func rendered(extra: Pair? = nil) -> String {
        let all = pairs + (extra.map { [$0] } ?? [])
        guard !all.isEmpty else { return "" }
        return "{" + all.map { "\($0.name)=\"\(Exposition.escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
    }
}

/// One metric family: its help, its type and its series.
private struct Family: Sendable {
    enum Kind: Sendable, Equatable {
        case counter
        case gauge
        case histogram(bounds: [Double])

        var zero: Value {
            guard case .histogram(let bounds) = self else { return Value() }
            return Value(buckets: [UInt64](repeating: 0, count: bounds.count + 1))
        }
    }

    /// A series' state: `total` is a counter's or gauge's value, or a histogram's sum.
    struct Value: Sendable {
        var total: Double = 0
        var count: UInt64 = 0
        /// Per-bucket counts, not cumulative; the last is the `+Inf` bucket's own.
        var buckets: [UInt64] = []
    }

    let help: String
    let kind: Kind
    var series: [MetricLabels: Value] = [:]

    func render(name: String, into text: inout String) {
        let type: String
        switch kind {
        case .counter: type = "counter"
        case .gauge: type = "gauge"
        case .histogram: type = "histogram"
        }
        text += "# HELP \(name) \(Exposition.escapeHelp(help))\n# TYPE \(name) \(type)\n"
        // Sorted by the rendered label set: a stable order from scrape to scrape.
        let sorted = series.map { (key: $0.key.rendered(), labels: $0.key, value: $0.value) }.sorted { $0.key < $1.key }
        for (key, labels, value) in sorted {
            guard case .histogram(let bounds) = kind else {
                text += "\(name)\(key) \(Exposition.number(value.total))\n"
                continue
            }
            var cumulative: UInt64 = 0
            for (index, bound) in (bounds + [.infinity]).enumerated() {
                cumulative += value.buckets[index]
                let le = MetricLabels.Pair(name: "le", value: Exposition.number(bound))
                text += "\(name)_bucket\(labels.rendered(extra: le)) \(cumulative)\n"
            }
            text += "\(name)_sum\(key) \(Exposition.number(value.total))\n"
            text += "\(name)_count\(key) \(value.count)\n"
        }
    }
}

/// The text format's escaping and number spelling.
enum Exposition {
    /// A label value with backslash, double quote and newline escaped.
    static func escapeLabelValue(_ value: String) -> String {
        escape(value, quote: true)
    }

    /// Help text with backslash and newline escaped (quotes stay as they are).
    static func escapeHelp(_ help: String) -> String {
        escape(help, quote: false)
    }

    private static func escape(_ text: String, quote: Bool) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\"" where quote: result += "\\\""
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// `value` as Prometheus spells it: integers without a fraction (`1`, not `1.0`), `+Inf`,
    /// `-Inf`, `NaN`, and otherwise the shortest round-tripping decimal.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
