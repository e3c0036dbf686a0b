import Dispatch
import NewsstandCore
import Testing

@Suite struct LockedTests {
    @Test func concurrentUpdatesAreNotLost() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.current == 80_000)
    }

    @Test func exchangeReturnsTheOldValue() {
        let box = Locked<String?>(nil)
        #expect(box.exchange("a") == nil)
        #expect(box.exchange("b") == "a")
        #expect(box.current == "b")
    }

    @Test func aThrownErrorKeepsItsType() {
        struct Refused: Error, Equatable {}
        let box = Locked([1, 2])
        #expect(throws: Refused()) {
            try box.withLock { (value) throws(Refused) in
                value.append(3)
                throw Refused()
            }
        }
        // What the body changed before it threw stays changed: the box has no rollback.
        #expect(box.current == [1, 2, 3])
    }
}
