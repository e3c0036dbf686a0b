import Foundation
import NewsstandCore

/// What an issue's content takes: the sizes of the regular files in its folder, walked without
/// following a link. Blocking: the storage policy runs it on a thread of its own.
enum ContentUsage {
    /// The bytes of the files below `folder`; 0 when there is no folder.
    static func bytes(of folder: URL) -> Int64 {
        guard let root = try? OpenFolder.open(folder) else { return 0 }
        var total: Int64 = 0
        var pending: [(parent: OpenFolder, name: String)] = []
        var current: OpenFolder? = root
        while let folder = current {
            for entry in (try? folder.entries()) ?? [] {
                guard let name = entry.name else { continue }
                switch entry.kind {
                case .regularFile: total += folder.status(of: name)?.size ?? 0
                case .folder: pending.append((folder, name))
                default: break
                }
            }
            current = nil
            while current == nil, let next = pending.popLast() { current = try? next.parent.folder(next.name) }
        }
        return total
    }
}
