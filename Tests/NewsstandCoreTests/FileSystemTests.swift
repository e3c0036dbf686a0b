import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The one file layer: atomic writes, walks that never follow a link, removal that never
/// leaves the folder, the lock two processes share.
@Suite struct FileSystemTests {
    /// A folder with a victim folder beside it that nothing may touch.
    private func scene() throws -> (work: URL, folder: OpenFolder, victim: URL) {
        let work = try Shell.temporaryFolder("fs")
        let victim = work.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: victim.appendingPathComponent("secret.txt"))
        return (work, try OpenFolder.open(work.appendingPathComponent("ours"), create: true), victim)
    }

    @Test(arguments: [Durability.durable, .bestEffort])
    func anAtomicFileTakesItsNameOnlyWhenCommitted(durability: Durability) throws {
        let (_, folder, _) = try scene()
        try AtomicFile.write(Data("old".utf8), named: "state.json", in: folder, durability)
        let first = try AtomicFile.create(named: "state.json", in: folder)
        let second = try AtomicFile.create(named: "state.json", in: folder)
        #expect(first.temporaryName != second.temporaryName, "two writers never share a temporary file")
        #expect(first.temporaryName.hasPrefix(".state.json.\(ProcessInfo.processInfo.processIdentifier)."))
        try first.file.write(Data("new".utf8))
        #expect(try String(contentsOfFile: folder.path(of: "state.json"), encoding: .utf8) == "old")
        try first.commit(durability)
        second.discard()
        #expect(try String(contentsOfFile: folder.path(of: "state.json"), encoding: .utf8) == "new")
        #expect(try folder.entries().compactMap(\.name) == ["state.json"], "no temporary file is left")
    }

    @Test func anAtomicFileNeverCommittedLeavesNothing() throws {
        let (_, folder, _) = try scene()
        do {
            let pending = try AtomicFile.create(named: "bundle.zip", in: folder)
            try pending.file.write(Data(repeating: 1, count: 1000))
        }
        #expect(try folder.entries().isEmpty)
        #expect(throws: FileSystemError.invalidName(path: folder.path, name: "../x")) {
            _ = try AtomicFile.create(named: "../x", in: folder)
        }
    }

    @Test func aTemporaryNameSaysWhatItIsForAndWhoWritesIt() throws {
        let name = AtomicFile.temporaryName(for: "e-39#1.json")
        #expect(AtomicFile.parseTemporaryName(name)?.name == "e-39#1.json")
        #expect(AtomicFile.parseTemporaryName(name)?.writer == ProcessInfo.processInfo.processIdentifier)
        #expect(AtomicFile.parseTemporaryName(".a.b.c.42.ff.tmp")?.name == "a.b.c")
        for other in [
            ".x.tmp", ".42.ff.tmp", ".a.0.ff.tmp", ".a.-3.ff.tmp", ".a.42.xyz.tmp", ".a.42..tmp", "a.42.ff.tmp", ".a.42.ff",
        ] {
            #expect(AtomicFile.parseTemporaryName(other) == nil, "\(other)")
        }
        // Only a writer that is no process abandons its file; this process is writing its own.
        #expect(AtomicFile.isAbandoned(".a.json.\(try NoSuchProcess.pid).1f.tmp"))
        #expect(!AtomicFile.isAbandoned(name))
        #expect(!AtomicFile.isAbandoned(".a.json.1.1f.tmp"), "init runs")
        #expect(!AtomicFile.isAbandoned("a.json"))
    }

    @Test func aWriteRefusedByAFileSizeLimitKeepsItsErrno() throws {
        let (_, folder, _) = try scene()
        let file = try folder.createFile("x")
        try file.close()
        #expect(throws: FileSystemError.system(path: folder.path(of: "x"), code: EBADF)) {
            try file.write(Data("late".utf8))
        }
        #expect(FileSystemError.system(path: "p", code: ENOSPC).isNoSpace)
        #expect(FileSystemError.system(path: "p", code: EFBIG).isNoSpace)
        #expect(!FileSystemError.system(path: "p", code: EACCES).isNoSpace)
    }

    @Test func pathsBelowAFolderNeverGoThroughALinkOrUpwards() throws {
        let (work, folder, victim) = try scene()
        try FileManager.default.createSymbolicLink(
            at: URL(fileURLWithPath: folder.path(of: "a-1")), withDestinationURL: victim)
        for relative in ["../victim/secret.txt", "a-1//x", "./x", "", "a-1/.."] {
            #expect(throws: FileSystemError.invalidName(path: folder.path, name: relative)) {
                _ = try folder.file(at: relative)
            }
        }
        #expect(throws: FileSystemError.symbolicLink(path: folder.path(of: "a-1"), target: victim.path, expected: .folder)) {
            _ = try folder.file(at: "a-1/secret.txt")
        }
        #expect(throws: FileSystemError.symbolicLink(path: folder.path(of: "a-1"), target: victim.path, expected: .folder)) {
            try folder.rename(at: "a-1/secret.txt", to: "stolen.txt")
        }
        #expect(throws: FileSystemError.symbolicLink(path: folder.path(of: "a-1"), target: victim.path, expected: .regularFile)) {
            try folder.removeRegularFile(at: "a-1")
        }
        #expect(try folder.file(at: "b-1/missing.zip") == nil)
        #expect(FolderSnapshot(victim).paths == ["secret.txt"])
        #expect(try String(contentsOf: victim.appendingPathComponent("secret.txt"), encoding: .utf8) == "precious")
        _ = work
    }

    @Test func removingATreeRemovesLinksButNotWhatTheyPointAt() throws {
        let (_, folder, victim) = try scene()
        let issue = URL(fileURLWithPath: folder.path(of: "Issue"))
        try FileManager.default.createDirectory(at: issue.appendingPathComponent("a/b"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: issue.appendingPathComponent("a/b/page.png"))
        try FileManager.default.createSymbolicLink(at: issue.appendingPathComponent("a/outside"), withDestinationURL: victim)
        try FileManager.default.createSymbolicLink(
            at: issue.appendingPathComponent("secret"), withDestinationURL: victim.appendingPathComponent("secret.txt"))
        try folder.removeTree("Issue")
        #expect(try folder.entries().isEmpty)
        #expect(FolderSnapshot(victim).paths == ["secret.txt"])
        try folder.removeTree("Issue")  // gone already: nothing to do
    }

    /// Deeper than the descriptor limit (1,024 by default): the walk holds one folder at a time.
    @Test func removingATreeDeeperThanTheDescriptorLimitWorks() throws {
        let (_, folder, _) = try scene()
        var current = try folder.makeFolder("deep")
        for _ in 0..<1_500 { current = try current.makeFolder("d") }
        try folder.removeTree("deep")
        #expect(try folder.entries().isEmpty)
    }

    @Test func aLockIsHeldByOneOwnerAtATime() throws {
        let (_, folder, _) = try scene()
        let first = try #require(try FileLock.acquire("library.lock", in: folder, timeout: 0))
        #expect(try FileLock.acquire("library.lock", in: folder, timeout: 0.2) == nil)
        first.release()
        #expect(first.isReleased)
        // Not `timeout: 0`: a process that a parallel test forks holds a copy of every descriptor
        // (the lock's too) until its exec closes them, so a released lock can stay held for a
        // moment on a busy machine; the claim is that it is free, not free within microseconds.
        #expect(try FileLock.acquire("library.lock", in: folder, timeout: 5) != nil)
    }

    @Test func copyingShowsEveryByteAndStopsPastALimit() throws {
        let (_, folder, _) = try scene()
        try AtomicFile.write(Data(repeating: 7, count: 600_000), named: "in", in: folder, .bestEffort)
        let pending = try AtomicFile.create(named: "out", in: folder)
        var seen = 0
        let copied = try FileCopy.copy(try folder.file("in"), to: pending.file) { seen += $0.count }
        try pending.commit(.bestEffort)
        #expect(copied == 600_000 && seen == 600_000)
        #expect(try folder.file("out").size == 600_000)
        #expect(try FileCopy.copy(try folder.file("in"), to: nil, limit: 1000) == 1001, "one byte past the limit tells it grew")
        #expect(try folder.file("in").sha256() == SHA256.hex(of: Data(repeating: 7, count: 600_000)))
    }
}
