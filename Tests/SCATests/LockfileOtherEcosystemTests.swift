import Testing

@testable import SCA

@Suite struct LockfileOtherEcosystemTests {
    @Test func gemfileLock() throws {
        let result = try GemfileLockParser().parse(try fixture("ruby/Gemfile.lock"), file: "Gemfile.lock")
        #expect(
            rows(result) == [
                Row("feature_flags", "0.4.0", 6, true, ["feature_flags"]),
                Row("activesupport", "6.1.4", 17, true, ["activesupport"]),
                Row("concurrent-ruby", "1.1.9", 21, false, ["activesupport", "concurrent-ruby"]),
                Row("i18n", "1.8.10", 22, false, ["activesupport", "i18n"]),
                Row("nokogiri", "1.12.5", 24, true, ["nokogiri"]),
                Row("racc", "1.5.2", 26, false, ["nokogiri", "racc"]),
                Row("rack", "2.2.3", 27, true, ["rack"]),
                Row("tzinfo", "2.0.4", 28, false, ["activesupport", "tzinfo"]),
            ])
        #expect(result.dependencies[0].notes["source"] == "git")
        #expect(result.dependencies[4].notes["platform"] == "x86_64-linux")
        #expect(result.problems.map(\.line) == [12])
    }

    @Test(arguments: [
        (
            "GEM\n  remote: https://rubygems.org/\n  specs:\n    rack 2.2.3\n",
            "Gemfile.lock:4: expected 'name (version)' in specs"
        ),
        ("GEM\n  specs:\n    rack ()\n", "Gemfile.lock:3: expected 'name (version)' in specs"),
        ("DEPENDENCIES\n  two words\n", "Gemfile.lock:2: expected a gem name"),
    ])
    func gemfileMalformed(text: String, message: String) {
        #expect(thrownMessage { _ = try GemfileLockParser().parse(Array(text.utf8), file: "Gemfile.lock") } == message)
    }

    @Test func composerLock() throws {
        let result = try ComposerLockParser().parse(try fixture("composer/composer.lock"), file: "composer.lock")
        #expect(
            rows(result) == [
                Row("guzzlehttp/guzzle", "7.4.1", 10, true, ["guzzlehttp/guzzle"]),
                Row("guzzlehttp/psr7", "2.1.0", 25, false, ["guzzlehttp/guzzle", "guzzlehttp/psr7"]),
                Row("monolog/monolog", "2.3.5", 33, true, ["monolog/monolog"]),
                Row("phpunit/phpunit", "9.5.10", 40, true, ["phpunit/phpunit"]),
                Row("sebastian/diff", "4.0.4", 48, false, ["phpunit/phpunit", "sebastian/diff"]),
            ])
        #expect(result.dependencies[2].notes["written"] == "v2.3.5")
        #expect(result.dependencies.map { $0.notes["dev"] != nil } == [false, false, false, true, true])
    }

    @Test(arguments: [
        ("v1.2.3", "1.2.3"), ("V2.0", "2.0"), ("dev-main", "dev-main"), ("version", "version"), ("1.0.0", "1.0.0"),
    ])
    func composerStripsVPrefix(written: String, expected: String) {
        #expect(ComposerLockParser.stripped(written) == expected)
    }

    @Test func composerMalformed() {
        let text = "{\"packages\": [\n  {\"name\": \"a/b\"}\n]}"
        #expect(
            thrownMessage { _ = try ComposerLockParser().parse(Array(text.utf8), file: "composer.lock") }
                == "composer.lock:2: package a/b has no \"version\"")
    }

    @Test func packageResolvedV1() throws {
        let result = try PackageResolvedParser().parse(
            try fixture("swiftpm/Package-v1.resolved"), file: "Package.resolved")
        #expect(
            rows(result) == [
                Row("https://github.com/apple/swift-argument-parser", "0.4.4", 5, true, []),
                Row("https://github.com/vapor/vapor.git", "4.48.2", 14, true, []),
                Row("https://github.com/example/experimental.git", nil, 23, true, []),
            ])
        #expect(result.dependencies.allSatisfy { $0.ecosystem == .swiftURL })
        #expect(
            result.problems.map(\.description) == [
                "Package.resolved:23: info: not pinned to a version: https://github.com/example/experimental.git follows branch main"
            ])
    }

    @Test func packageResolvedV2AndV3() throws {
        let v2 = try PackageResolvedParser().parse(try fixture("swiftpm/Package-v2.resolved"), file: "Package.resolved")
        #expect(
            rows(v2) == [
                Row("https://github.com/apple/swift-nio.git", "2.54.0", 4, true, []),
                Row("https://github.com/apple/swift-crypto.git", "2.5.0", 13, true, []),
            ])
        #expect(v2.dependencies[0].notes["identity"] == "swift-nio")
        #expect(v2.problems.map(\.line) == [22])
        let v3 = try PackageResolvedParser().parse(try fixture("swiftpm/Package-v3.resolved"), file: "Package.resolved")
        #expect(rows(v3) == [Row("https://github.com/jpsim/Yams.git", "5.1.3", 5, true, [])])
    }

    @Test func packageResolvedMalformed() {
        let text = "{\n  \"pins\": [ { \"identity\": \"x\" } ],\n  \"version\": 2\n}"
        #expect(
            thrownMessage { _ = try PackageResolvedParser().parse(Array(text.utf8), file: "Package.resolved") }
                == "Package.resolved:2: pin without \"location\"")
    }
}
