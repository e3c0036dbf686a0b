import Foundation
import NewsstandTestSupport
import Testing

/// `newsstand build` and `newsstand catalog` on the sample, checked with tools we did not write;
/// in process, but for the sample's own build and builds in other time zones (a process each).
@Suite(.tags(.needsTools)) struct BuildCommandTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
    let issues = ["a-1", "a-2", "a-3"]

    private func build(_ arguments: [String]) async throws -> (Shell.Result, URL) {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", sample, "--output", output.path] + arguments)
        return (result, output)
    }

    private func buildThroughTheExecutable(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        Shell.Result, URL
    ) {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let result = try Shell.run(
            Shell.newsstand, ["build", sample, "--output", output.path] + arguments, environment: environment)
        return (result, output)
    }

    @Test func sampleOutputPassesOutsideTools() throws {
        let (result, output) = try buildThroughTheExecutable(["--feed", "shelf", "--feed", "atom"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("built 3 issue(s): 6 bundles"))
        for name in issues {
            let built = try BuiltIssue(name, in: output)
            // Content-versioned names by default; one hash covers both sizes (the @2x rule holds).
            #expect(built.bundle.hasPrefix("\(name).") && built.bundle.count == "\(name).12345678.zip".count)
            #expect(built.retinaBundle == built.bundle.dropLast(4) + "@2x.zip")
            for bundle in [built.bundle, built.retinaBundle] {
                let path = output.appendingPathComponent("\(name)/\(bundle)").path
                let unzip = try Shell.run("unzip", ["-t", path])
                #expect(unzip.status == 0, "\(unzip.stdout)")
                #expect(unzip.stdout.contains("No errors detected"))
                let bsdtar = try Shell.run("bsdtar", ["-tf", path])
                #expect(bsdtar.status == 0)
                #expect(bsdtar.stdout.hasPrefix("issue.plist\npages.plist\n"))
            }
        }
        let check = try Shell.python(
            """
            import sys, zipfile, plistlib, os
            out = sys.argv[1]
            catalog = plistlib.load(open(os.path.join(out, 'issues.plist'), 'rb'))
            for entry in catalog:
                name = entry['Name']
                normal = os.path.basename(entry['Content'])
                for bundle in (normal, normal[:-4] + '@2x.zip'):
                    z = zipfile.ZipFile(os.path.join(out, name, bundle))
                    assert z.testzip() is None, bundle
                    for info in z.infolist():
                        assert '/' not in info.filename, info.filename
                        assert info.flag_bits & 0x800 or info.filename.isascii(), info.filename
                        media = info.filename.endswith('.png')
                        assert info.compress_type == (zipfile.ZIP_STORED if media else zipfile.ZIP_DEFLATED), info.filename
                        assert (info.external_attr >> 16) & 0o777 == 0o644, info.filename
                    pages = plistlib.loads(z.read('pages.plist'))
                    assert isinstance(pages, list) and pages, bundle
            print(' '.join(e['Name'] for e in catalog), catalog[0]['Date'].isoformat())
            """, [output.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "a-3 a-2 a-1 2026-09-01T08:00:00\n")
        #expect(try Shell.run("plutil", ["-lint", output.appendingPathComponent("issues.plist").path]).status == 0)
        let shelf = try Shell.python(
            "import json,sys; print(len(json.load(open(sys.argv[1]))))", [output.appendingPathComponent("shelf.json").path])
        #expect(shelf.stdout == "3\n")
        #expect(result.stdout.contains("no problems found"))
    }

    /// The executable leaves TZ as it finds it: entry times are UTC because the archive code
    /// writes them so. (13 hours apart: 08:00 UTC on the issue date is 21:00 in Auckland.)
    @Test func buildsAreByteIdenticalAcrossRunsAndTimeZones() throws {
        let (first, a) = try buildThroughTheExecutable([], environment: ["TZ": "UTC"])
        let (second, b) = try buildThroughTheExecutable(["--jobs", "1"], environment: ["TZ": "Pacific/Auckland"])
        #expect(first.status == 0 && second.status == 0)
        var files = ["issues.plist"]
        for name in issues {
            let built = try BuiltIssue(name, in: a)
            #expect(try BuiltIssue(name, in: b).files == built.files, "the same content-versioned names")
            files += built.files.map { "\(name)/\($0)" }
        }
        for file in files {
            let left = try Data(contentsOf: a.appendingPathComponent(file))
            let right = try Data(contentsOf: b.appendingPathComponent(file))
            #expect(left == right, "\(file) differs")
        }
        // Entry times come from the issue's date, not the clock. (unzip shows them in its own
        // time zone, so it runs in UTC.)
        let listing = try Shell.run(
            "unzip", ["-Z", "-T", a.appendingPathComponent("a-1/\(try BuiltIssue("a-1", in: a).bundle)").path],
            environment: ["TZ": "UTC"]
        ).stdout
        #expect(listing.contains("20260301.080000 issue.plist"))
    }

    /// Java's `ZipInputStream` (Android's streaming unzip) reads every bundle front to back,
    /// and every entry holds the bytes of its source; no entry has sizes after its data
    /// (flag bit 3), and the catalog's sizes and SHA-256 are those of the files on disk.
    @Test func bundlesStreamInJavaAndMatchTheirSources() async throws {
        let (result, output) = try await build([])
        #expect(result.status == 0, "\(result.stderr)")
        let bundles = try issues.flatMap { name in
            let built = try BuiltIssue(name, in: output)
            return [built.bundle, built.retinaBundle].map { output.appendingPathComponent("\(name)/\($0)") }
        }
        let java = try JavaZipStream.read(bundles)
        #expect(java.result.status == 0, "\(java.result.stderr)")
        // Python names each entry's source and its SHA-256 (configs from the issue folder, packed
        // in canonical form; assets from assets/) and compares its own reading of each archive.
        let expected = try Shell.python(
            """
            import sys, os, hashlib, plistlib, struct, zipfile
            sample = sys.argv[1]
            for bundle in sys.argv[2:]:
                name = os.path.basename(os.path.dirname(bundle))
                z = zipfile.ZipFile(bundle)
                for info in z.infolist():
                    folder = os.path.join(sample, 'issues', name)
                    source = os.path.join(folder, info.filename)
                    if not os.path.exists(source):
                        source = os.path.join(folder, 'assets', info.filename)
                    data = z.read(info)
                    if info.filename.endswith('.plist'):
                        # Configs are packed in canonical form: the same values as the source.
                        assert plistlib.loads(data) == plistlib.load(open(source, 'rb')), info.filename
                    elif os.path.exists(source):
                        assert data == open(source, 'rb').read(), info.filename
                    else:
                        # A normal size derived from its @2x master (a-3 keeps masters only): half its size.
                        stem, ext = os.path.splitext(source)
                        master = open(stem + '@2x' + ext, 'rb').read()
                        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', info.filename
                        w, h = struct.unpack('>II', data[16:24])
                        assert struct.unpack('>II', master[16:24]) == (2 * w, 2 * h), info.filename
                    method = 'stored' if info.compress_type == zipfile.ZIP_STORED else 'deflated'
                    print(bundle, info.filename, method, len(data), '%08x' % info.CRC, hashlib.sha256(data).hexdigest(), sep='\t')
            """, [sample] + bundles.map(\.path))
        #expect(expected.status == 0, "\(expected.stderr)")
        #expect(java.entries.count > 6 * 3)
        #expect(
            java.entries.map { "\($0.archive)\t\($0.name)\t\($0.method)\t\($0.size)\t\($0.crc32)\t\($0.sha256)\n" }.joined()
                == expected.stdout)
        for bundle in bundles {
            let zipinfo = try Shell.run("zipinfo", ["-v", bundle.path])
            #expect(zipinfo.status == 0)
            #expect(
                !zipinfo.stdout.contains("extended local header:                          yes"), "\(bundle.lastPathComponent)")
            #expect(zipinfo.stdout.contains("extended local header:                          no"), "\(bundle.lastPathComponent)")
        }
        // What the catalog says of each bundle is what sha256sum and the file system say.
        let catalog = try Shell.python(
            """
            import sys, plistlib
            for e in plistlib.load(open(sys.argv[1], 'rb')):
                print(e['Name'], e['ContentSize'], e['ContentSHA256'], e['RetinaContentSize'], e['RetinaContentSHA256'])
            """, [output.appendingPathComponent("issues.plist").path])
        var measured = ""
        for name in issues.reversed() {
            var fields = [name]
            let built = try BuiltIssue(name, in: output)
            for bundle in [built.bundle, built.retinaBundle] {
                let path = output.appendingPathComponent("\(name)/\(bundle)").path
                let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
                let sum = try Shell.run("sha256sum", [path]).stdout.split(separator: " ").first.map(String.init) ?? ""
                fields += [String(size), sum]
            }
            measured += fields.joined(separator: " ") + "\n"
        }
        #expect(catalog.stdout == measured)
    }

}

