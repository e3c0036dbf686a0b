import NewsstandCore
import NewsstandFormat

/// A place where a page config or `issue.plist` names a file in `assets/`.
struct AssetReference {
    var name: String
    var kind: AssetKind
    var location: SourceLocation
}
