import Foundation
import NewsstandCore
import Testing

@testable import NewsstandAria2
@testable import NewsstandReader

/// The pure parts of the aria2 engine: keys written into aria2 and read back, what aria2's
/// errors mean, and the text it sends made printable.
@Suite("aria2 keys and words")
struct Aria2KeyTests {
    @Test func aGIDIsSixteenHexDigitsOfTheKey() {
        let id = TransferID(name: "a-1", generation: 2)
        let gid = Aria2Key.gid(of: id)
        #expect(gid.count == 16 && gid.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(gid == Aria2Key.gid(of: TransferID(name: "a-1", generation: 2)))
        #expect(gid != Aria2Key.gid(of: TransferID(name: "a-1", generation: 3)))
        #expect(gid == String(SHA256.hex(of: Data("a-1#2".utf8)).prefix(16)))
    }

    @Test(arguments: ["a-1#2", "spring.2024_x#7"])
    func aKeysFileNameReadsBack(_ name: String) throws {
        let id = try #require(Aria2Key.id(ofFileName: name))
        #expect(Aria2Key.fileName(of: id) == name)
        #expect(Aria2Key.id(ofRecordName: name + ".json") == id)
    }

    @Test(arguments: [
        "a-1#02", "a-1#0", "a-1#2.aria2", "a-1#2.json", "../a#1", "a/b#1", "#1", ".a#1", "a-1", "notes.txt", "a-1#-1",
    ])
    func otherNamesAreNoKey(_ name: String) {
        #expect(Aria2Key.id(ofFileName: name) == nil)
    }

    @Test func onlyHTTPURLsWithoutBlanksReachAria2() throws {
        #expect(try Aria2Key.checkedURL(URL(string: "https://cdn.example/a-1.zip?sig=x")!) == "https://cdn.example/a-1.zip?sig=x")
        for text in ["ftp://example/a.zip", "file:///etc/passwd", "magnet:?xt=urn:btih:00", "http:///a.zip"] {
            #expect(throws: Aria2Error.self, "\(text)") { try Aria2Key.checkedURL(URL(string: text)!) }
        }
        let long = URL(string: "http://example/" + String(repeating: "a", count: Aria2Key.maxURLBytes))!
        #expect(throws: Aria2Error.unsupportedURL(reason: "the URL is longer than \(Aria2Key.maxURLBytes) bytes")) {
            try Aria2Key.checkedURL(long)
        }
    }

    @Test func aria2sErrorsBecomeTheLibrarysFailures() {
        let cases: [(Int, String, TransferFailure)] = [
            (3, "Resource not found", .httpStatus(404)),
            (22, "The response status is not successful. status=403", .httpStatus(403)),
            (29, "The response status is not successful. status=503", .httpStatus(503)),
            (24, "Authorization failed.", .httpStatus(401)),
            (5, "Too slow Downloading speed", .stalled),
            (9, "No space left on device", .file(.system(path: "/f", code: ENOSPC))),
            (
                1, "Failed to establish connection, cause: Connection refused",
                .network(code: 1, reason: "aria2 error 1: Failed to establish connection, cause: Connection refused")
            ),
        ]
        for (code, message, expected) in cases {
            #expect(Aria2ErrorCode.failure(code: code, message: message, path: "/f") == expected, "\(code)")
        }
        #expect(!Aria2ErrorCode.failure(code: 3, message: "", path: "/f").isTransient, "a 404 is not resumable")
        #expect(Aria2ErrorCode.failure(code: 6, message: "Network problem", path: "/f").isTransient, "network trouble is")
        #expect(Aria2ErrorCode.httpStatus(in: "status=40") == nil)
        #expect(Aria2ErrorCode.httpStatus(in: "status=4000") == nil)
    }

    @Test func whatAria2SaysIsMadePrintable() {
        // Escaped as every name and server's words are (`PrintableText`, issue 35): C0 and C1
        // controls, a right-to-left override, a zero-width space.
        #expect(Aria2Text.printable("bad\u{1B}[2Jname\n") == "bad\\u{1b}[2Jname\\u{a}")
        #expect(Aria2Text.printable("x\u{9B}31m\u{202E}gnp.exe\u{200B}") == "x\\u{9b}31m\\u{202e}gnp.exe\\u{200b}")
        #expect(Aria2Text.printable("from https://user:pass@cdn.example/a.zip") == "from https://***@cdn.example/a.zip")
        let long = Aria2Text.printable(String(repeating: "x", count: 10_000))
        #expect(long.count == Aria2Text.maxCharacters + 1)
    }

    @Test func aStatusThatIsNotAria2sIsDropped() {
        let good = Aria2Status.Raw(
            gid: "0123456789abcdef", status: "active", totalLength: "10", completedLength: "5", errorCode: nil, errorMessage: nil,
            files: [.init(path: "/f/a#1", uris: [.init(uri: "http://x/a.zip")])])
        #expect(Aria2Status(good)?.progress == DownloadProgress(bytesReceived: 5, bytesExpected: 10))
        var bad = good
        for change in [
            { (r: inout Aria2Status.Raw) in r.gid = "0123" }, { $0.gid = "0123456789ABCDEG" }, { $0.status = "exploded" },
            { $0.totalLength = "-1" }, { $0.completedLength = "lots" }, { $0.files = [.init(path: "/a"), .init(path: "/b")] },
        ] {
            bad = good
            change(&bad)
            #expect(Aria2Status(bad) == nil)
        }
    }

    @Test func aResponseHeadIsReadStrictly() throws {
        let head = try Aria2Connection.parseHead(Data("HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{}".utf8), method: "m")
        #expect(head?.status == 200 && head?.length == 12 && head?.size == 39)
        #expect(try Aria2Connection.parseHead(Data("HTTP/1.1 200 OK\r\nContent-".utf8), method: "m") == nil)
        #expect(throws: Aria2Error.badResponse(method: "m", reason: "a bad Content-Length")) {
            try Aria2Connection.parseHead(Data("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n".utf8), method: "m")
        }
    }

    @Test func theSettingsListenOnLoopbackOnlyAndFollowNothing() {
        let text = Aria2Settings.text(
            port: 6801, secret: .random(), files: "/l/files", session: "/l/session", configuration: .init())
        let lines = Set(text.split(separator: "\n").map(String.init))
        for line in [
            "rpc-listen-all=false", "rpc-listen-port=6801", "dir=/l/files", "input-file=/l/session",
            "follow-torrent=false", "follow-metalink=false", "auto-file-renaming=false", "force-save=false",
        ] {
            #expect(lines.contains(line), "\(line)")
        }
        #expect(!lines.contains { $0.hasPrefix("stop-with-process") }, "an app's daemon outlives the app")
    }
}
