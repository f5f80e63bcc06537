import Foundation

/// Admission in front of the render workers: at most `slots` requests render at once, at most
/// `maxWaiting` wait for a slot; a request that finds the queue full is refused at once (503), one
/// that waits past its deadline gives up (504).
final class RenderQueue: @unchecked Sendable {
    enum Admission { case admitted, full, timedOut }

    let slots: Int
    let maxWaiting: Int
    private var busy = 0
    private var waiting = 0
    private let condition = NSCondition()

    init(slots: Int, maxWaiting: Int) {
        precondition(slots >= 1 && maxWaiting >= 0, "a render queue needs a slot and a non-negative bound")
        self.slots = slots; self.maxWaiting = maxWaiting
    }

    /// Takes a slot, waiting until `deadline` at most; `.admitted` must be paired with `release()`.
    func acquire(deadline: Date) -> Admission {
        condition.lock()
        defer { condition.unlock() }
        if busy < slots, waiting == 0 { busy += 1; return .admitted }
        guard waiting < maxWaiting else { return .full }
        waiting += 1
        defer { waiting -= 1 }
        while busy >= slots {
            if !condition.wait(until: deadline), busy >= slots { return .timedOut }
        }
        busy += 1
        return .admitted
    }

    func release() {
        condition.lock()
        busy -= 1
        condition.signal()
        condition.unlock()
    }

    /// Requests waiting and rendering now.
    var depth: (waiting: Int, rendering: Int) {
        condition.lock(); defer { condition.unlock() }
        return (waiting, busy)
    }
}
