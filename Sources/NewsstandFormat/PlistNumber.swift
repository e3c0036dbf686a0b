import Foundation

/// A number from a Foundation-decoded property list, by its real kind. Bridging cannot tell
/// them apart on Linux (`1 as? Bool` succeeds), so the number's own type is asked.
public enum PlistNumber: Equatable, Sendable {
    case boolean(Bool)
    case integer(Int)
    case real(Double)

    public init(_ number: NSNumber) {
        switch String(cString: number.objCType) {
        case "c", "B": self = .boolean(number.boolValue)
        case "f", "d": self = .real(number.doubleValue)
        default: self = .integer(number.intValue)
        }
    }
}
