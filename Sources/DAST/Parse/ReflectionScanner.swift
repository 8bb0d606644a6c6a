import Web

/// Places each occurrence of a marker in the token that contains it. Tokens tile the input and
/// occurrences are sorted, so one walk places them all; a tag is re-read for its attributes
/// only when it holds an occurrence, once.
enum ReflectionScanner {
    static func occurrences(of marker: [UInt8], in bytes: [UInt8], limit: Int) -> [ReflectionOccurrence] {
        let offsets = ByteSearch.offsets(of: marker, in: bytes, limit: limit)
        guard !offsets.isEmpty else { return [] }
        var result: [ReflectionOccurrence] = []
        var tokenizer = HTMLTokenizer(bytes: bytes, scripting: true, maxAttributes: 0)
        var next = 0
        while next < offsets.count, let token = tokenizer.next() {
            var end = next
            while end < offsets.count, offsets[end] < token.range.upperBound { end += 1 }
            guard end > next else { continue }
            result += place(offsets[next..<end], in: token, bytes: bytes)
            next = end
        }
        return result
    }

    private static func place(_ offsets: ArraySlice<Int>, in token: HTMLToken, bytes: [UInt8]) -> [ReflectionOccurrence] {
        func all(_ context: ReflectionContext) -> [ReflectionOccurrence] {
            offsets.map { ReflectionOccurrence(context: context, offset: $0) }
        }
        switch token.kind {
        case .text: return all(.text)
        case .comment, .doctype: return all(.comment)
        case .rcdata: return all(.rcdata(element: token.name))
        case .rawText where token.name == "script": return script(offsets, in: token.contentRange, bytes: bytes)
        case .rawText where token.name == "style": return all(.style)
        case .rawText: return all(.rcdata(element: token.name))
        case .startTag, .endTag: return tag(offsets, in: token, bytes: bytes)
        }
    }

    private static func script(_ offsets: ArraySlice<Int>, in range: Range<Int>, bytes: [UInt8]) -> [ReflectionOccurrence] {
        var scanner = JSScanner()
        var index = range.lowerBound
        return offsets.map { offset in
            while index < offset { index = scanner.step(bytes, index) }
            return ReflectionOccurrence(context: context(of: scanner.state), offset: offset)
        }
    }

    /// The context a script scanner state stands for.
    static func context(of state: JSScanner.State) -> ReflectionContext {
        switch state {
        case .code: return .script(quote: nil)
        case .string(let quote): return .script(quote: Character(Unicode.Scalar(quote)))
        case .template: return .script(quote: "`")
        case .regex: return .script(quote: "/")
        case .lineComment, .blockComment: return .scriptComment
        }
    }

    private static func tag(_ offsets: ArraySlice<Int>, in token: HTMLToken, bytes: [UInt8]) -> [ReflectionOccurrence] {
        var placed: [Int: ReflectionOccurrence] = [:]
        var pending = offsets.startIndex
        _ = HTMLAttributeScanner.scan(bytes, from: token.nameRange.upperBound) { attribute in
            let end = attribute.valueRange?.upperBound ?? attribute.nameRange.upperBound
            while pending < offsets.endIndex, offsets[pending] < attribute.nameRange.lowerBound { pending += 1 }
            while pending < offsets.endIndex, offsets[pending] < end {
                let offset = offsets[pending]
                if let value = attribute.valueRange, value.contains(offset) {
                    let quote = attribute.quote.map { Character(Unicode.Scalar($0)) }
                    let isURL = HTMLElements.urlAttributes.contains(attribute.name)
                    let atStart = bytes[value.lowerBound..<offset].allSatisfy(HTMLBytes.isSpace)
                    placed[offset] = ReflectionOccurrence(
                        context: isURL
                            ? .urlAttribute(name: attribute.name, quote: quote)
                            : .attributeValue(name: attribute.name, quote: quote),
                        offset: offset, atValueStart: atStart)
                } else if attribute.nameRange.contains(offset) {
                    placed[offset] = ReflectionOccurrence(context: .attributeName, offset: offset)
                }
                pending += 1
            }
        }
        return offsets.map { offset in
            if let known = placed[offset] { return known }
            let inName = offset < token.nameRange.upperBound
            return ReflectionOccurrence(context: inName ? .tagName : .attributeName, offset: offset)
        }
    }
}
