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

/// Checks a frame's deadline between layers. The software rasterizer draws what was queued only
/// when it is flushed, so a check first waits for the layers queued so far (`finish`): the
/// time it sees is the time drawing really takes. Waiting splits the rasterizer's work and
/// costs CPU time (`glsnap bench`, 99 layers: a wait before every layer +10%), so the checks
/// are spaced by what the layers took: about every `batchSeconds`, at most `maxLayers` apart.
struct DeadlinePacer {
    let deadline: RenderDeadline
    /// Layers drawn since the last check, and how many to draw before the next.
    private var drawn = 0
    private var batch = DeadlinePacer.firstBatch
    private var batchStart = DispatchTime.now().uptimeNanoseconds

    static let firstBatch = 8
    static let maxLayers = 64
    static let batchSeconds = 0.05

    init(deadline: RenderDeadline) { self.deadline = deadline }

    mutating func beforeLayer(finish: () -> Void) throws {
        drawn += 1
        guard drawn > batch else { return }
        finish()
        try deadline.check()
        let now = DispatchTime.now().uptimeNanoseconds
        let perLayer = Double(now - batchStart) / 1e9 / Double(drawn - 1)
        batch = perLayer > 0 ? Int(min(Double(Self.maxLayers), max(1, Self.batchSeconds / perLayer))) : Self.maxLayers
        drawn = 1
        batchStart = now
    }
}
