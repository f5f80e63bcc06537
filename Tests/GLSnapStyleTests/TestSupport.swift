import XCTest
import GLSnapTestSupport
@testable import GLSnapStyle

/// A feature for tests.
struct TestFeature: FeatureContext {
    var geometryType: GeometryType = .point
    var featureID: JSON?
    var properties: [String: JSON] = [:]
    func property(_ key: String) -> JSON? { properties[key] }
}

/// The shared reference data folder (../shared from the repo root), or nil when absent.
func sharedDir() -> URL? { SharedFolder.url }

func json(_ text: String) throws -> JSON { try JSON.parse(text) }
