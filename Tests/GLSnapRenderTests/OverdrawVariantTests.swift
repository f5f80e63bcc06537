import XCTest
import GLSnapGL
@testable import GLSnapRender

/// The overdraw inspector's program variants (`OverdrawInspector`).
final class OverdrawVariantTests: XCTestCase {
    /// Every program has one, and it compiles: a layer type whose shader the rewrite missed would
    /// fail only when a user asks for the inspector.
    func testEveryProgramHasAnOverdrawVariantThatLinks() throws {
        let ctx = try GLContext(backend: .osmesa)
        let set = ProgramSet(context: ctx)
        let plain = try set.program(.fill)
        set.overdrawInspector = true
        for id in ShaderID.allCases {
            XCTAssertTrue(OverdrawInspector.fragment(id.fragmentSource).contains("fragColor = vec4(1.0);"), id.rawValue)
            XCTAssertNoThrow(try set.program(id), "\(id.rawValue)")
        }
        XCTAssertFalse(try set.program(.fill) === plain, "the variant is a program of its own")
        set.overdrawInspector = false
        XCTAssertTrue(try set.program(.fill) === plain, "frames without the inspector keep the plain program")
    }
}
