import XCTest
@testable import GLSnapRender

/// The projective weights of image source quads (ImageQuad.swift).
final class ImageQuadTests: XCTestCase {
    func testParallelogramNeedsNoWeights() {
        XCTAssertNil(ImageQuad.weights([0, 0, 100, 0, 100, 50, 0, 50]), "a rectangle")
        XCTAssertNil(ImageQuad.weights([10, 0, 110, 0, 100, 50, 0, 50]), "a sheared parallelogram")
    }

    func testTrapezoidWeightsFollowTheDiagonals() throws {
        // Top edge -10...10, bottom edge -20...20, 20 high: the diagonals cross a third of the
        // way down, so the top corners weigh 1 / (1 − 1/3) and the bottom ones 1 / (1/3).
        let q = try XCTUnwrap(ImageQuad.weights([-10, 0, 10, 0, 20, 20, -20, 20]))
        XCTAssertEqual(q[0], 1.5, accuracy: 1e-6)
        XCTAssertEqual(q[1], 1.5, accuracy: 1e-6)
        XCTAssertEqual(q[2], 3, accuracy: 1e-6)
        XCTAssertEqual(q[3], 3, accuracy: 1e-6)
    }

    func testQuadThatIsNotConvexStaysAffine() {
        // The fourth corner folded inside the triangle of the other three.
        XCTAssertNil(ImageQuad.weights([0, 0, 100, 0, 100, 100, 70, 30]))
        XCTAssertNil(ImageQuad.weights([0, 0, 0, 0, 0, 0, 0, 0]), "degenerate")
    }
}
