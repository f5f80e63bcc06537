import XCTest
@testable import GLSnapData

final class ProtobufReaderTests: XCTestCase {
    private func read<T>(_ bytes: [UInt8], _ body: (inout ProtobufReader) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { buffer in
            var reader = ProtobufReader(buffer)
            return try body(&reader)
        }
    }

    func testVarints() throws {
        XCTAssertEqual(try read([0x00]) { try $0.readVarint() }, 0)
        XCTAssertEqual(try read([0x96, 0x01]) { try $0.readVarint() }, 150)
        XCTAssertEqual(try read([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]) { try $0.readVarint() },
                       UInt64.max)
        XCTAssertThrowsError(try read([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]) { try $0.readVarint() }) {
            XCTAssertEqual($0 as? TileDecodeError, .varintTooLong(offset: 0))
        }
        XCTAssertThrowsError(try read([0x05, 0x96]) { r -> UInt64 in _ = try r.readVarint(); return try r.readVarint() }) {
            XCTAssertEqual($0 as? TileDecodeError, .truncated(what: "varint", offset: 1))
        }
    }

    func testZigzag() {
        XCTAssertEqual(ProtobufReader.zigzag(0), 0)
        XCTAssertEqual(ProtobufReader.zigzag(1), -1)
        XCTAssertEqual(ProtobufReader.zigzag(2), 1)
        XCTAssertEqual(ProtobufReader.zigzag(3), -2)
        XCTAssertEqual(ProtobufReader.zigzag(UInt64.max), Int64.min)
        XCTAssertEqual(ProtobufReader.zigzag(UInt64.max - 1), Int64.max)
    }

    func testFixed() throws {
        XCTAssertEqual(try read([0x78, 0x56, 0x34, 0x12]) { try $0.readFixed32() }, 0x1234_5678)
        XCTAssertEqual(try read([1, 0, 0, 0, 0, 0, 0, 0x80]) { try $0.readFixed64() }, 0x8000_0000_0000_0001)
        XCTAssertThrowsError(try read([1, 2, 3]) { try $0.readFixed32() }) {
            XCTAssertEqual($0 as? TileDecodeError, .truncated(what: "fixed32", offset: 0))
        }
        XCTAssertThrowsError(try read([1, 2, 3, 4, 5, 6, 7]) { try $0.readFixed64() }) {
            XCTAssertEqual($0 as? TileDecodeError, .truncated(what: "fixed64", offset: 0))
        }
    }

    func testFieldsAndSkipping() throws {
        // field 1 varint 150, field 2 string "hi", field 3 fixed32, field 4 fixed64, field 5 varint 7
        let bytes: [UInt8] = [0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69, 0x1d, 1, 2, 3, 4,
                              0x21, 1, 2, 3, 4, 5, 6, 7, 8, 0x28, 0x07]
        let (numbers, last, text) = try read(bytes) { r -> ([UInt32], UInt64, String) in
            var numbers: [UInt32] = []
            var last: UInt64 = 0
            var text = ""
            while let field = try r.nextField() {
                numbers.append(field.number)
                switch field.number {
                case 2: text = try r.readString()
                case 5: last = try r.readVarint()
                default: try r.skip(field)
                }
            }
            return (numbers, last, text)
        }
        XCTAssertEqual(numbers, [1, 2, 3, 4, 5])
        XCTAssertEqual(last, 7)
        XCTAssertEqual(text, "hi")
    }

    func testHostileLengthIsCappedByRemainingBytes() {
        // field 1, length-delimited, length 2^40, then 2 bytes.
        let bytes: [UInt8] = [0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x00, 0x00]
        XCTAssertThrowsError(try read(bytes) { r -> Range<Int> in _ = try r.nextField(); return try r.readLengthDelimited() }) {
            XCTAssertEqual($0 as? TileDecodeError, .lengthPastEnd(length: 1 << 40, remaining: 2, offset: 1))
        }
    }

    func testNestedMessageReportsAbsoluteOffsets() {
        // field 1 message of 3 bytes: field 1 varint with a truncated value.
        let bytes: [UInt8] = [0x0a, 0x02, 0x08, 0x80, 0x08, 0x01]
        XCTAssertThrowsError(try read(bytes) { r -> UInt64 in
            _ = try r.nextField()
            var sub = try r.readMessage()
            _ = try sub.nextField()
            return try sub.readVarint()
        }) { XCTAssertEqual($0 as? TileDecodeError, .truncated(what: "varint", offset: 3)) }
    }

    func testBadKeys() {
        XCTAssertThrowsError(try read([0x0b]) { try $0.nextField() }) {
            XCTAssertEqual($0 as? TileDecodeError, .unknownWireType(3, offset: 0))
        }
        XCTAssertThrowsError(try read([0x0e]) { try $0.nextField() }) {
            XCTAssertEqual($0 as? TileDecodeError, .unknownWireType(6, offset: 0))
        }
        XCTAssertThrowsError(try read([0x00]) { try $0.nextField() }) {
            XCTAssertEqual($0 as? TileDecodeError, .invalidFieldNumber(0, offset: 0))
        }
    }

    func testPackedVarints() throws {
        let bytes: [UInt8] = [0x22, 0x04, 0x09, 0x96, 0x01, 0x22]
        let values = try read(bytes) { r -> [UInt64] in
            _ = try r.nextField()
            var packed = try r.readPackedVarints()
            XCTAssertEqual(packed.count, 3)
            var out: [UInt64] = []
            while let v = try packed.next() { out.append(v) }
            return out
        }
        XCTAssertEqual(values, [9, 150, 34])
    }
}
