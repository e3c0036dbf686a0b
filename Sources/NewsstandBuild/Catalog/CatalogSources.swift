import Foundation
import NewsstandCore

/// The key of what `issues.plist` and `shelf.json` are made from: every built issue's name and
/// the identity of its manifest (device, inode, size, times to the nanosecond), the BaseURL
/// and the tool's version. Their entries are a function of these alone, so while the key is
/// the one recorded with a catalog file (`BuildIndex.CatalogRecord.sources`) and the file
/// still holds the bytes recorded, a build need not read a manifest to know the catalog is
/// up to date: a no-change build of a large magazine spent a sixth of its time decoding
/// manifests and making entries only to find the digest it had recorded.
///
/// A manifest's identity stands for its content only when its last change is settled (over a
/// second old, as for the build index's entries: a write within the same tick of the file
/// system's clock could leave the identity as it was), so there is no key while one is not.
enum CatalogSources {
    /// The key of `issues` (in the order listed, with each manifest's identity); nil when a
    /// manifest is missing or not settled (`isSettled`).
    static func key(
        of issues: [(name: String, identity: FileIdentity?)], baseURL: URL, isSettled: (FileIdentity) -> Bool
    ) -> String? {
        let hasher = XXH3()
        hasher.update("catalog sources newsstand \(ToolVersion.current) \(issues.count)\n")
        let base = baseURL.absoluteString
        hasher.update("\(base.utf8.count):\(base)\n")
        for (name, identity) in issues {
            guard let identity, isSettled(identity) else { return nil }
            hasher.update("\(name.utf8.count):\(name) \(identity.device) \(identity.inode) \(identity.size) ")
            hasher.update(
                "\(identity.modifiedSeconds).\(identity.modifiedNanoseconds) \(identity.changedSeconds).\(identity.changedNanoseconds)\n"
            )
        }
        return hasher.finalizeHex()
    }
}
