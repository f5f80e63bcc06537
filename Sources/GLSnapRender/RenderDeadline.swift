import Dispatch

/// The time past which a snapshot stops: checked between layers as a frame is drawn (and by
/// the library between tiles and between pieces), so a render over its time limit ends near
/// it and frees its GL context for the next one.
public struct RenderDeadline: Sendable, Equatable {
    /// `DispatchTime` uptime of the deadline.
    public let uptimeNanoseconds: UInt64
    /// The time limit it was made from, for messages.
    public let seconds: Double

    /// `seconds` (finite, at least 0) after `start`.
    public init(seconds: Double, from start: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        precondition(seconds.isFinite && seconds >= 0, "a time limit must be finite and not negative")
        self.seconds = seconds
        let span = min(seconds * 1e9, Double(UInt64.max / 2))
        uptimeNanoseconds = start &+ UInt64(span)
    }

    public var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds }

    /// Throws `DeadlinePassed` once the deadline has passed.
    @inline(__always)
    public func check() throws {
        if hasPassed { throw DeadlinePassed(seconds: seconds) }
    }
}

/// A render stopped at its `RenderDeadline`.
public struct DeadlinePassed: Error, CustomStringConvertible, Equatable {
    public let seconds: Double
    public var description: String { "stopped at its time limit of \(seconds) s" }
}
