import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// `Language` in issue.plist and magazine.plist: a BCP 47 tag by RFC 5646's syntax, refused
/// on its line when it is not one (NS-514, NS-109), and the language each issue is in (its
/// own, else the magazine's, else `en`) in the feeds' entries. The web edition's `lang`:
/// `PreviewWriterTests`; the EPUB's `dc:language` under EPUBCheck: `EPUBChannelTests`.
@Suite struct LanguageTests {
    let issueFile = "issues/f-1/issue.plist"

    /// issue.plist of f-1 with `extra` after the Summary (marks in `extra` name its lines: `MarkedText`).
    func issue(_ extra: String) -> String {
        MagazineFixture.plist(
            """
            <dict>
                <key>Title</key>
                <string>Issue f-1</string>
                <key>Date</key>
                <date>2026-01-01T08:00:00Z</date>
                <key>Cover</key>
                <string>cover.png</string>
                <key>Summary</key>
                <string>The f-1 issue.</string>
            \(extra)
            </dict>
            """)
    }

    /// magazine.plist with `extra` after the BaseURL.
    func magazinePlist(_ extra: String) -> String {
        MagazineFixture.plist(
            """
            <dict>
                <key>Title</key>
                <string>Fixture</string>
                <key>BaseURL</key>
                <string>https://example.com/mag/</string>
            \(extra)
            </dict>
            """)
    }

    @Test(arguments: [
        "en", "ru", "pt-BR", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1996", "sl-rozaj-biske", "zh-yue-HK",
        "en-US-x-house", "x-whatever", "de-DE-u-co-phonebk", "EN-gb", "haw", "abcde",
        // RFC 5646's syntax allows a language subtag of 5 to 8 letters (none is registered).
        "english",
    ])
    func wellFormedTagsAreAccepted(_ tag: String) {
        #expect(LanguageTag.isWellFormed(tag))
    }

    @Test(arguments: [
        "", "en_US", "Russian language", "ru-", "-ru", "e", "abcd", "abcdefghi", "en-US-", "en--US", "en US", "ру", "en-a", "x",
        "en-x", "en-123456789", "fr-CA-x-toolongsubtag", "en-Latn-Cyrl-US", "de-DE-u", "en-Latn-abc",
    ])
    func malformedTagsAreRefused(_ tag: String) {
        #expect(!LanguageTag.isWellFormed(tag), "\(tag.debugDescription)")
    }

    @Test func anIssuesLanguageIsCheckedOnItsLineAndCarriedInItsPlan() throws {
        let fixture = try MagazineFixture()
        try fixture.write(issueFile, issue("<key>Language</key><string>ru</string>"))
        #expect(fixture.validate().isEmpty)
        let (magazine, plans) = try fixture.plans()
        let plan = try #require(plans.first)
        #expect(plan.metadata.language == "ru")
        #expect(magazine.language(of: plan.metadata) == "ru")

        let bad = "    <key>Language</key>\n    <string>ru_RU</string>⟦language⟧"
        try fixture.write(issueFile, issue(bad))
        let found = fixture.validate()
        let d = try #require(found.with(.issueLanguage).first)
        #expect(found.with(.issueLanguage).count == 1)
        #expect(d.location == SourceLocation(file: issueFile, line: MarkedText(issue(bad)).line(of: "language")))
        #expect(d.severity == .error)
        #expect(
            d.message
                == "Language 'ru_RU' is not a BCP 47 language tag such as 'en', 'ru' or 'pt-BR' (a language of 2-3 or "
                + "5-8 letters, then an optional script, region and variants, joined by '-')")
        #expect(found.with(.issueUnknownKey).isEmpty)

        let number = "    <key>Language</key>\n    <integer>7</integer>⟦language⟧"
        try fixture.write(issueFile, issue(number))
        let wrongType = fixture.validate()
        #expect(wrongType.with(.issueKeyWrongType).map(\.location?.line) == [MarkedText(issue(number)).line(of: "language")])
        #expect(wrongType.with(.issueLanguage).isEmpty)
    }

    @Test func theMagazinesLanguageIsCheckedOnItsLineAndIsTheFallback() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        try fixture.write(issueFile, issue("<key>Language</key><string>ru</string>"))
        var (magazine, plans) = try fixture.plans()
        #expect(magazine.language == nil)
        #expect(plans.map { magazine.language(of: $0.metadata) } == ["ru", "en"])

        try fixture.write("magazine.plist", magazinePlist("<key>Language</key><string>fr-CA</string>"))
        #expect(fixture.validate().isEmpty)
        (magazine, plans) = try fixture.plans()
        #expect(plans.map { magazine.language(of: $0.metadata) } == ["ru", "fr-CA"])

        let bad = "    <key>Language</key>\n    <string>fr_CA</string>⟦language⟧"
        try fixture.write("magazine.plist", magazinePlist(bad))
        let found = fixture.validate().with(.magazineLanguage)
        let d = try #require(found.first)
        #expect(found.count == 1)
        #expect(d.location == SourceLocation(file: "magazine.plist", line: MarkedText(magazinePlist(bad)).line(of: "language")))
        #expect(d.severity == .error)
        #expect(d.message.contains("found 'fr_CA'"), "\(d.message)")
        try fixture.write("magazine.plist", magazinePlist("<key>Language</key><true/>"))
        #expect(fixture.validate().with(.magazineLanguage).first?.message.hasSuffix("found boolean") == true)
    }

    @Test func theFeedsEntriesSayEachIssuesLanguage() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        try fixture.write(issueFile, issue("<key>Language</key><string>ru</string>"))
        let output = try Shell.temporaryFolder()
        let (magazine, plans) = try fixture.plans()
        _ = try await offPool {
            try MagazineBuilder(
                magazine: magazine,
                options: BuildOptions(
                    output: output, jobs: 1, feeds: [.atom, .opds], versioned: false,
                    now: Date(timeIntervalSince1970: 1_790_000_000))
            ).build(plans)
        }
        let atom = try String(contentsOf: output.appendingPathComponent("atom.xml"), encoding: .utf8)
        let entries = atom.components(separatedBy: "<entry").dropFirst()
        #expect(entries.map { $0.hasPrefix(" xml:lang=\"en\">") && $0.contains("f-2") } == [true, false])
        #expect(entries.map { $0.hasPrefix(" xml:lang=\"ru\">") && $0.contains("f-1") } == [false, true])

        let opds = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("opds.json")))
        let publications = try #require((opds as? [String: Any])?["publications"] as? [[String: Any]])
        let languages = publications.map { (($0["metadata"] as? [String: Any])?["language"] as? String) ?? "none" }
        #expect(languages == ["en", "ru"])
    }
}
