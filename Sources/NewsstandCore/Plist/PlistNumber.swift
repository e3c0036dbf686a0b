import Foundation

/// A number from a Foundation-decoded property list, by its real kind. Bridging cannot tell
/// them apart on Linux (`1 as? Bool` succeeds), so the number's own type is asked.
public enum PlistNumber: Equatable, Sendable {
    /// `<true/>` or `<false/>`.
    case boolean(Bool)
    /// An `<integer>`.
    case integer(Int)
    /// A `<real>`.
    case real(Double)

    /// The number by the type it was stored with (`objCType`), not by what it bridges to.
    public init(_ number: NSNumber) {
        switch String(cString: number.objCType) {
        case "c", "B": self = .boolean(number.boolValue)
        case "f", "d": self = .real(number.doubleValue)
        case "Q" where number.uint64Value > UInt64(Int.max):
            // An unsigned integer no `Int` holds (Foundation keeps plist integers above
            // Int64.max so): not a size or count anything accepts.
            self = .real(number.doubleValue)
        default: self = .integer(number.intValue)
        }
    }

    /// The number as a property-list value.
    public var value: PlistValue {
        switch self {
        case .boolean(let b): .boolean(b)
        case .integer(let i): .integer(i)
        case .real(let r): .real(r)
        }
    }
}
