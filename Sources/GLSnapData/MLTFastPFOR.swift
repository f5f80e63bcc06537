/// FastPFOR-coded integer streams of MapLibre Tiles.
enum MLTFastPFOR {
    static func decode(_ bytes: [UInt8], _ body: Range<Int>, count: Int) throws -> [UInt32] {
        throw TileDecodeError.mlt(rule: "FastPFOR-coded streams are not supported", offset: body.lowerBound)
    }
}
