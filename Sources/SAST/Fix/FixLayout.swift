/// Lays a resolved fix over the region it replaces, so that the fix changes only what the template
/// changes.
///
/// Code the template takes from bindings stays exactly as written. The template's text between
/// those pieces is compared, token by token, with the file's text at the same place: tokens both
/// have keep the file's layout (a line break after `(`, the spacing, a comment inside the
/// brackets), tokens only the template has are inserted with its layout, tokens only the file has
/// are dropped. Outside brackets a line break is never added or removed against the template, since
/// there it ends a statement.
enum FixLayout {
    /// The text replacing `region` (byte offsets of `source`).
    static func render(_ pieces: [FixPiece], region: Range<Int>, source: SourceText) -> String {
        guard isAnchored(pieces, in: region) else { return plain(pieces, source: source) }
        var out = ""
        // The file's characters around the region count too: no word is glued to them either.
        var state = MergeState(previous: source.slice(from: region.lowerBound - 4, to: region.lowerBound).unicodeScalars.last)
        let after = source.slice(from: region.upperBound, to: region.upperBound + 4).unicodeScalars.first
        var cursor = region.lowerBound
        var pending = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                pending += text
            case .code(let range):
                let code = source.slice(from: range.lowerBound, to: range.upperBound)
                out += merge(
                    original: source.slice(from: cursor, to: range.lowerBound), template: pending, next: code.unicodeScalars.first,
                    state: &state, indentation: indentation(at: cursor, in: source))
                out += code
                state.previous = code.unicodeScalars.last ?? state.previous
                cursor = range.upperBound
                pending = ""
            }
        }
        out += merge(
            original: source.slice(from: cursor, to: region.upperBound), template: pending, next: after, state: &state,
            indentation: indentation(at: cursor, in: source))
        return out
    }

    /// The spaces and tabs that start the line holding byte `offset`.
    static func indentation(at offset: Int, in source: SourceText) -> String {
        let bytes = source.bytes
        var start = max(0, min(offset, bytes.count))
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n"), bytes[start - 1] != UInt8(ascii: "\r") { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Whether the code pieces lie inside `region`, in file order, without overlapping: only then
    /// is the text between them the file's counterpart of the template's.
    static func isAnchored(_ pieces: [FixPiece], in region: Range<Int>) -> Bool {
        var cursor = region.lowerBound
        for case .code(let range) in pieces {
            guard range.lowerBound >= cursor, range.upperBound <= region.upperBound else { return false }
            cursor = range.upperBound
        }
        return true
    }

    /// Plain substitution, for templates that reorder or repeat code.
    static func plain(_ pieces: [FixPiece], source: SourceText) -> String {
        pieces.reduce(into: "") { out, piece in
            switch piece {
            case .text(let text): out += text
            case .code(let range): out += source.slice(from: range.lowerBound, to: range.upperBound)
            }
        }
    }

    /// Bracket depth of the output so far and its last character.
    struct MergeState {
        var depth = 0
        var previous: Unicode.Scalar?
    }

    /// Above this many token pairs the comparison is skipped and the template's glue used as is.
    static let comparisonLimit = 250_000

    /// The template's glue `template` with the layout of the file's glue `original` where their
    /// tokens agree. `next` is the first character after the glue.
    /// `indentation` is that of the line the glue starts on: a member the template inserts after a
    /// kept comma of a one-member-per-line list gets a line of its own there.
    static func merge(
        original: String, template: String, next: Unicode.Scalar?, state: inout MergeState, indentation: String = ""
    ) -> String {
        var file = GlueTokens(original)
        let fix = GlueTokens(template)
        let pairs = file.tokens.count * fix.tokens.count <= comparisonLimit ? matches(file.tokens, fix.tokens) : [:]
        let kept = Set(pairs.values)
        // A comment on the line of a dropped token goes with it (`verify=False,  # internal CA`).
        for i in file.tokens.indices.dropFirst() where !kept.contains(i - 1) {
            file.tokens[i].layout = droppingComment(file.tokens[i].layout)
        }
        if let last = file.tokens.indices.last, !kept.contains(last) { file.trailing = droppingComment(file.trailing) }

        var out = ""
        var leftIsFile = true
        var lastFile = -1
        // The file token whose line break was moved before tokens the template inserts (below).
        var movedBreak: Int? = nil
        // The file's layout before its token `i` (the trailing layout for `tokens.count`). After
        // dropped tokens it is the layout that followed the kept one (`(verify=False, timeout=1)`
        // keeps `(timeout=1)`, not `( timeout=1)`), except before a closing bracket on its own line;
        // nothing before the token whose line break moved.
        func fileLayout(before i: Int) -> String {
            if i == movedBreak { return "" }
            let own = i < file.tokens.count ? file.tokens[i].layout : file.trailing
            let firstDropped = lastFile + 1
            guard i > firstDropped, !(i < file.tokens.count && [")", "]", "}"].contains(file.tokens[i].text)) else { return own }
            return file.tokens[firstDropped].layout
        }
        func emit(_ text: String, layout: String) {
            out += layout + text
            if let last = text.unicodeScalars.last { state.previous = last }
            switch text {
            case "(", "[", "{": state.depth += 1
            case ")", "]", "}": state.depth = max(0, state.depth - 1)
            default: break
            }
        }
        // Set once a member is inserted on a line of its own: the list's closing bracket, on its
        // own line, then follows a trailing comma as the file's members do.
        var insertedOwnLine = false
        for (j, token) in fix.tokens.enumerated() {
            let i = pairs[j]
            if let i,
                keepsTrailingComma(before: i, in: file, kept: kept, previous: state.previous)
                    || (insertedOwnLine && closesOwnLine(i, in: file) && !"([{,".unicodeScalars.contains(state.previous ?? ","))
            {
                emit(",", layout: "")
            }
            var layout = choose(
                file: i.map(fileLayout(before:)), fix: token.layout, leftIsFile: leftIsFile, depth: state.depth,
                previous: state.previous, next: token.text.unicodeScalars.first)
            // One member per line (`a,\n  b,\n})`): what the template adds after the file's comma
            // starts a new line at the members' indentation.
            if i == nil, leftIsFile, lastFile >= 0, file.tokens[lastFile].text == ",", state.depth > 0 {
                let following = lastFile + 1 < file.tokens.count ? file.tokens[lastFile + 1].layout : file.trailing
                if let lineBreak = GlueTokens.lineBreak(in: following) {
                    layout = lineBreak + indentation
                    insertedOwnLine = true
                }
            }
            // An opening bracket the file ends its line with (`Popen(\n    command,`): what the
            // template inserts right after it (`shlex.split(`) starts the next line, as the file's
            // own token did, and that token then follows it directly.
            if i == nil, leftIsFile, lastFile >= 0, ["(", "[", "{"].contains(file.tokens[lastFile].text), state.depth > 0 {
                let following = lastFile + 1 < file.tokens.count ? file.tokens[lastFile + 1].layout : file.trailing
                if GlueTokens.breaksLine(following), !following.contains("#") {
                    layout = following
                    movedBreak = lastFile + 1
                }
            }
            emit(token.text, layout: layout)
            leftIsFile = i != nil
            if let i { lastFile = i }
        }
        out += choose(
            file: fileLayout(before: file.tokens.count), fix: fix.trailing, leftIsFile: leftIsFile, depth: state.depth,
            previous: state.previous, next: next)
        return out
    }

    /// Whether the file's closing bracket at `i` keeps the trailing comma before it that the
    /// template leaves out: when the bracket sits on a line of its own (the comma is layout then,
    /// one argument or element per line) and the output does not end in an opening bracket or a
    /// comma, where a comma would be a syntax error.
    static func keepsTrailingComma(before i: Int, in file: GlueTokens, kept: Set<Int>, previous: Unicode.Scalar?) -> Bool {
        guard i > 0, [")", "]", "}"].contains(file.tokens[i].text), file.tokens[i - 1].text == ",", !kept.contains(i - 1),
            GlueTokens.breaksLine(file.tokens[i].layout), let previous
        else { return false }
        return !"([{,".unicodeScalars.contains(previous)
    }

    /// Whether the file's token `i` is a closing bracket on a line of its own.
    static func closesOwnLine(_ i: Int?, in file: GlueTokens) -> Bool {
        guard let i, [")", "]", "}"].contains(file.tokens[i].text) else { return false }
        return GlueTokens.breaksLine(file.tokens[i].layout)
    }

    /// `layout` without the comment on its first line (the rest of a dropped token's line).
    static func droppingComment(_ layout: String) -> String {
        let scalars = Array(layout.unicodeScalars)
        guard let hash = scalars.firstIndex(of: "#"), !scalars[..<hash].contains(where: { $0 == "\n" || $0 == "\r" }) else {
            return layout
        }
        var start = hash
        while start > 0, scalars[start - 1] == " " || scalars[start - 1] == "\t" { start -= 1 }
        let end = scalars[hash...].firstIndex { $0 == "\n" || $0 == "\r" } ?? scalars.count
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[..<start])
        out.append(contentsOf: scalars[end...])
        return String(out)
    }

    /// The layout before a token of the output. `file` is the file's layout before the same token
    /// when the file has it (nil when the template inserts it); `leftIsFile` tells whether the
    /// token before is the file's too.
    static func choose(
        file: String?, fix: String, leftIsFile: Bool, depth: Int, previous: Unicode.Scalar?, next: Unicode.Scalar?
    ) -> String {
        var layout = fix
        if let file {
            // Between two tokens of the file its layout holds; after an inserted token only a line
            // break inside brackets is worth keeping (a closing bracket on its own line).
            // A closing bracket keeps the file's spacing too (`{ path: '/', secure: true }`).
            let closes = next.map { ")]}".unicodeScalars.contains($0) } ?? false
            if leftIsFile || (depth > 0 && GlueTokens.breaksLine(file)) || closes { layout = file }
            // Outside brackets line breaks are statements: the template decides them.
            if depth == 0, layout != fix, GlueTokens.breaksLine(layout) || GlueTokens.breaksLine(fix) { layout = fix }
        }
        // Never glue two words together (`not` + `x`).
        if layout.isEmpty, let previous, let next, MetavariableTemplate.isWordScalar(previous), MetavariableTemplate.isWordScalar(next) {
            layout = fix.isEmpty ? " " : fix
        }
        return layout
    }

    /// A longest common subsequence of the two token lists: template token index → file token index.
    static func matches(_ file: [GlueTokens.Token], _ fix: [GlueTokens.Token]) -> [Int: Int] {
        let n = file.count
        let m = fix.count
        guard n > 0, m > 0 else { return [:] }
        // lengths[i][j]: the LCS of file[i...] and fix[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] = file[i].text == fix[j].text ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var pairs: [Int: Int] = [:]
        var i = 0
        var j = 0
        while i < n, j < m {
            // A closing bracket pairs with the template's last one it can: a template inserting
            // `cookie: { secure: true }` before the file's `}` keeps that `}` (and its line) for
            // the object's own end, not for the inserted object's.
            let laterPair = [")", "]", "}"].contains(file[i].text) && lengths[i][j + 1] == lengths[i][j]
            if file[i].text == fix[j].text, !laterPair {
                pairs[j] = i
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
