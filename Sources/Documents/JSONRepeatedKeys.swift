extension JSON {
    /// A repeated key as Python's `json` and Node's `JSON.parse` read it: one member, at the
    /// first key's place, holding the last value (and the last key's line). pipenv and npm read
    /// lockfiles that way; keeping the first value would scan a package they do not install.
    static func lastValueWins(_ members: [DocumentMember]) -> [DocumentMember] {
        guard members.count > 1, hasRepeatedKey(members) else { return members }
        var place: [String: Int] = [:]
        var out: [DocumentMember] = []
        out.reserveCapacity(members.count)
        for member in members {
            if let index = place[member.key] {
                out[index] = member
            } else {
                place[member.key] = out.count
                out.append(member)
            }
        }
        return out
    }

    /// Small objects (most of them) are checked without hashing.
    private static func hasRepeatedKey(_ members: [DocumentMember]) -> Bool {
        if members.count <= 8 {
            for i in members.indices.dropLast() where members[(i + 1)...].contains(where: { $0.key == members[i].key }) {
                return true
            }
            return false
        }
        var seen = Set<String>()
        seen.reserveCapacity(members.count)
        return members.contains { !seen.insert($0.key).inserted }
    }
}
