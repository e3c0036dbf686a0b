import Foundation

/// Reads zip files with Java's `java.util.zip.ZipInputStream`, the streaming reader Android
/// apps unpack downloads with (`Tests/NewsstandArchiveTests/ZipStreamCheck.java`, run by the
/// JDK's single-file launcher; Debian's `default-jdk-headless`).
public enum JavaZipStream {
    /// One entry as Java read it, front to back, before any central directory.
    public struct Entry: Equatable, Sendable, CustomStringConvertible {
        public var archive: String
        public var name: String
        /// `stored` or `deflated`.
        public var method: String
        public var size: Int
        /// CRC-32 of the bytes read, 8 lowercase hex digits.
        public var crc32: String
        /// SHA-256 of the bytes read, lowercase hex.
        public var sha256: String

        public var description: String { "\(archive) \(name) \(method) \(size) \(crc32) \(sha256)" }
    }

    /// Java's reading of `archives`, in order; the result's status is 1, with a message on
    /// stderr, when an archive cannot be streamed.
    public static func read(_ archives: [URL]) throws -> (result: Shell.Result, entries: [Entry]) {
        let program = Shell.repositoryRoot.appendingPathComponent("Tests/NewsstandArchiveTests/ZipStreamCheck.java")
        let result = try Shell.run("java", Shell.javaOptions + [program.path] + archives.map(\.path))
        let entries = result.stdout.split(separator: "\n").compactMap { line -> Entry? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 6, let size = Int(fields[3]) else { return nil }
            return Entry(
                archive: fields[0], name: fields[1], method: fields[2], size: size, crc32: fields[4], sha256: fields[5])
        }
        return (result, entries)
    }
}
