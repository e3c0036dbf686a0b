import Foundation
import NewsstandCore

/// Replaces an issue's content folder (`Issues/<name>`) with a complete new version so that a
/// crash at any moment leaves exactly one complete version: the one the saved state names. The
/// one rule for both replacements, a whole bundle unpacked (`Installer`) and an update by ranges
/// (`UpdateAssembler`), and for their repair when the library opens (`IssueLibrary.recover`).
///
/// The state decides and the folders follow: the issue's saved record (`installedSHA256` of an
/// available issue) names the bundle its content is. A swap is
/// 1. `stage`: the new version, complete in a temporary folder, is renamed
///    `.next-<name>.<sha256>` (the bundle it holds, in its name) and the issues folder synced;
/// 2. the caller records that bundle as installed and saves the state: the commit point;
/// 3. `settle(recorded:)` with that bundle: `<name>` renamed `.swap-<name>`, the staged folder
///    renamed `<name>`, `.swap-<name>` deleted.
///
/// A `.next-` or `.swap-` folder is always complete: whatever is to be deleted is first renamed
/// to a temporary name (`LibraryLayout.temporaryPrefix`, deleted on open), never deleted under
/// its own. What a crash leaves, and what `settle` makes of it on the next open:
/// - before 1: a temporary folder, deleted; the old version stays, the update is asked again.
/// - after 1, before the save: `<name>` and `.next-<name>.<new>`, the record naming the old
///   bundle: the staged folder is deleted; the old version stays.
/// - after the save, before 3: the record names the staged folder: 3 is done.
/// - between 3's renames: `.swap-<name>` and the staged folder, no `<name>`: the second rename
///   and the deletion are done.
/// - after 3's renames: `<name>` and `.swap-<name>`: the aside is deleted.
/// - `.swap-<name>` without `<name>` or a staged folder the record names (an earlier version of
///   this library cut between its renames, or a failed step 3 whose record was put back):
///   renamed back, when the record names an installed version at all.
///
/// Nothing but the folders' names and the record is read, so recovery has no state of its own;
/// an index inside a content folder never decides (a bundle can carry a file of that name).
enum ContentSwap {
    /// Prefix of a complete new version waiting to be swapped in; issue names never start with a dot.
    static let stagedPrefix = ".next-"
    /// Prefix of the version swapped out, until it is deleted.
    static let asidePrefix = ".swap-"

    /// The staged name of `name`'s version holding the bundle with SHA-256 `sha256`.
    static func stagedName(of name: String, sha256: String) -> String { "\(stagedPrefix)\(name).\(sha256)" }

    /// The name `name`'s old version is moved aside to.
    static func asideName(of name: String) -> String { asidePrefix + name }

    /// Step 1: names the complete version in `temporary` as `name`'s next, holding bundle
    /// `sha256`, and syncs the folder, so that the name is on disk before the state names it.
    static func stage(
        _ temporary: String, as name: String, sha256: String, in issues: OpenFolder, layout: LibraryLayout
    ) throws(FileSystemError) {
        let staged = stagedName(of: name, sha256: sha256)
        // The same bundle staged before, by a swap whose save failed: this copy replaces it.
        try discard(staged, of: name, in: issues, layout: layout)
        try issues.rename(temporary, to: staged)
        try issues.synchronize()
    }

    /// Step 3, and the repair after a crash: brings `name`'s folders to the version the saved
    /// record names. `recorded` is the bundle the record says is installed, nil when it says
    /// none is (then no staged or aside folder is kept). Blocking: run it with `BlockingWork`.
    static func settle(
        _ name: String, recorded: String?, in issues: OpenFolder, layout: LibraryLayout
    ) throws(FileSystemError) {
        let aside = asideName(of: name)
        let target = recorded.map { stagedName(of: name, sha256: $0) }
        for staged in try stagedFolders(of: name, in: issues) where staged != target {
            try discard(staged, of: name, in: issues, layout: layout)
        }
        if let target, issues.kind(of: target) != nil {
            if issues.kind(of: name) != nil {
                // An aside left by an earlier swap whose deletion failed.
                try discard(aside, of: name, in: issues, layout: layout)
                try issues.rename(name, to: aside)
            }
            try issues.rename(target, to: name)
        } else if recorded != nil, issues.kind(of: name) == nil, issues.kind(of: aside) != nil {
            try issues.rename(aside, to: name)
        }
        // The swap is done: an aside that cannot be taken off now is taken off on the next open.
        try? discard(aside, of: name, in: issues, layout: layout)
    }

    /// The issues with a staged or aside folder in `issues`.
    static func pending(in issues: OpenFolder) -> Set<String> {
        var names = Set<String>()
        for entry in (try? issues.entries()) ?? [] {
            guard let item = entry.name else { continue }
            if let name = issueName(ofStaged: item) {
                names.insert(name)
            } else if item.hasPrefix(asidePrefix), item.count > asidePrefix.count {
                names.insert(String(item.dropFirst(asidePrefix.count)))
            }
        }
        return names
    }

    /// The issue a staged folder's name is of (`.next-<name>.<64 hex digits>`), or nil.
    private static func issueName(ofStaged item: String) -> String? {
        let digest = 64
        guard item.hasPrefix(stagedPrefix), item.utf8.count > stagedPrefix.utf8.count + digest + 1 else { return nil }
        let sha = item.suffix(digest)
        let dot = item.index(sha.startIndex, offsetBy: -1)
        guard item[dot] == ".", sha.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return String(item[item.index(item.startIndex, offsetBy: stagedPrefix.count)..<dot])
    }

    /// `name`'s staged folders, whatever bundle they hold.
    private static func stagedFolders(of name: String, in issues: OpenFolder) throws(FileSystemError) -> [String] {
        try issues.entries().compactMap { entry in
            guard let item = entry.name, issueName(ofStaged: item) == name else { return nil }
            return item
        }
    }

    /// Takes `entry` off under a temporary name, then deletes it: no staged or aside folder is
    /// ever seen half deleted under its own name. A deletion that fails is finished on open.
    private static func discard(_ entry: String, of name: String, in issues: OpenFolder, layout: LibraryLayout)
        throws(FileSystemError)
    {
        guard issues.kind(of: entry) != nil else { return }
        let doomed = layout.temporaryContent(of: name).lastPathComponent
        try issues.rename(entry, to: doomed)
        try? issues.removeTree(doomed)
    }
}
