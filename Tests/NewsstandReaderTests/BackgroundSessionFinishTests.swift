import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// What a finished task's file becomes before the sink sees it, with files on disk and the
/// responses a server might send, lying ones among them: the rest of a part file is appended only
/// when it is exactly what follows the part's bytes.
@Suite("Background session finish")
struct BackgroundSessionFinishTests {
    let folder: URL
    let whole = Data((0..<1000).map { UInt8($0 % 251) })
    let url = URL(string: "https://x.test/a.zip")!

    init() throws { folder = try Shell.temporaryFolder("finish") }

    var part: URL { folder.appendingPathComponent("a.zip.part") }
    var rest: URL { folder.appendingPathComponent("rest.tmp") }

    /// A part file with the first `offset` bytes and its metadata; the rest from `restStart` in the task's file.
    func lay(offset: Int, restFrom restStart: Int, expectedLength: Int64? = 1000) throws {
        try whole.prefix(offset).write(to: part)
        try PartMetadata(url: url, validator: "\"v\"", expectedLength: expectedLength).save(for: part)
        try whole.suffix(from: restStart).write(to: rest)
    }

    func head(_ status: Int, _ contentRange: String?) -> HTTPHead {
        HTTPHead(status: status, headers: contentRange.map { ["Content-Range": $0] } ?? [:])
    }

    var metadataExists: Bool { FileManager.default.fileExists(atPath: PartMetadata.location(for: part).path) }

    @Test func theRestIsAppendedAndThePartHandedOverWhole() throws {
        try lay(offset: 400, restFrom: 400)
        let outcome = BackgroundSessionFinish.resolve(
            rest, head: head(206, "bytes 400-999/1000"), offset: 400, part: part, limit: 1000)
        #expect(outcome == .handOver(part, status: 200))
        #expect(try Data(contentsOf: part) == whole)
        // The metadata stays until the sink took the file: a refused whole part is still known whole.
        #expect(PartResumePoint.of(part: part, url: url, limit: 1000) == .complete(size: 1000))
    }

    @Test(arguments: [Int64(1000), nil])
    func aRangeThatDoesNotStartAtThePartsEndIsRefusedAndThePartDropped(expectedLength: Int64?) throws {
        // Earlier (bytes the part has twice) and later (a gap): either way not the file.
        for (range, restFrom) in [("bytes 300-999/1000", 300), ("bytes 500-999/1000", 500)] {
            try lay(offset: 400, restFrom: restFrom, expectedLength: expectedLength)
            let outcome = BackgroundSessionFinish.resolve(rest, head: head(206, range), offset: 400, part: part, limit: 5000)
            #expect(outcome == .fail(.badResponse("Content-Range does not continue the partial file")), "\(range)")
            #expect(!FileManager.default.fileExists(atPath: part.path))
            #expect(!metadataExists)
        }
    }

    @Test func aPartThatChangedSinceTheRequestIsNotJoined() throws {
        try lay(offset: 400, restFrom: 400)
        // Someone (the in-process engine, a second attempt) wrote to the part meanwhile.
        try whole.prefix(450).write(to: part)
        let outcome = BackgroundSessionFinish.resolve(
            rest, head: head(206, "bytes 400-999/1000"), offset: 400, part: part, limit: 1000)
        #expect(outcome == .fail(.badResponse("Content-Range does not continue the partial file")))
    }

