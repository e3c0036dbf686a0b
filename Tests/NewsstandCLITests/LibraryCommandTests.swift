import Foundation
import NewsstandCLI
import NewsstandTestSupport
import Testing

/// `newsstand library`: the reader library in a terminal, against the sample served by nginx; in
/// process, but for two processes sharing a folder and a process on a full disk.
@Suite(.tags(.needsServer)) struct LibraryCommandTests {
    @Test func refreshListDownloadRemove() async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("library-cli")
        let magazine = try nginx.sampleMagazine(in: work)
        #expect(await InProcess.newsstand(["build", magazine.path, "--output", nginx.root.path]).status == 0)
        let shelf = work.appendingPathComponent("shelf").path
        func library(_ arguments: String...) async -> Shell.Result {
            await InProcess.newsstand(["library", shelf] + arguments)
        }
        let catalog = nginx.baseURL.absoluteString + "issues.plist"

        var result = await library("refresh", catalog, "--retina")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "3 added, 0 updated, 0 with new content, 0 removed\n")
        #expect(await library("refresh", catalog).stdout == "catalog not modified\n")

        result = await library("download", "--latest")
        #expect(result.status == 0, "\(result.stderr)")
        let bundle = try BuiltIssue("a-3", in: nginx.root).retinaBundle
        #expect(nginx.requests().contains { $0.uri == "/a-3/\(bundle)" && $0.status == 200 })

        result = await library("list", "--format", "json")
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let typed = try JSONDocument.decode([LibraryJSON.Issue].self, from: result.stdout, escapesSlashes: false)
        #expect(typed.map(\.status) == ["available", "none", "none"] && typed.first?.installedScale == "retina")
        #expect(issues.map { $0["name"] as? String } == ["a-3", "a-2", "a-1"])
        #expect(issues.map { $0["status"] as? String } == ["available", "none", "none"])
        let path = try #require(issues.first?["path"] as? String)
        #expect(FileManager.default.fileExists(atPath: path + "/1-0@2x.png"))

        let text = await library("list").stdout.split(separator: "\n")
        #expect(text.first?.hasPrefix("a-3\t2026-09-01\tavailable\t") == true)

        #expect(await library("remove", "a-3").status == 0)
        #expect(await library("list").stdout.contains("a-3\t2026-09-01\tnone"))

        let unknown = await library("download", "a-9")
        #expect(unknown.status == 1)
        #expect(!unknown.stderr.isEmpty && unknown.stderr.split(separator: "\n").count == 1)
        #expect(await library("frobnicate").status == 2)
    }

    /// Rewrites the served `issues.plist` with a Python snippet working on `entries` (plistlib).
    static func editCatalog(_ root: URL, _ snippet: String) throws {
        let result = try Shell.python(
            """
            import plistlib, sys, datetime
            path = sys.argv[1]
            entries = plistlib.load(open(path, "rb"))
            \(snippet)
            plistlib.dump(entries, open(path + ".tmp", "wb"))
            import os; os.replace(path + ".tmp", path)
            """, [root.appendingPathComponent("issues.plist").path])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Two processes on one folder at once: while one downloads (held half-way by the server),
    /// another refreshes at once, its rows merged with the first's; a second download of the same
    /// issue waits for the first (the issue's claim) and finds it available, with one transfer.
    /// A write waits `--wait` for another writer's lock, then fails with the reason.
    @Test func twoProcessesOnOneFolderWorkAtOnce() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let liar = try LyingServer(root: nginx.root)
        defer { liar.stop() }
        let work = try Shell.temporaryFolder("library-cli")
        let magazine = try nginx.sampleMagazine(in: work)
        // Fixed names: the catalog edit below points a-3 at the holding server under its plain name.
        #expect(
            try Shell.run(Shell.newsstand, ["build", magazine.path, "--output", nginx.root.path, "--fixed-names"]).status == 0)
        try Self.editCatalog(
            nginx.root,
            """
            for e in entries:
                if e["Name"] == "a-3": e["Content"] = "\(liar.baseURL.absoluteString)hold/a-3/a-3.zip"
            """)
        let shelf = work.appendingPathComponent("shelf").path
        let catalog = nginx.baseURL.absoluteString + "issues.plist"
        #expect(try Shell.run(Shell.newsstand, ["library", shelf, "refresh", catalog]).stdout.hasPrefix("3 added"))

        let downloader = try BackgroundProcess(Shell.newsstand, ["library", shelf, "download", "a-3", "--stall-timeout", "120"])
        defer { downloader.kill() }
        let part = work.appendingPathComponent("shelf/Downloads/a-3.zip.part").path
        // The sample's bundles have indexes: the download streams into its staging (issue 38),
        // the entry being written beside the checked ones, rather than into a `.part` file.
        let staging = part + ".stream"
        func hasBytes(_ path: String) -> Bool {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).map { $0 > 0 } == true
        }
        try #require(
            BackgroundProcess.poll {
                hasBytes(part) || hasBytes(staging + "/entry")
                    || (try? FileManager.default.contentsOfDirectory(atPath: staging + "/content"))?.isEmpty == false
            })

        try Self.editCatalog(
            nginx.root,
            """
            new = dict(entries[0]); new["Name"] = "a-4"; new["Date"] = new["Date"] + datetime.timedelta(days=30)
            entries.insert(0, new)
            """)
        let refreshed = try Shell.run(Shell.newsstand, ["library", shelf, "refresh", catalog, "--wait", "0"])
        #expect(refreshed.status == 0, "\(refreshed.stderr)")
        #expect(refreshed.stdout == "1 added, 0 updated, 0 with new content, 0 removed\n")
        let joiner = try BackgroundProcess(Shell.newsstand, ["library", shelf, "download", "a-3"])
        defer { joiner.kill() }
        try liar.release()

        #expect(downloader.wait() == 0, "\(downloader.errors)")
        #expect(downloader.output.hasPrefix("a-3: available in "))
        #expect(joiner.wait() == 0, "\(joiner.errors)")
        #expect(joiner.output.hasPrefix("a-3: available in "))
        #expect(liar.requests(for: "/hold/a-3/a-3.zip").count == 1, "one transfer")
        let list = try Shell.run(Shell.newsstand, ["library", shelf, "list"]).stdout.split(separator: "\n").map {
            $0.split(separator: "\t").prefix(3).joined(separator: " ")
        }
        #expect(list == ["a-4 2026-10-01 none", "a-3 2026-09-01 available", "a-2 2026-06-01 none", "a-1 2026-03-01 none"])

        // Another writer holding the folder's lock: a write waits --wait seconds, then says why.
        let holder = try BackgroundProcess(
            "python3",
            [
                "-c",
                "import fcntl, sys, time\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('held', flush=True)\ntime.sleep(600)",
                work.appendingPathComponent("shelf/library.lock").path,
            ])
        defer { holder.killNow() }
        try #require(BackgroundProcess.poll { holder.output.contains("held") }, "\(holder.errors)")
        let refused = try Shell.run(Shell.newsstand, ["library", shelf, "remove", "a-3", "--wait", "0"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr == "newsstand library: error: library '\(shelf)' is in use by another process or library instance\n")
        holder.killNow()
        #expect(try Shell.run(Shell.newsstand, ["library", shelf, "list"]).stdout.contains("a-3\t2026-09-01\tavailable"))
    }

    /// A library on a disk that fills up: the download fails and deletes its partial file,
    /// and list, remove, resume and download keep working, before and after space comes back.
    /// On a real 2 MB tmpfs when this process may mount one (root, as in CI), else with a
    /// file-size limit (`ulimit -f`) on the download, which fails writes with EFBIG.
    @Test func aFullDiskNeverWedgesTheLibrary() throws {
        let work = try Shell.temporaryFolder("library-disk")
        let disk = work.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = (try? Shell.run("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.path]))?.status == 0
        defer { if mounted { _ = try? Shell.run("umount", [disk.path]) } }
        try Self.checkDiskFull(disk: disk, limit: mounted ? nil : 1024) { () throws in
            if mounted { #expect(try Shell.run("mount", ["-o", "remount,size=16m", disk.path]).status == 0) }
        }
    }

    /// The same with a file-size limit (EFBIG) in every case.
    @Test func aFileSizeLimitNeverWedgesTheLibrary() throws {
        let disk = try Shell.temporaryFolder("library-ulimit")
        try Self.checkDiskFull(disk: disk, limit: 1024) {}
    }

    /// - Parameters:
    ///   - limit: the download's `ulimit -f` in KiB; nil on a small file system.
    ///   - makeSpace: gives the space back.
    static func checkDiskFull(disk: URL, limit: Int?, makeSpace: () throws -> Void) throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        // A catalog of the original five keys (no sizes): nothing tells the library in advance
        // that the bundle will not fit.
        let made = try Shell.python(
            """
            import plistlib, random, sys, zipfile, datetime, os
            root, base = sys.argv[1], sys.argv[2]
            entries = []
            for name, size, day in (("big", 3_000_000, 2), ("small", 100_000, 1)):
                os.makedirs(os.path.join(root, name))
                with zipfile.ZipFile(os.path.join(root, name, name + ".zip"), "w") as z:
                    z.writestr("issue.plist", "<plist><dict/></plist>")
                    z.writestr("pages.plist", "<plist><array/></plist>")
                    z.writestr("1-0.png", random.Random(day).randbytes(size))
                open(os.path.join(root, name, "cover.png"), "wb").write(b"cover")
                entries.append({"Name": name, "Title": name, "Date": datetime.datetime(2026, 1, day),
                                "Cover": base + name + "/cover.png", "Content": base + name + "/" + name + ".zip"})
            plistlib.dump(entries, open(os.path.join(root, "issues.plist"), "wb"))
            """, [nginx.root.path, nginx.baseURL.absoluteString])
        try #require(made.status == 0, "\(made.stderr)")
        let shelf = disk.appendingPathComponent("shelf").path
        func library(_ arguments: String...) throws -> Shell.Result {
            try Shell.run(Shell.newsstand, ["library", shelf] + arguments)
        }
        #expect(try library("refresh", nginx.baseURL.absoluteString + "issues.plist").status == 0)
        #expect(try library("download", "small").status == 0)

        let full =
            try limit.map {
                try Shell.run(
                    "bash", ["-c", "ulimit -f \($0) && exec \"$0\" \"$@\"", Shell.newsstand, "library", shelf, "download", "big"])
            } ?? library("download", "big")
        #expect(full.status == 1)
        let part = disk.appendingPathComponent("shelf/Downloads/big.zip.part").path
        let reason = limit == nil ? "No space left on device" : "File too large"
        #expect(full.stderr == "newsstand library: error: cannot write '\(part)': \(reason); the partial file was deleted\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.appendingPathComponent("shelf/Downloads").path).isEmpty)

        var result = try library("list")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map { $0.split(separator: "\t")[2] } == ["none", "available"])
        #expect(try library("remove", "small").status == 0)
        result = try library("resume")
        #expect(result.status == 0 && result.stdout == "nothing to download\n", "\(result.stderr)")

        try makeSpace()
        result = try library("download", "big")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try library("list").stdout.split(separator: "\n").map { $0.split(separator: "\t")[2] } == ["available", "none"])
        // Only the library's own files, no temporary leftovers, and nothing beside the shelf.
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["shelf"])
        // SQLite's write-ahead log and its index are the state's own files while they exist.
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: shelf)).subtracting([
                "library.sqlite-wal", "library.sqlite-shm",
            ])
                == ["Covers", "Downloads", "Engines", "Issues", "library.lock", "library.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf + "/Issues") == ["big"])
    }

    /// The limits and deadlines reach the library from the command line; bad values are usage errors.
    @Test func limitsAndDeadlinesAreOptions() async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let liar = try LyingServer(root: nginx.root)
        defer { liar.stop() }
        let shelf = try Shell.temporaryFolder("library-limits").appendingPathComponent("shelf").path
        func library(_ arguments: String...) async -> Shell.Result {
            await InProcess.newsstand(["library", shelf] + arguments)
        }
        let bomb = liar.baseURL.absoluteString + "gzip-bomb/issues.plist"
        var result = await library("refresh", bomb, "--max-catalog-size", "1048576")
        #expect(result.status == 1)
        #expect(result.stderr == "newsstand library: error: catalog '\(bomb)' is larger than the limit of 1048576 bytes\n")

        try Data(repeating: UInt8(ascii: " "), count: 1000).write(to: nginx.root.appendingPathComponent("slow.plist"))
        let drip = liar.baseURL.absoluteString + "drip/slow.plist"
        result = await library("refresh", drip, "--stall-timeout", "1", "--min-speed", "100")
        #expect(result.stderr == "newsstand library: error: catalog '\(drip)' stalled (slower than the minimum transfer rate)\n")
        let endless = liar.baseURL.absoluteString + "endless/issues.plist?chunk=4096&interval=0.01"
        result = await library("refresh", endless, "--timeout", "1", "--max-catalog-size", "1000000000")
        // A URL's query never reaches a message (a signed URL keeps its secret there).
        let shown = liar.baseURL.absoluteString + "endless/issues.plist?…"
        #expect(result.stderr == "newsstand library: error: catalog '\(shown)' did not arrive within 1 s\n")

        for bad in [["--timeout", "0"], ["--wait", "-1"], ["--min-speed", "fast"], ["--max-cover-size", "0"]] {
            result = await InProcess.newsstand(["library", shelf, "list"] + bad)
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr.hasPrefix("newsstand library: error: \(bad[0]) needs a "), "\(result.stderr)")
        }
    }
}

