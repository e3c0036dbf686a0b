import Foundation
import NewsstandCore
import NewsstandProcess
import NewsstandTestSupport
import Testing

/// Ctrl-C (SIGINT to newsstand's process group, as a terminal sends it) or SIGTERM (to newsstand
/// alone, as a service manager or CI runner sends it) while `publish` runs rclone: newsstand
/// stops rclone (SIGTERM, then SIGKILL after a grace period), waits for it and ends by the
/// signal; nothing is left under a final name that is not whole; the next publish finishes.
@Suite(.serialized, .tags(.needsTools)) struct PublishInterruptionTests {
    /// The ids of the running processes whose parent is `parent` and whose name is `name`.
    static func children(of parent: pid_t, named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard String(stat[stat.index(after: open)..<close]) == name, fields.count > 1, pid_t(fields[1]) == parent else {
                return nil
            }
            return pid
        }
    }

    /// Regular files under `root`, by relative path, that are not hidden (what a served name is).
    static func servedFiles(_ root: URL) -> [String] {
        let walker = FileManager.default.enumerator(atPath: root.path)
        var found: [String] = []
        while let path = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
                FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            found.append(path)
        }
        return found.sorted()
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalStopsRcloneAndLeavesNoCutFileAndTheNextPublishFinishes(_ signalNumber: Int32) throws {
        let work = try Shell.temporaryFolder("interrupt")
        let output = work.appendingPathComponent("out")
        let site = work.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        let build = try Shell.run(
            Shell.newsstand,
            ["build", Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path, "--output", output.path])
        #expect(build.status == 0, "\(build.stderr)")

        // Slowed down (100 KiB/s) so that the first bundle is still on its way when the signal comes.
        var environment = ProcessInfo.processInfo.environment
        environment["RCLONE_BWLIMIT"] = "100k"
        let publish = try ChildProcess.start(
            Shell.newsstand, ["publish", output.path, "--to", "rclone::local:\(site.path)"],
            options: ChildOptions(grace: 30, environment: environment)
        ).get()
        let uploading = BackgroundProcess.poll(timeout: 120) {
            !Self.children(of: publish.pid, named: "rclone").isEmpty
                && ((try? FileManager.default.subpathsOfDirectory(atPath: site.path)) ?? []).contains { $0.hasPrefix("a-1/") }
        }
        let rclone = Self.children(of: publish.pid, named: "rclone")
        #expect(uploading && !rclone.isEmpty, "no upload under way")
        // Ctrl-C goes to the terminal's foreground process group (newsstand's, and only its: its
        // child has a group of its own); SIGTERM to newsstand alone.
        kill(signalNumber == SIGINT ? -publish.pid : publish.pid, signalNumber)
        let outcome = publish.wait()
        #expect(outcome.termination == .signalled(signalNumber), "\(outcome.termination): \(outcome.errorText)")
        for pid in rclone { #expect(kill(pid, 0) != 0, "rclone \(pid) outlived newsstand") }

        // Whatever is under a served name is whole: the bytes the build wrote.
        let served = Self.servedFiles(site)
        for path in served where path != ".newsstand-publish.json" {
            let built = output.appendingPathComponent(path)
            #expect(
                FileManager.default.contentsEqual(atPath: built.path, andPath: site.appendingPathComponent(path).path),
                "\(path) is not the file the build wrote")
        }
        #expect(!served.contains("issues.plist"))

        let again = try Shell.run(
            "timeout", ["300", Shell.newsstand, "publish", output.path, "--to", "rclone::local:\(site.path)"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        let catalog = try Catalog.decode(Data(contentsOf: site.appendingPathComponent("issues.plist")))
        #expect(catalog.entries.count == 3)
        for entry in catalog.entries {
            let path = "\(entry.name)/\(entry.content.split(separator: "/").last ?? "")"
            #expect(try SHA256.hex(ofFileAt: site.appendingPathComponent(path)) == entry.contentSHA256, "\(path)")
        }
        // The upload the signal cut short was replaced by the next one's, not left beside it.
        let hidden = ((try? FileManager.default.subpathsOfDirectory(atPath: site.path)) ?? []).filter { $0.hasSuffix(".upload") }
        #expect(hidden.isEmpty, "\(hidden)")
    }
}
