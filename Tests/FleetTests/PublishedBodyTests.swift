import Testing

@testable import Fleet

/// The pull request a fleet worker opens for an approved patch quotes the heal's description,
/// which the job's own output supplied (a model's words, a subverted heal's): inert on the page.
struct PublishedBodyTests {
    @Test("the heal's description is a fenced block and the repository a code span, exactly")
    func descriptionIsInert() {
        let body = ApprovedPatch.body(
            job: 7, approver: "security-lead", digest: "abc", repository: "https://example.test/[x](https://evil.example)",
            description: "Fixed. @acme ![b](https://beacon.example/p.png) <img src=x>\n```\n# heading")
        #expect(
            body == """
                A fix verified by Sentinel's fleet (job 7) and approved by security-lead.

                - patch: sha256 `abc`
                - repository: `https://example.test/[x](https://evil.example)`

                ````text
                Fixed. @acme ![b](https://beacon.example/p.png) <img src=x>
                ```
                # heading
                ````

                """)
    }
}
