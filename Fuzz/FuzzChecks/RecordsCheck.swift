import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandPublish

/// The records Newsstand reads back from places others can write: a publish's state file
/// (`PublishManifest.decode`, first byte even) and a build's manifest (`BuildManifest.load`,
/// first byte odd; the rest of the input is the file). What they accept names only safe paths
/// and survives encoding and decoding again unchanged.
enum RecordsCheck {
    static let issueOutput: URL = {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("newsstand-fuzz-records-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(
                at: BuildManifest.url(in: folder).deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            fatalError("cannot make \(folder.path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: RecordsCheck.issueOutput) }
        return folder
    }()

    static func check(_ data: Data) -> String? {
        guard let first = data.first else { return nil }
        let body = Data(data.dropFirst())
        return first % 2 == 0 ? publishState(body) : buildManifest(body)
    }

    static func publishState(_ data: Data) -> String? {
        guard let manifest = try? PublishManifest.decode(data, source: "fuzz") else { return nil }
        for path in manifest.recordedPaths {
            if let problem = SafeRelativePath.problem(in: path) { return "accepted \(path): \(problem)" }
        }
        return roundTrip(manifest) { try PublishManifest.decode($0, source: "again") }
    }

    static func buildManifest(_ data: Data) -> String? {
        let url = BuildManifest.url(in: issueOutput)
        do {
            try data.write(to: url)
        } catch {
            fatalError("cannot write \(url.path): \(error)")
        }
        guard let manifest = try? BuildManifest.load(in: issueOutput) else { return nil }
        for output in manifest.outputs where !SafeRelativePath.isSafeComponent(output.file) {
            return "accepted output \(output.file)"
        }
        for input in manifest.inputs {
            guard
                input.path == "issue.plist" || input.path == "pages.plist"
                    || (input.path.hasPrefix("assets/") && SafeRelativePath.isSafeComponent(String(input.path.dropFirst(7))))
            else { return "accepted input \(input.path)" }
        }
        return roundTrip(manifest) { encoded in
            try encoded.write(to: url)
            return try BuildManifest.load(in: issueOutput)
        }
    }

    /// The value encoded as the tools write it and read back: the same value.
    static func roundTrip<Value: Codable & Equatable>(_ value: Value, _ read: (Data) throws -> Value?) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let again = try read(try encoder.encode(value))
            guard again == value else { return "read back as \(String(describing: again)), not \(value)" }
        } catch {
            return "what was accepted does not read back: \(error)"
        }
        return nil
    }
}
