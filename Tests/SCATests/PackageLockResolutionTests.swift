import Foundation
import Testing

@testable import SCA

/// Hostile inputs round 3, finding 12: package-lock requirements are resolved in one walk of the
/// install scopes (linear), and resolve exactly as Node's lookup does (checked here against that
/// lookup written out naively, on random nestings).
struct PackageLockResolutionTests {
    /// Node's lookup as written: `L/node_modules/N`, then each enclosing package's, then the top.
    static func naive(_ name: String, from location: String, in index: [String: Int]) -> Int? {
        var scope = Substring(location)
        while true {
            let candidate = scope.isEmpty ? "node_modules/" + name : scope + "/node_modules/" + name
            if let found = index[candidate] { return found }
            if scope.isEmpty { return nil }
            scope = PackageLockParser.enclosingScope(scope)
        }
    }

    @Test("the one-walk resolution is Node's lookup", arguments: 0..<40)
    func matchesNodesLookup(seed: Int) {
        var random = SplitMix(seed: UInt64(seed))
        let names = ["a", "b", "c", "@s/d", "e"]
        var locations: [String] = []
        for _ in 0..<(5 + Int(random.next() % 40)) {
            let parent = locations.isEmpty || random.next() % 3 == 0 ? "" : locations[Int(random.next() % UInt64(locations.count))]
            let name = names[Int(random.next() % UInt64(names.count))]
            let location = (parent.isEmpty ? "" : parent + "/") + "node_modules/" + name
            if !locations.contains(location) { locations.append(location) }
        }
        let installed = locations.map { _ in
            PackageLockParser.Installed(
                location: "", wants: (0..<Int(random.next() % 4)).map { _ in names[Int(random.next() % UInt64(names.count))] })
        }
        let placed = zip(locations, installed).map { PackageLockParser.Installed(location: $0, wants: $1.wants) }
        let projects = [PackageLockParser.Installed(location: "", wants: names)]
        let index = Dictionary(uniqueKeysWithValues: placed.enumerated().map { ($1.location, $0) })
        let resolved = PackageLockParser.resolveAll(installed: placed, projects: projects)
        for (i, package) in placed.enumerated() {
            #expect(
                resolved.installed[i] == package.wants.compactMap { Self.naive($0, from: package.location, in: index) },
                "\(package.location)")
        }
        #expect(resolved.projects[0] == names.compactMap { Self.naive($0, from: "", in: index) })
    }

    @Test("a chain nested 1,500 deep (its keys alone are 19 MB) resolves, with every path shortened")
    func deepChain() throws {
        var packages: [String] = [#""": {"dependencies": {"p0": "1"}}"#]
        var location = ""
        for depth in 0..<1_500 {
            location += (location.isEmpty ? "" : "/") + "node_modules/p\(depth)"
            packages.append(#""\#(location)": {"version": "1.0.\#(depth)", "dependencies": {"p\#(depth + 1)": "1"}}"#)
        }
        let text = #"{"lockfileVersion": 3, "packages": {"# + packages.joined(separator: ",") + "}}"
        let result = try PackageLockParser().parse(Array(text.utf8), file: "package-lock.json", manifest: nil)
        #expect(result.dependencies.count == 1_500)
        let last = try #require(result.dependencies.first { $0.name == "p1499" })
        #expect(last.path == ["p0", "p1", "p2", "p3", DependencyGraph.elided, "p1497", "p1498", "p1499"])
    }
}

/// A small deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
