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
}