/// Writing fails part-way (a file-size limit stands in for a full disk): the build reports the
/// issue and file, and leaves no archive or catalog under its real name.
@Suite(.tags(.needsTools)) struct BuildFailureTests {
    @Test func aFailedWriteLeavesNothingThatLooksDone() throws {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        // 400 KB: the normal bundles fit, the @2x ones (450–670 KB) do not.
        let result = try Shell.run(
            "bash",
            ["-c", "ulimit -f 400; exec \"$0\" build \"$1\" --output \"$2\" --jobs 1", Shell.newsstand, sample, output.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("issue 'a-"))
        #expect(result.stderr.contains("File too large"))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("issues.plist").path))
        for issue in ["a-1", "a-2", "a-3"] {
            let folder = output.appendingPathComponent(issue)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            #expect(!files.contains { $0.hasSuffix(".tmp") }, "\(files)")
            #expect(!files.contains { $0.hasSuffix("@2x.zip") }, "\(files)")
            for zip in files where zip.hasSuffix(".zip") {
                #expect(try Shell.run("unzip", ["-tq", folder.appendingPathComponent(zip).path]).status == 0)
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".newsstand/manifest.json").path))
        }
        // With the limit gone, the same command finishes the job.
        let retry = try Shell.run(Shell.newsstand, ["build", sample, "--output", output.path])
        #expect(retry.status == 0)
        #expect(retry.stdout.contains("built 3 issue(s)"))
    }
}
