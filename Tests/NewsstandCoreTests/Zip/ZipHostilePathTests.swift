import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// Bundles whose paths attack the disk or the terminal rather than escape the folder (issue 35):
/// paths hundreds of folders deep, few files implying thousands of folders, and names the build
/// would refuse (controls, escape sequences, a right-to-left override, hidden names, `:`). Each is
/// refused before anything is written, and no message carries a name's raw bytes. The archives
/// are built in memory (`StoredZip`): the names are the attack, not the tool that wrote them.
@Suite("Hostile entry paths and names", .timeLimit(.minutes(1)))
struct ZipHostilePathTests {
    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = try Shell.temporaryFolder("zip-hostile")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    /// Whether `text` has a scalar that could rewrite or hide in the line that shows it.
    private func hasRaw(_ text: String) -> Bool { text.unicodeScalars.contains(where: SafeRelativePath.isUnprintable) }

    /// 21 empty files, each about 510 folders deep: 42 KB that unpacked into 10,200 folders.
    @Test func aPathHundredsOfFoldersDeepIsRefusedBeforeAnythingIsWritten() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("deep.zip")
            let deep = Array(repeating: "a", count: 510).joined(separator: "/")
            try StoredZip.make((0..<21).map { .text("\($0)/\(deep)/f", "") }).write(to: archive)
            let destination = folder.appendingPathComponent("out")
            let error = #expect(throws: ZipExtractionError.self) {
                try ZipExtractor.extract(from: archive, into: destination)
            }
            #expect(error == .unsafeName(archive: archive.path, entry: "0/\(deep)/f", problem: .tooLong))
            #expect(String(describing: error).contains("16 components"), "\(String(describing: error).prefix(200))")
            #expect(!FileManager.default.fileExists(atPath: destination.path), "nothing is left behind")
        }
    }

    /// The deepest path the bundle rules allow (16 components) still unpacks.
    @Test func sixteenComponentsUnpack() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("sixteen.zip")
            let path = (1...15).map { "d\($0)" }.joined(separator: "/") + "/page.html"
            try StoredZip.make([.text(path, "<p/>")]).write(to: archive)
            let summary = try ZipExtractor.extract(from: archive, into: folder.appendingPathComponent("out"))
            #expect(summary.fileCount == 1)
            #expect(summary.folderCount == 15)
        }
    }

    /// Three files whose paths imply twelve folders: fifteen entries, though the end record says three.
    @Test func theFoldersPathsImplyCountAgainstTheEntryLimit() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("implied.zip")
            try StoredZip.make((0..<3).map { .text("x\($0)/a/b/c/f", "f") }).write(to: archive)
            let refused = folder.appendingPathComponent("refused")
            #expect(throws: ZipExtractionError.tooManyEntries(archive: archive.path, limit: 14)) {
                try ZipExtractor.extract(from: archive, into: refused, limits: .init(maxEntries: 14))
            }
            #expect(!FileManager.default.fileExists(atPath: refused.path), "nothing is left behind")
            let summary = try ZipExtractor.extract(
                from: archive, into: folder.appendingPathComponent("fits"), limits: .init(maxEntries: 15))
            #expect(summary.fileCount == 3)
            #expect(summary.folderCount == 12)
        }
    }

    enum Name: String, CaseIterable {
        case escapeSequence, rightToLeftOverride, hidden, hiddenFolder, colon, bell, zeroWidth
        var entry: String {
            switch self {
            case .escapeSequence: "a\nb\u{1B}[31m.txt"
            case .rightToLeftOverride: "\u{202E}gnp.exe"
            case .hidden: ".hidden"
            case .hiddenFolder: "assets/.git/config"
            case .colon: "c:d"
            case .bell: "assets/x\u{07}\r.png"
            case .zeroWidth: "pages\u{200B}.plist"
            }
        }
        var problem: SafeRelativePath.Problem {
            switch self {
            case .hidden, .hiddenFolder: .hidden
            case .colon: .colon
            default: .control
            }
        }
    }

    /// Names `newsstand build` refuses in a bundle are refused by the reader too, with the name
    /// escaped in the message.
    @Test(arguments: Name.allCases)
    func namesTheBuildRefusesAreRefused(_ name: Name) throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("names.zip")
            try StoredZip.make([.text("pages.plist", "<plist/>"), .text(name.entry, "x")]).write(to: archive)
            let destination = folder.appendingPathComponent("out")
            let error = #expect(throws: ZipExtractionError.self) {
                try ZipExtractor.extract(from: archive, into: destination)
            }
            #expect(error == .unsafeName(archive: archive.path, entry: name.entry, problem: name.problem))
            #expect(!hasRaw(String(describing: error)), "\(String(describing: error).debugDescription)")
            #expect(!FileManager.default.fileExists(atPath: destination.path), "nothing is left behind")
        }
    }

    /// A central header that points past the entries, for an entry named to clear the screen,
    /// set the window title and overwrite the line: the `.corrupt` reason escapes the name.
    @Test func aCorruptRecordsMessageEscapesTheName() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("corrupt.zip")
            let hostile = "\u{1B}[2J\u{1B}]0;owned\u{07}x\rFAKE LINE"
            try StoredZip.make([.text("pages.plist", "<plist/>"), .text(hostile, "x")]).write(to: archive)
            var zip = try ZipSurgery(archive)
            let centrals = zip.offsets(of: ZipSurgery.central)
            zip.setU32(UInt32(zip.bytes.count), at: centrals[1] + 42)
            try zip.write(to: archive)
            let error = #expect(throws: ZipExtractionError.self) {
                try ZipExtractor.extract(from: archive, into: folder.appendingPathComponent("out"))
            }
            guard case .corrupt(_, let reason)? = error else {
                Issue.record("unexpected error \(String(describing: error))")
                return
            }
            #expect(!hasRaw(reason), "\(reason.debugDescription)")
            #expect(reason.contains("\\u{1b}[2J"), "\(reason.debugDescription)")
        }
    }
}
