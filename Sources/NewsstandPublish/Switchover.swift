import Foundation
import NewsstandBuild
import NewsstandCore

/// The short last phase of a publish, where what readers are served changes: files uploaded
/// under temporary names (staged) are moved over the files they replace, catalogs last, each
/// old file first copied aside on the destination's side. If any step fails, every file already
/// switched is put back from its copy (or removed, when there was none), newest first, so the
/// served catalog is again the old one and the served files are the ones it lists.
///
/// Nothing is uploaded in this phase: it is a few moves and server-side copies. Its window: a
/// reader who fetched the old catalog before it began and a bundle replaced in place after a
/// swap gets bytes that do not match that catalog's SHA-256 (a reader rejects them and
/// refreshes); and a publish killed inside the phase cannot roll back (running it again
/// finishes the job). Content-versioned names (the default of `build`) have no in-place swaps.
struct Switchover {
    let destination: any PublishDestination
    /// A tag for this run's temporary names.
    let run: String

    /// A file staged under `staged`, to take `path`'s place.
    struct Item: Sendable {
        var path: String
        var staged: String
        var sha256: String
        var isCatalog: Bool
    }

    /// One completed switch: where the old file was kept (nil when there was none).
    private struct Done {
        var item: Item
        var aside: String?
    }

    /// A hidden name beside `path` for this run (`a-1/.a-1.zip.<run>.new`).
    func temporaryName(for path: String, _ suffix: String) -> String {
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return "\(folder).\(name.prefix(200)).\(run).\(suffix)"
    }

    /// Switches every item in order. On a failure, puts back what was switched and rethrows
    /// the failure with a note on what is served now.
    func perform(_ items: [Item], progress: @Sendable (String) -> Void) async throws(PublishError) -> [String] {
        var done: [Done] = []
        do throws(PublishError) {
            for item in items {
                progress(item.isCatalog ? "replace \(item.path)" : "swap \(item.path)")
                let aside = temporaryName(for: item.path, "old")
                let kept = try await destination.copy(item.path, to: aside)
                do throws(PublishError) {
                    try await destination.move(item.staged, to: item.path)
                } catch {
                    if kept { try? await destination.delete(aside) }
                    throw error
                }
                done.append(Done(item: item, aside: kept ? aside : nil))
                if item.isCatalog, !destination.supportsAtomicMove {
                    // No atomic rename (rclone): check what readers now get.
                    guard let data = try await destination.read(item.path, limit: BuiltMagazine.catalogLimit),
                        SHA256.hex(of: data) == item.sha256
                    else {
                        throw PublishError(
                            step: "verify", target: item.path, reason: .readBackMismatch)
                    }
                }
            }
        } catch {
            var failure = error
            failure.note = await restore(done, progress: progress)
            for item in items { try? await destination.delete(item.staged) }
            throw failure
        }
        // The old files are no longer served by anything: their copies can go.
        var leftovers: [String] = []
        for entry in done {
            guard let aside = entry.aside else { continue }
            do { try await destination.delete(aside) } catch { leftovers.append(aside) }
        }
        return leftovers
    }

    /// Puts back every switched file, newest first; says what readers are served now.
    private func restore(_ done: [Done], progress: @Sendable (String) -> Void) async -> String {
        guard !done.isEmpty else {
            return "Nothing that readers are served was changed; run the command again to finish."
        }
        var problems: [String] = []
        for entry in done.reversed() {
            progress("restore \(entry.item.path)")
            do {
                if let aside = entry.aside {
                    try await destination.move(aside, to: entry.item.path)
                } else {
                    try await destination.delete(entry.item.path)
                }
            } catch {
                problems.append("\(error)")
            }
        }
        guard problems.isEmpty else {
            return
                "Restoring the previous files failed too (\(problems.joined(separator: "; "))): the served catalog may not match the served files until the command is run again and succeeds."
        }
        return
            "The previous catalog and files were restored: readers are served the magazine as it was; run the command again to finish."
    }
}
