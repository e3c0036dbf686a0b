import Foundation
import NewsstandTestSupport
import Testing

/// Magazines that lie in ways that could hang or exhaust the command, run as the executable
/// with a deadline: a FIFO in assets, a binary plist whose shared objects would expand to 10^12
/// values. The other hostile magazines run in process: `HostileMagazineInProcessTests`.
@Suite(.tags(.needsTools)) struct HostileMagazineTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")

    /// A copy of the sample whose first page of a-1 also has a `file` property,
    /// `attachment`, naming `notes.txt` in a-1's assets (not there yet).
    func magazineWithAttachment() throws -> URL {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>FilePage</key>
                <dict>
                    <key>inherits</key><string>SimplePage</string>
                    <key>properties</key>
                    <dict>
                        <key>attachment</key>
                        <dict><key>type</key><string>file</string><key>required</key><true/></dict>
                    </dict>
                </dict>
            </dict>
            </plist>
            """.utf8
        ).write(to: magazine.appendingPathComponent("page-classes.plist"))
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        let text = try String(contentsOf: pages, encoding: .utf8)
        let first = "<string>SimplePage</string>"
        let range = try #require(text.range(of: first))
        var changed = text.replacingCharacters(in: range, with: "<string>FilePage</string>")
        let image = try #require(changed.range(of: "<string>1-0.png</string>"))
        changed.replaceSubrange(
            image,
            with: "<string>1-0.png</string>\n                <key>attachment</key>\n                <string>notes.txt</string>")
        try Data(changed.utf8).write(to: pages)
        return magazine
    }

    /// Runs `newsstand` with a deadline, so that a command that blocks fails the test instead
    /// of hanging the suite.
    private func newsstand(_ arguments: [String]) throws -> Shell.Result {
        try Shell.run("timeout", ["60", Shell.newsstand] + arguments)
    }

    // MARK: Links and special files

    @Test func aFifoInAssetsIsAnErrorAndDoesNotBlock() throws {
        let magazine = try magazineWithAttachment()
        let fifo = magazine.appendingPathComponent("issues/a-1/assets/notes.txt")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let result = try newsstand(["validate", magazine.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("issues/a-1/assets/notes.txt: error: 'notes.txt' is not a regular file (a FIFO)"),
            "\(result.stdout)")
    }

    // MARK: Plists

    @Test func aBinaryPlistThatSharesObjectsCannotExplode() throws {
        let magazine = try Shell.temporaryFolder("hostile").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: sample, to: magazine)
        // 12 levels of arrays, each holding the next level 10 times: 490 bytes, 10^12 values
        // once expanded (Foundation expands it: 7 levels took 627 MB).
        let script = """
            import struct, sys
            objects = [b'\\xaa' + struct.pack('>I', i + 1) * 10 for i in range(12)] + [b'\\x09']
            out = bytearray(b'bplist00'); offsets = []
            for o in objects:
                offsets.append(len(out)); out += o
            table = len(out)
            for off in offsets: out += struct.pack('>Q', off)
            out += bytes(6) + bytes([8, 4]) + struct.pack('>QQQ', len(objects), 0, table)
            open(sys.argv[1], 'wb').write(out)
            """
        #expect(try Shell.python(script, [magazine.appendingPathComponent("issues/a-1/pages.plist").path]).status == 0)
        let result = try newsstand(["validate", magazine.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "issues/a-1/pages.plist: error: pages.plist holds more than 250,000 values, the most a property list may hold [NS-006]"
            ), "\(result.stdout.suffix(2000))")
    }
}
