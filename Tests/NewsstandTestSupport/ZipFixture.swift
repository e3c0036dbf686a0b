import Foundation

/// Builds zip archives with Python's `zipfile`, including hostile ones the library must refuse.
public enum ZipFixture {
    /// One entry of a test archive.
    public enum Entry: Sendable {
        /// A file with text content.
        case text(String, String)
        /// A file of `count` reproducible pseudo-random bytes (incompressible).
        case random(String, count: Int, seed: Int)
        /// A file of `count` zero bytes, deflated (a zip bomb when large).
        case zeros(String, count: Int)
        /// A symbolic link entry pointing at `target`.
        case symlink(String, target: String)
        /// An explicit folder entry.
        case folder(String)

        var json: [String: Any] {
            switch self {
            case .text(let name, let text): ["name": name, "text": text]
            case .random(let name, let count, let seed): ["name": name, "random": count, "seed": seed]
            case .zeros(let name, let count): ["name": name, "zeros": count]
            case .symlink(let name, let target): ["name": name, "symlink": target]
            case .folder(let name): ["name": name, "folder": true]
            }
        }
    }

    private static let script = #"""
        import json, random, sys, zipfile
        with open(sys.argv[1]) as f:
            spec = json.load(f)
        with zipfile.ZipFile(spec["path"], "w") as z:
            for e in spec["entries"]:
                name = e["name"]
                if "text" in e:
                    z.writestr(zipfile.ZipInfo(name), e["text"].encode(), compress_type=zipfile.ZIP_STORED)
                elif "random" in e:
                    data = random.Random(e["seed"]).randbytes(e["random"])
                    z.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_STORED)
                elif "zeros" in e:
                    z.writestr(zipfile.ZipInfo(name), bytes(e["zeros"]), compress_type=zipfile.ZIP_DEFLATED)
                elif "symlink" in e:
                    info = zipfile.ZipInfo(name)
                    info.create_system = 3
                    info.external_attr = (0o120777 << 16)
                    z.writestr(info, e["symlink"].encode())
                elif "folder" in e:
                    info = zipfile.ZipInfo(name if name.endswith("/") else name + "/")
                    info.external_attr = (0o040755 << 16) | 0x10
                    z.writestr(info, b"")
        """#

    /// Writes an archive with `entries` at `url`.
    public static func make(at url: URL, entries: [Entry]) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let spec: [String: Any] = ["path": url.path, "entries": entries.map(\.json)]
        // The spec goes in a file beside the archive's folder: a pipe to standard input would
        // need a writer thread, and an argument has a size limit.
        let specFile = try Shell.temporaryFolder("zip-spec").appendingPathComponent("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        defer { try? FileManager.default.removeItem(at: specFile.deletingLastPathComponent()) }
        let result = try Shell.python(script, [specFile.path])
        guard result.status == 0 else { throw TestFailure("python3 zipfile failed: \(result.stderr)") }
    }

    /// Cuts a file down to `fraction` of its size (a truncated download or upload).
    public static func truncate(_ url: URL, to fraction: Double) throws {
        let data = try Data(contentsOf: url)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
    }

    /// The bytes `.random(count:seed:)` produces, to compare unpacked files with.
    public static func randomBytes(count: Int, seed: Int) throws -> Data {
        let result = try TestChild.start(
            "python3", ["-c", "import random, sys; sys.stdout.buffer.write(random.Random(\(seed)).randbytes(\(count)))"],
            outputLimit: max(count, 1 << 20)
        ).wait()
        guard result.termination == .exited(0) else { throw TestFailure("python3 random failed: \(result.errorText)") }
        return result.output
    }
}
