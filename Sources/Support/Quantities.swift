/// Parsers for the size and duration syntax of DESIGN §3: `64M`, `1G`, `30s`, `2m`, `1.5h`.
public enum Quantity {
    /// Bytes from `N`, `NK`, `NM`, `NG` (powers of 1024; `KiB`-style and `B` suffixes accepted).
    public static func bytes(_ text: String) -> UInt64? {
        // Blanks go, a newline stays and makes the text no quantity (as Foundation's `.whitespaces`).
        var body = text.trimmingWhitespace(keepingNewlines: true)
        if body.hasSuffix("iB") || body.hasSuffix("ib") {
            body = body.dropLast(2)
        } else if body.hasSuffix("B") || body.hasSuffix("b") {
            body = body.dropLast()
        }
        var multiplier: UInt64 = 1
        switch body.last {
        case "K", "k": multiplier = 1 << 10
        case "M", "m": multiplier = 1 << 20
        case "G", "g": multiplier = 1 << 30
        case "T", "t": multiplier = 1 << 40
        default: break
        }
        if multiplier != 1 { body = body.dropLast() }
        guard let value = Double(body), value >= 0, value.isFinite else { return nil }
        let result = value * Double(multiplier)
        guard result < Double(UInt64.max) else { return nil }
        return UInt64(result)
    }

    /// Seconds from `N`, `Ns`, `Nm`, `Nh`, `Nd` (`ms` also accepted).
    public static func seconds(_ text: String) -> Double? {
        var body = text.trimmingWhitespace(keepingNewlines: true)
        var multiplier = 1.0
        if body.hasSuffix("ms") {
            multiplier = 0.001; body = body.dropLast(2)
        } else if let last = body.last, "smhd".contains(last) {
            multiplier = last == "s" ? 1 : last == "m" ? 60 : last == "h" ? 3600 : 86_400
            body = body.dropLast()
        }
        guard let value = Double(body), value >= 0, value.isFinite else { return nil }
        return value * multiplier
    }
}

import FoundationEssentials