/// `newsstand library list` shows what an update will cost, and `update` fetches only what
/// changed (issue 14), end to end: the sample built by `newsstand build` (which writes each
/// bundle's index and lists it in the catalog), then built again with a page image changed.
@Suite(.tags(.needsServer)) struct LibraryUpdateCommandTests {
    @Test func listShowsTheUpdatesCostAndUpdateFetchesOnlyTheChangedPage() async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("library-update-cli")
        let magazine = try nginx.sampleMagazine(in: work)
        #expect(await InProcess.newsstand(["build", magazine.path, "--output", nginx.root.path]).status == 0)
        let shelf = work.appendingPathComponent("shelf").path
        func library(_ arguments: String...) async -> Shell.Result {
            await InProcess.newsstand(["library", shelf] + arguments)
        }
        let catalog = nginx.baseURL.absoluteString + "issues.plist"
        #expect(await library("refresh", catalog).status == 0)
        var result = await library("download", "a-2")
        #expect(result.status == 0, "\(result.stderr)")

        // One page image of a-2 (an issue that keeps both sizes: a-3 has @2x masters only, whose
        // normal sizes are derived from pixels) changes: a text chunk after IHDR, same pixels, other bytes.
        let image = magazine.appendingPathComponent("issues/a-2/assets/2-0.png")
        let edit = try Shell.python(
            """
            import struct, sys, zlib
            data = open(sys.argv[1], "rb").read()
            body = b"Comment\\0corrected"
            chunk = struct.pack(">I", len(body)) + b"tEXt" + body + struct.pack(">I", zlib.crc32(b"tEXt" + body))
            open(sys.argv[1], "wb").write(data[:33] + chunk + data[33:])
            """, [image.path])
        #expect(edit.status == 0, "\(edit.stderr)")
        result = await InProcess.newsstand(["build", magazine.path, "--output", nginx.root.path])
        #expect(result.status == 0, "\(result.stderr)")
        result = await library("refresh", catalog)
        #expect(result.stdout.contains("1 with new content"), "\(result.stdout)")

        let line = await library("list").stdout.split(separator: "\n").first { $0.hasPrefix("a-2\t") }
        #expect(line?.contains("(update available: ") == true && line?.contains(" by ranges, ") == true, "\(line ?? "")")
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(await library("list", "--format", "json").stdout.utf8))
                as? [[String: Any]])
        let cost = try #require(listed.first { $0["name"] as? String == "a-2" }?["updateBytes"] as? Int)

        let bundle = try BuiltIssue("a-2", in: nginx.root).bundle
        result = await library("update", "a-2")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout
                == "a-2: updated by ranges: \(cost) bytes in 1 request (1 file fetched, \(try Self.entryCount(nginx.root, bundle) - 1) kept)\n"
        )
        let served = nginx.requests().filter { $0.uri == "/a-2/\(bundle)" }
        #expect(served.map(\.status) == [206] && served.first?.bytesSent == cost)
        #expect(await library("list").stdout.contains("(update available") == false)
        #expect(await library("update", "a-2").stdout == "a-2: up to date\n")
        let unpacked = URL(fileURLWithPath: shelf).appendingPathComponent("Issues/a-2/2-0.png")
        #expect(try Data(contentsOf: unpacked) == Data(contentsOf: image))
        #expect(await library("update").status == 2)
    }

    static func entryCount(_ root: URL, _ bundle: String) throws -> Int {
        let result = try Shell.python(
            "import sys, zipfile; print(len([i for i in zipfile.ZipFile(sys.argv[1]).infolist() if not i.is_dir()]))",
            [root.appendingPathComponent("a-2/\(bundle)").path])
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
