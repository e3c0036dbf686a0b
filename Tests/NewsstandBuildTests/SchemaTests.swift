import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import Testing

/// The schema language: inheritance, overrides, nested types and errors in schema files.
@Suite struct SchemaTests {
    @Test func builtInClassesResolveWithInheritance() throws {
        var diagnostics: [Diagnostic] = []
        let classes = PageClassSchema.classes(
            in: MagazineFixture.builtInSchema, displayPath: "built-in", diagnostics: &diagnostics)
        let schema = PageClassSchema(layers: [classes], diagnostics: &diagnostics)
        #expect(diagnostics == [])
        #expect(schema.properties(of: "SimplePage")?.map(\.name) == ["baseImage"])
        let photo = try #require(schema.properties(of: "PhotoPage"))
        #expect(photo.map(\.name) == ["baseImage", "photos"])
        guard case .array(of: .dictionary(let item), minCount: 1, maxCount: nil) = photo[1].type else {
            Issue.record("photos should be a non-empty array of dicts")
            return
        }
        #expect(item.map(\.name) == ["photo", "thumbnail"])
        #expect(item.allSatisfy { $0.isRequired && $0.type == .image })
    }

    @Test func magazineClassesAddAndOverride() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            "page-classes.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>VideoPage</key>
                    <dict>
                        <key>inherits</key>
                        <string>SimplePage</string>
                        <key>properties</key>
                        <dict>
                            <key>movie</key>
                            <dict>
                                <key>type</key>
                                <string>movie</string>
                                <key>required</key>
                                <true/>
                            </dict>
                            <key>autoplay</key>
                            <dict>
                                <key>type</key>
                                <string>boolean</string>
                            </dict>
                        </dict>
                    </dict>
                    <key>SimplePage</key>
                    <dict>
                        <key>properties</key>
                        <dict>
                            <key>baseImage</key>
                            <dict>
                                <key>type</key>
                                <string>image</string>
                                <key>required</key>
                                <true/>
                            </dict>
                            <key>caption</key>
                            <dict>
                                <key>type</key>
                                <string>string</string>
                            </dict>
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
                            <string>VideoPage</string>
                            <key>properties</key>
                            <dict>
                                <key>baseImage</key>
                                <string>1-0.png</string>
                                <key>caption</key>
                                <string>Overridden SimplePage adds a caption</string>
                                <key>movie</key>
                                <string>clip.mp4</string>
                                <key>autoplay</key>
                                <string>yes</string>⟦autoplay⟧
                            </dict>
                        </dict>
                    </array>
                </array>
                """))
        var mp4 = Data([0, 0, 0, 0x18]) + Data("ftypmp42".utf8)
        mp4.append(Data(count: 16))
        try fixture.write("issues/f-1/assets/clip.mp4", mp4)
        for name in ["2-0.png", "2-0@2x.png", "2-1.png", "2-1@2x.png", "2-1t.png", "2-1t@2x.png"] {
            try fixture.remove("issues/f-1/assets/\(name)")
        }
        let found = fixture.validate()
        #expect(found.map(\.code) == [.propertyWrongType])
        #expect(found.first?.location?.line == fixture.line(of: "autoplay", in: "issues/f-1/pages.plist"))
    }

    @Test func errorsInTheSchemaFile() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            "page-classes.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>A</key>
                    <dict>
                        <key>inherits</key>
                        <string>B</string>
                    </dict>
                    <key>B</key>
                    <dict>
                        <key>inherits</key>
                        <string>A</string>
                    </dict>
                    <key>C</key>⟦unknown-parent⟧
                    <dict>
                        <key>inherits</key>
                        <string>SimplePag</string>
                        <key>properties</key>
                        <dict>
                            <key>x</key>
                            <dict>
                                <key>type</key>
                                <string>imgae</string>⟦unknown-type⟧
                            </dict>
                            <key>y</key>
                            <dict>⟦invalid⟧
                                <key>required</key>
                                <string>yes</string>
                            </dict>
                        </dict>
                    </dict>
                </dict>
                """))
        let found = fixture.validate()
        #expect(found.with(.schemaCycle).count >= 1)
        let parent = try #require(found.with(.schemaUnknownParent).first)
        let line = { (mark: String) -> Int in fixture.line(of: mark, in: "page-classes.plist") }
        #expect(parent.location == SourceLocation(file: "page-classes.plist", line: line("unknown-parent")))
        #expect(parent.message.contains("did you mean 'SimplePage'?"))
        let type = try #require(found.with(.schemaUnknownType).first)
        #expect(type.location?.line == line("unknown-type"))
        #expect(type.message.contains("did you mean 'image'?"))
        #expect(found.with(.schemaInvalid).map(\.location?.line) == [line("invalid")])
    }
}
