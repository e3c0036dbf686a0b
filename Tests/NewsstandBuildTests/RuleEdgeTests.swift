import Foundation
import NewsstandArchive
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// Rules whose broken form the ordinary fixtures could not tell from the working one (found by
/// `make mutants`): a movie beside images, a media file named in capitals, a number or URL
/// given as the wrong kind of string, a name differing only in case, an overridden property.
@Suite struct RuleEdgeTests {
    /// MoviePage's own properties by default: one of each scalar kind the default fixture
    /// lacks, and a movie.
    static let movieClass = """
                            <key>movie</key>
                            <dict><key>type</key><string>movie</string></dict>
                            <key>seconds</key>
                            <dict><key>type</key><string>number</string></dict>
                            <key>link</key>
                            <dict><key>type</key><string>url</string></dict>
        """

    /// A magazine whose one issue has one page of class MoviePage (inheriting SimplePage, with
    /// `classProperties` as its own), the page's properties being `properties` (marked in the text they give),
    /// and a movie `clip.mp4` in assets/.
    func fixture(classProperties: String = movieClass, properties: String) throws -> MagazineFixture {
        let fixture = try MagazineFixture()
        try fixture.write(
            "page-classes.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>MoviePage</key>
                    <dict>
                        <key>inherits</key>
                        <string>SimplePage</string>
                        <key>properties</key>
                        <dict>
                \(classProperties)
                        </dict>
                    </dict>
                </dict>
                """))
        try fixture.write(
            "issues/f-1/pages.plist",
            MagazineFixture.plist(
                """
                <array>
                    <array>
                        <dict>
                            <key>class</key>
                            <string>MoviePage</string>
                            <key>properties</key>
                            <dict>
                \(properties)
                            </dict>
                        </dict>
                    </array>
                </array>
                """))
        for name in ["2-0.png", "2-0@2x.png", "2-1.png", "2-1@2x.png", "2-1t.png", "2-1t@2x.png"] {
            try fixture.remove("issues/f-1/assets/\(name)")
        }
        var mp4 = Data([0, 0, 0, 0x18]) + Data("ftypmp42".utf8)
        mp4.append(Data(count: 16))
        try fixture.write("issues/f-1/assets/clip.mp4", mp4)
        return fixture
    }

    static let valid = """
                        <key>baseImage</key>
                        <string>1-0.png</string>
                        <key>movie</key>
                        <string>clip.mp4</string>
                        <key>seconds</key>
                        <real>12.5</real>
                        <key>link</key>
                        <string>https://example.com/a</string>
        """

    /// A number given as a string and a URL without a scheme are the wrong type, each at its line.
    @Test func aNumberAsAStringAndAURLWithoutASchemeAreTheWrongType() throws {
        let fixture = try fixture(
            properties: Self.valid.replacingOccurrences(of: "<real>12.5</real>", with: "<string>12.5</string>⟦seconds⟧")
                .replacingOccurrences(of: "https://example.com/a</string>", with: "example.com/a</string>⟦link⟧"))
        let found = fixture.validate()
        #expect(found.map(\.code) == [.propertyWrongType, .propertyWrongType])
        #expect(found.map(\.location?.line) == ["seconds", "link"].map { fixture.line(of: $0, in: "issues/f-1/pages.plist") })
        #expect(found.first?.message.contains("must be a number") == true)
        #expect(found.last?.message.contains("absolute URL with a scheme") == true)
    }

    /// A subclass's own property replaces the inherited one: here `baseImage`, required in
    /// SimplePage, is redefined as optional, so a page without it is valid.
    @Test func anOverriddenPropertyReplacesTheInheritedOne() throws {
        let fixture = try fixture(
            classProperties: """
                            <key>baseImage</key>
                            <dict><key>type</key><string>image</string></dict>
                            <key>movie</key>
                            <dict><key>type</key><string>movie</string><key>required</key><true/></dict>
                """,
            properties: """
                                <key>movie</key>
                                <string>clip.mp4</string>
                """)
        try fixture.remove("issues/f-1/assets/1-0.png")
        try fixture.remove("issues/f-1/assets/1-0@2x.png")
        #expect(fixture.validate() == [])

        var diagnostics: [Diagnostic] = []
        let layers = [
            PageClassSchema.classes(in: MagazineFixture.builtInSchema, displayPath: "built-in", diagnostics: &diagnostics),
            PageClassSchema.classes(
                in: fixture.url("page-classes.plist"), displayPath: "page-classes.plist", diagnostics: &diagnostics),
        ]
        let schema = PageClassSchema(layers: layers, diagnostics: &diagnostics)
        #expect(diagnostics == [])
        let resolved = try #require(schema.properties(of: "MoviePage"))
        #expect(resolved.map(\.name) == ["baseImage", "movie"], "one baseImage, the subclass's")
        #expect(resolved.map(\.isRequired) == [false, true])
    }

    /// A device's file system tells `F-1` from `f-1`: issue.plist's Name must match exactly.
    @Test func anIssueNameDifferingOnlyInCaseIsAMismatch() throws {
        let fixture = try MagazineFixture()
        let issue = try String(contentsOf: fixture.url("issues/f-1/issue.plist"), encoding: .utf8)
        try fixture.write(
            "issues/f-1/issue.plist",
            issue.replacingOccurrences(of: "<dict>", with: "<dict>\n    <key>Name</key>\n    <string>F-1</string>⟦name⟧"))
        let found = fixture.validate()
        #expect(found.map(\.code) == [.issueNameMismatch])
        #expect(found.first?.location?.line == fixture.line(of: "name", in: "issues/f-1/issue.plist"))
    }

    /// Media is stored whatever the letter case of its extension; text is deflated.
    @Test(arguments: [
        ("PHOTO.JPG", ZipCompression.store), ("clip.Mp4", .store), ("a.PNG", .store), ("pages.plist", .deflate),
        ("page.HTML", .deflate), ("README", .deflate),
    ])
    func mediaIsStoredWhateverTheCaseOfItsExtension(name: String, expected: ZipCompression) {
        #expect(ZipCompression.suited(toFileName: name) == expected)
    }
}
