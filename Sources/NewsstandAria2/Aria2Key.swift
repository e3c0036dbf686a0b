import Foundation
import NewsstandCore
import NewsstandReader

/// How a `TransferID` is written into aria2, so that a process that lost every in-memory map
/// can read the key back from what aria2 reports: the download's output file is named
/// `name#generation` (the key's own text), and its GID (aria2's 16 hex digits, chosen by the
/// client) is derived from that text. A download counts as the key's only when both agree.
enum Aria2Key {
    /// The longest bundle URL handed to aria2.
    static let maxURLBytes = 8 << 10

    /// The GID of `id`: the first 16 hex digits of the SHA-256 of `name#generation` (aria2
    /// reserves the GID of all zeros; a digest starting with 64 zero bits is not expected).
    static func gid(of id: TransferID) -> String {
        String(SHA256.hex(of: Data(id.description.utf8)).prefix(16))
    }

    /// The output file's name.
    static func fileName(of id: TransferID) -> String { id.description }

    /// aria2's control file beside an unfinished download (`--continue` resumes from it).
    static func controlFileName(of id: TransferID) -> String { id.description + ".aria2" }

    /// What aria2 writes a control file under before renaming it over the control file (its
    /// `DefaultBtProgressInfoFile::save`): a daemon killed mid-save leaves it behind.
    static func controlSaveName(of id: TransferID) -> String { controlFileName(of: id) + "__temp" }

    /// The key of a control file's save name (`a-1#2.aria2__temp`).
    static func id(ofControlSaveName name: String) -> TransferID? {
        let suffix = ".aria2__temp"
        guard name.hasSuffix(suffix) else { return nil }
        return id(ofFileName: String(name.dropLast(suffix.count)))
    }

    /// The engine's record of the job (`Aria2JobRecord`).
    static func recordFileName(of id: TransferID) -> String { id.description + ".json" }

    /// The key a file of this name belongs to, when it is exactly one key's output file
    /// (`a-1#2`, not `a-1#02`, `a-1#2.aria2` or another app's file).
    static func id(ofFileName name: String) -> TransferID? {
        guard let id = TransferID(name), id.description == name else { return nil }
        return id
    }

    /// The key of a record file's name (`a-1#2.json`).
    static func id(ofRecordName name: String) -> TransferID? {
        guard name.hasSuffix(".json") else { return nil }
        return id(ofFileName: String(name.dropLast(5)))
    }

    /// `url` as aria2 gets it: http or https with a host, and nothing that could end a line of
    /// its session file or split a list of URIs (blanks, control characters).
    static func checkedURL(_ url: URL) throws(Aria2Error) -> String {
        let text = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .unsupportedURL(reason: "only http and https URLs can be fetched")
        }
        guard let host = url.host, !host.isEmpty else { throw .unsupportedURL(reason: "the URL has no host") }
        guard text.utf8.count <= maxURLBytes else { throw .unsupportedURL(reason: "the URL is longer than \(maxURLBytes) bytes") }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .unsupportedURL(reason: "the URL holds blanks or control characters")
        }
        return text
    }
}
