import Foundation
import Support
import Testing

@testable import Scan

/// A scanned repository's own `.sentinel.yml` is repository content: the paths it names (`rules`,
/// `semgrep.config`) must lie inside the scanned tree, reached without a symbolic link, or the
/// scan stops (exit 2) naming the key. Only the operator's `--config FILE` may name host paths.
@Suite struct ScanConfigTreeTests {
    final class Tree {
        let base = NSTemporaryDirectory() + "sentinel-config-tree-\(UUID().uuidString)"
        var path: String { base + "/repo" }
        var host: String { base + "/host" }

        init(config: String) throws {
            for directory in [path + "/my-rules", host] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try Data("rules: []\n".utf8).write(to: URL(fileURLWithPath: path + "/semgrep.yml"))
            try Data(config.utf8).write(to: URL(fileURLWithPath: path + "/.sentinel.yml"))
            try FileManager.default.createSymbolicLink(atPath: path + "/host-link", withDestinationPath: host)
        }

        deinit { try? FileManager.default.removeItem(atPath: base) }
    }

    @Test(arguments: [
        ("rules: [/etc]\n", "rules[0]: '/etc' lies outside the scanned tree"),
        ("rules: [my-rules, ../host]\n", "rules[1]: '../host' lies outside the scanned tree"),
        ("rules: [my-rules/../../host]\n", "rules[0]: 'my-rules/../../host' lies outside the scanned tree"),
        ("rules: [host-link]\n", "rules[0]: 'host-link' is or passes through a symbolic link"),
        ("semgrep: {config: [/root/secret.yml]}\n", "semgrep.config[0]: '/root/secret.yml' lies outside the scanned tree"),
        ("semgrep:\n  config: [semgrep.yml, host-link/x.yml]\n", "semgrep.config[1]: 'host-link/x.yml' is or passes through"),
        ("rules: [missing]\n", "rules[0]: 'missing' does not exist"),
    ])
    func repositoryConfigNamesOnlyItsOwnTree(config: String, expected: String) throws {
        let tree = try Tree(config: config)
        let error = #expect(throws: SentinelError.self) { try ScanConfig.load(inTree: tree.path) }
        #expect(error?.code == .invalidInput)
        let message = error?.message ?? ""
        #expect(message.hasPrefix(tree.path + "/.sentinel.yml:"), "\(message)")
        #expect(message.contains(expected), "\(message)")
        #expect(message.contains("a repository's .sentinel.yml names only paths inside the scanned tree"), "\(message)")
        #expect(!message.contains("\n"))
    }

    @Test func pathsInsideTheTreeAreKept() throws {
        let tree = try Tree(config: "rules: [my-rules, ./my-rules/]\nsemgrep: {config: [semgrep.yml]}\n")
        let config = try #require(try ScanConfig.load(inTree: tree.path))
        #expect(config.ruleDirectories == [tree.path + "/my-rules", tree.path + "/my-rules"])
        #expect(config.semgrepConfigs == [tree.path + "/semgrep.yml"])
    }

    @Test func theOperatorsConfigMayNameHostPaths() throws {
        let tree = try Tree(config: "")
        let file = tree.host + "/operator.yml"
        try Data("rules: [\(tree.host)]\nsemgrep: {config: [../repo/semgrep.yml]}\n".utf8).write(to: URL(fileURLWithPath: file))
        let config = try ScanConfig.load(path: file)
        #expect(config.ruleDirectories == [tree.host])
        #expect(config.semgrepConfigs == [tree.path + "/semgrep.yml"])
    }
}
