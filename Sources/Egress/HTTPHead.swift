/// One header line as received (name case kept, value trimmed of surrounding whitespace).
struct HTTPHeader: Hashable, Sendable {
    var name: String
    var value: String
}

/// An HTTP/1.x request line and its headers.
struct HTTPRequestHead: Hashable, Sendable {
    var method: String
    var target: String
    /// `HTTP/1.0` or `HTTP/1.1`.
    var version: String
    var headers: [HTTPHeader]

    /// The values of every header called `name` (case-insensitive).
    func values(of name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Parses a request head from the start of `bytes`. Pure: no I/O, bounded by
    /// `ProxyParseLimits`; control bytes and obsolete line folding are rejected outright so a
    /// garbage stream fails on its first bytes instead of waiting for a blank line.
    static func parse(_ bytes: ArraySlice<UInt8>) -> ProxyParseOutcome<HTTPRequestHead> {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        var end: Int?
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A {
                var line = bytes[lineStart..<index]
                if line.last == 0x0D { line = line.dropLast() }
                if line.isEmpty {
                    guard !lines.isEmpty else { return .invalid(ProxyParseFailure("empty request line", status: 400)) }
                    end = index + 1
                    break
                }
                lines.append(line)
                guard lines.count <= ProxyParseLimits.maxHeaderLines + 1 else {
                    return .invalid(
                        ProxyParseFailure("more than \(ProxyParseLimits.maxHeaderLines) header lines", status: 431))
                }
                lineStart = index + 1
            } else if byte == 0x0D {
                if index + 1 < bytes.endIndex, bytes[index + 1] != 0x0A {
                    return .invalid(ProxyParseFailure("bare CR in request head", status: 400))
                }
            } else if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                return .invalid(
                    ProxyParseFailure("control byte 0x\(String(byte, radix: 16)) in request head", status: 400))
            }
            index += 1
            if index - bytes.startIndex > ProxyParseLimits.maxHeadBytes {
                return .invalid(
                    ProxyParseFailure("request head exceeds \(ProxyParseLimits.maxHeadBytes) bytes", status: 431))
            }
        }
        guard let end else {
            if lines.isEmpty, let failure = checkPartialRequestLine(bytes[lineStart...]) { return .invalid(failure) }
            return .incomplete
        }
        switch build(lines) {
        case .success(let head): return .complete(head, consumed: end - bytes.startIndex)
        case .failure(let failure): return .invalid(failure)
        }
    }

    /// Fails early when the start of a request line cannot be a method.
    private static func checkPartialRequestLine(_ partial: ArraySlice<UInt8>) -> ProxyParseFailure? {
        for byte in partial.prefix(32) {
            if byte == 0x20 { return nil }
            if !isTokenByte(byte) { return ProxyParseFailure("request line does not start with a method", status: 400) }
        }
        return partial.count > 32 && !partial.prefix(33).contains(0x20)
            ? ProxyParseFailure("method too long", status: 400) : nil
    }

    private static func build(_ lines: [ArraySlice<UInt8>]) -> Result<HTTPRequestHead, ProxyParseFailure> {
        let parts = lines[0].split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte),
            !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return .failure(ProxyParseFailure("malformed request line", status: 400)) }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(ProxyParseFailure("unsupported version '\(version.prefix(16))'", status: 400))
        }
        var headers: [HTTPHeader] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(ProxyParseFailure("header line without ':'", status: 400))
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return .failure(ProxyParseFailure("malformed header name", status: 400))
            }
            let value = line[(colon + 1)...].drop(while: isBlank).reversed().drop(while: isBlank).reversed()
            headers.append(
                HTTPHeader(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }
        return .success(
            HTTPRequestHead(
                method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
                version: version, headers: headers))
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
