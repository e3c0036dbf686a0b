import NewsstandCore
import NewsstandFormat

/// A page class as a schema declares it: its own properties and the class it inherits.
public struct PageClass: Sendable, Equatable {
    public var name: String
    /// The class whose properties this one inherits, if any.
    public var parent: String?
    /// The properties declared by this class itself (a property redeclared here overrides the parent's).
    public var properties: [PropertySpec]
    /// Where the class was declared (for schema diagnostics).
    public var location: SourceLocation?

    public init(name: String, parent: String?, properties: [PropertySpec], location: SourceLocation?) {
        self.name = name
        self.parent = parent
        self.properties = properties
        self.location = location
    }
}