    @Test func aBodyShorterOrLongerThanItsRangeIsNotJoined() throws {
        for (range, restFrom) in [
            ("bytes 400-999/1000", 500), ("bytes 400-899/1000", 400), ("bytes 400-999/2000", 400), ("bytes 400-999", 400),
        ] {
            try lay(offset: 400, restFrom: restFrom)
            let outcome = BackgroundSessionFinish.resolve(rest, head: head(206, range), offset: 400, part: part, limit: 5000)
            #expect(outcome == .fail(.badResponse("Content-Range does not continue the partial file")), "\(range)")
        }
        try lay(offset: 400, restFrom: 400)
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(206, nil), offset: 400, part: part, limit: 5000)
                == .fail(.badResponse("Content-Range does not continue the partial file")))
    }

    @Test func aTotalOtherThanThePartsMetadataSaysIsNotJoined() throws {
        try lay(offset: 400, restFrom: 400, expectedLength: 1200)
        let outcome = BackgroundSessionFinish.resolve(
            rest, head: head(206, "bytes 400-999/1000"), offset: 400, part: part, limit: 5000)
        #expect(outcome == .fail(.badResponse("Content-Range does not continue the partial file")))
    }

    @Test func aJoinedFileLargerThanTheLimitIsRefused() throws {
        try lay(offset: 400, restFrom: 400, expectedLength: nil)
        let outcome = BackgroundSessionFinish.resolve(
            rest, head: head(206, "bytes 400-999/1000"), offset: 400, part: part, limit: 999)
        #expect(outcome == .fail(.tooLarge(limit: 999)))
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    /// A task made from resume data: the system's file is whole, its response the resumed
    /// request's 206. Whole by its Content-Range: handed over as a 200; a file of only the
    /// range (or a range that does not reach the end) is refused.
    @Test func aResumedTasksWholeFileWithA206IsHandedOverAndAPartialOneRefused() throws {
        try whole.write(to: rest)
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(206, "bytes 400-999/1000"), offset: 0, part: part, limit: 1000)
                == .handOver(rest, status: 200))
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(206, "bytes 400-998/1000"), offset: 0, part: part, limit: 1000)
                == .fail(.badResponse("a partial response to a request for the whole file")))
        try whole.suffix(from: 400).write(to: rest)
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(206, "bytes 400-999/1000"), offset: 0, part: part, limit: 1000)
                == .fail(.badResponse("a partial response to a request for the whole file")))
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(206, nil), offset: 0, part: part, limit: 1000)
                == .fail(.badResponse("a partial response to a request for the whole file")))
    }

    @Test func aWholeNewFileReplacesThePart() throws {
        try lay(offset: 400, restFrom: 0)
        let outcome = BackgroundSessionFinish.resolve(rest, head: head(200, nil), offset: 400, part: part, limit: 1000)
        #expect(outcome == .handOver(rest, status: 200))
        #expect(!FileManager.default.fileExists(atPath: part.path))
        #expect(!metadataExists)
    }

    @Test func aRefusedRangeDropsThePartAndAnErrorPageGoesToTheSink() throws {
        try lay(offset: 400, restFrom: 400)
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(416, nil), offset: 400, part: part, limit: 1000)
                == .fail(.rangeNotSatisfiable))
        #expect(!FileManager.default.fileExists(atPath: part.path))
        try lay(offset: 400, restFrom: 400)
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(404, nil), offset: 400, part: part, limit: 1000)
                == .handOver(rest, status: 404))
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func aRequestForTheWholeFileNeverTouchesThePart() throws {
        try lay(offset: 400, restFrom: 0)
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(200, nil), offset: 0, part: part, limit: 1000)
                == .handOver(rest, status: 200))
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(404, nil), offset: 0, part: part, limit: 1000)
                == .handOver(rest, status: 404))
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(200, nil), offset: 0, part: part, limit: 999)
                == .fail(.tooLarge(limit: 999)))
        // A 206 to a request that asked for no range is whole only when the file is all the
        // range says (a task made from resume data); one that is not is a lie about the file.
        #expect(
            BackgroundSessionFinish.resolve(rest, head: head(206, "bytes 0-999/1200"), offset: 0, part: part, limit: 2000)
                == .fail(.badResponse("a partial response to a request for the whole file")))
        #expect(try Data(contentsOf: part) == whole.prefix(400))
        #expect(metadataExists)
    }
}
