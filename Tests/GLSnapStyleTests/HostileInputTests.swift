import XCTest
@testable import GLSnapStyle

/// Inputs tools/fuzz.sh found crashing the style and expression code (kept whole under
/// Tests/Fuzz/<target>/crashes/), reduced to the value that matters.
final class HostileInputTests: XCTestCase {
    /// A version too large for an Int trapped converting it; it is a style problem like any other.
    func testHugeVersionIsAProblem() throws {
        for version in ["7777777777777777777777777777777777777778", "-1e300", "1e19", "9.5"] {
            let text = #"{"version": \#(version), "sources": {}, "layers": []}"#
            XCTAssertThrowsError(try Style(bytes: Array(text.utf8)), version) { error in
                guard case StyleError.invalid(let problems) = error else { return XCTFail("\(version): \(error)") }
                XCTAssertEqual(problems.map(\.path), ["version"], version)
            }
        }
    }

    /// A locale that is not a BCP 47 tag (here not ASCII) crashed Foundation's Locale; it is an
    /// expression error, as GL JS's `Intl` throws a RangeError.
    func testMalformedLocaleIsAnEvaluationError() throws {
        for locale in ["\u{FFFD}n", "é", "de@collation=phonebook", "", String(repeating: "a", count: 200)] {
            let quoted = JSON.quote(String(locale.prefix(64)))
            for text in [#"["==", "a", "b", ["collator", {"locale": \#(JSON.quote(locale))}]]"#,
                         #"["number-format", 1.5, {"locale": \#(JSON.quote(locale))}]"#] {
                let message = "Incorrect locale information provided: \(quoted)"
                // A constant number-format is evaluated while compiling: the error comes from there.
                let (e, errors) = StyleExpression.compile(try json(text), propertySpec: nil)
                guard let expr = e else {
                    XCTAssertEqual(errors.map(\.message), [message], text)
                    continue
                }
                XCTAssertThrowsError(try expr.evaluate(EvaluationContext(zoom: 0)), text) { error in
                    XCTAssertEqual("\(error)", message, text)
                }
            }
        }
        let (e, _) = StyleExpression.compile(try json(#"["number-format", 1.5, {"locale": "de-DE"}]"#), propertySpec: nil)
        XCTAssertEqual(try XCTUnwrap(e).evaluate(EvaluationContext(zoom: 0)), .string("1,5"))
    }

    /// Longitude wrapping subtracted 360 at a time: far-off coordinates (a `distance` input the
    /// fuzzer made) held it for minutes, and past 1e19 degrees forever (360 is below their
    /// precision). It is one remainder now, equal to the loop for ordinary longitudes.
    func testLongitudeWrapIsBoundedForHugeValues() {
        let ruler = CheapRuler(latitude: 0)
        XCTAssertEqual(ruler.wrap(-190), 170)
        XCTAssertEqual(ruler.wrap(3690), 90)
        XCTAssertEqual(ruler.wrap(540), 180)
        XCTAssertEqual(ruler.wrap(-540), -180)
        for huge in [1e12, -1e15, 1e20, -1e300, Double.greatestFiniteMagnitude] {
            XCTAssertTrue((-180...180).contains(ruler.wrap(huge)), "\(huge)")
        }
        XCTAssertTrue(ruler.wrap(.nan).isNaN)
    }

    /// Validation writes a bad value into its message; integers from 9.2e18 to 1e21 trapped
    /// converting to Int64. They print as JavaScript prints them.
    func testHugeIntegersFormatAsJavaScriptDoes() throws {
        XCTAssertEqual(formatNumber(777777777777777777778), "777777777777777800000")
        XCTAssertEqual(formatNumber(1e20), "100000000000000000000")
        XCTAssertEqual(formatNumber(-1e19), "-10000000000000000000")
        XCTAssertEqual(formatNumber(0x1p60), "1152921504606847000")
        XCTAssertEqual(formatNumber(0x1p53), "9007199254740992")
        XCTAssertEqual(formatNumber(9007199254740991), "9007199254740991")
        XCTAssertEqual(formatNumber(1e21), "1e+21")
        let problems = validateStyle(Array(#"{"version": 777777777777777777778, "sources": {}, "layers": []}"#.utf8))
        XCTAssertTrue(problems.contains { $0.path == "version" && $0.message.contains("777777777777777800000") }, "\(problems)")
    }
}
