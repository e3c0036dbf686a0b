import Foundation
import NewsstandCore

/// `ZipExtractor` (our reader over zlib) on any bytes, in a sandbox: `sandbox/outer/{before,inner/{bundle.zip,out},after}`
/// with files around the destination. After an extraction that succeeds, the only new paths
/// are inside `out`, which holds only folders and regular files, as many as the summary says;
/// after one that fails, `out` is gone and the sandbox is as it was. Every name written is one
/// the build's name rules allow (`SafeRelativePath`), files and folders together stay within
/// the entry limit, and no error message holds a character that could rewrite a terminal.
enum ZipExtractCheck {
    /// Small limits, so that one input cannot fill the disk or take long.
    static let limits = ZipExtractionLimits(
        maxEntries: 256, maxTotalSize: 8 << 20, maxCompressionRatio: 100, ratioGraceSize: 1 << 20)

    static let sandbox: URL = {
        let root = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
            .appendingPathComponent("newsstand-fuzz-zip-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let fileManager = FileManager.default
        do {
            for folder in ["outer/before", "outer/inner", "outer/after"] {
                try fileManager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            for file in ["sentinel", "outer/sentinel", "outer/before/a", "outer/after/z", "outer/inner/sentinel"] {
                try Data("sentinel \(file)\n".utf8).write(to: root.appendingPathComponent(file))
            }
        } catch {
            fatalError("cannot make the sandbox \(root.path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: ZipExtractCheck.sandbox) }
        return root
    }()

    static func check(_ data: Data) -> String? {
        let archive = sandbox.appendingPathComponent("outer/inner/bundle.zip")
        let destination = sandbox.appendingPathComponent("outer/inner/out")
        do {
            try data.write(to: archive)
        } catch {
            fatalError("cannot write \(archive.path): \(error)")
        }
        defer {
            try? FileManager.default.removeItem(at: destination)
            try? FileManager.default.removeItem(at: archive)
        }
        let before = Tree.snapshot(sandbox)
        let result = Result { () throws(ZipExtractionError) -> ZipExtractionSummary in
            try ZipExtractor.extract(from: archive, into: destination, limits: limits)
        }
        let after = Tree.snapshot(sandbox)
        let inside = "outer/inner/out"
        for (path, entry) in before where after[path] != entry {
            return "\(path) changed: \(entry) became \(after[path].map(String.init(describing:)) ?? "nothing")"
        }
        let added = after.filter { before[$0.key] == nil }
        for path in added.keys where path != inside && !path.hasPrefix(inside + "/") {
            return "\(path) was written outside the destination (\(result))"
        }
        switch result {
        case .failure(let error):
            guard added.isEmpty else { return "\(error) left \(added.keys.sorted().prefix(5)) behind" }
            let message = String(describing: error)
            if message.unicodeScalars.contains(where: SafeRelativePath.isUnprintable) {
                return "the message \(message.debugDescription) holds a character that could rewrite the terminal"
            }
        case .success(let summary):
            guard added[inside]?.kind == .folder else { return "the destination is not a folder after success" }
            var files = 0
            var folders = 0
            var bytes: Int64 = 0
            for (path, entry) in added where path != inside {
                switch entry.kind {
                case .file:
                    files += 1
                    bytes += entry.size
                case .folder: folders += 1
                case .other(let mode): return "\(path) has mode \(String(mode, radix: 8)): not a folder or a regular file"
                }
            }
            guard bytes <= limits.maxTotalSize else { return "\(bytes) bytes written, over the limit" }
            guard files + folders <= limits.maxEntries else {
                return "\(files) files and \(folders) folders written, over the entry limit"
            }
            for path in added.keys where path != inside {
                let relative = String(path.dropFirst(inside.count + 1))
                if let problem = SafeRelativePath.problem(in: relative) {
                    return "\(relative.debugDescription) was written: it \(problem)"
                }
            }
            guard summary.fileCount == files, summary.totalSize == bytes else {
                return "the summary \(summary) disagrees with the disk: \(files) files, \(folders) folders, \(bytes) bytes"
            }
        }
        return nil
    }
}

/// Every path under a folder (not following links) with its kind, size and modification time.
enum Tree {
    struct Entry: Equatable, CustomStringConvertible {
        enum Kind: Equatable {
            case file, folder
            case other(mode_t)
        }
        var kind: Kind
        var size: Int64
        var modified: Int
        var description: String { "\(kind) of \(size) bytes modified at \(modified)" }
    }

    static func snapshot(_ root: URL) -> [String: Entry] {
        var entries: [String: Entry] = [:]
        func walk(_ relative: String) {
            let path = relative.isEmpty ? root.path : root.path + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(root.path + "/" + child, &info) == 0 else { continue }
                let type = info.st_mode & S_IFMT
                let kind: Entry.Kind = type == S_IFREG ? .file : type == S_IFDIR ? .folder : .other(info.st_mode)
                // A folder's time changes when anything is added to it: only files' times count.
                let modified = kind == .file ? info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec : 0
                entries[child] = Entry(kind: kind, size: kind == .file ? Int64(info.st_size) : 0, modified: modified)
                if kind == .folder { walk(child) }
            }
        }
        walk("")
        return entries
    }
}
