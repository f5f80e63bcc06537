/// Integer, byte and boolean stream decoding of MapLibre Tiles (the spec's encodings.md):
/// physical level (plain little-endian, varint, FastPFOR) then logical level (delta, RLE,
/// delta-RLE, componentwise delta, Morton), with zigzag where the reference decoders apply it.
extension MLTStream {
    /// The stream's integers after both levels of decoding. `signed` selects zigzag for plain and
    /// RLE values (delta values are always zigzag); `wide` reads plain values as 64-bit.
    func integers(_ bytes: [UInt8], signed: Bool, wide: Bool = false, limits: MLTLimits) throws -> [Int64] {
        let raw = try physicalValues(bytes, wide: wide)
        switch technique1 {
        case .none:
            return signed ? raw.map(ProtobufReader.zigzag) : raw.map { Int64(bitPattern: $0) }
        case .delta:
            let deltas = technique2 == .rle ? try expandRuns(raw, limits: limits) : raw
            var out = [Int64](repeating: 0, count: deltas.count)
            var acc: Int64 = 0
            for i in deltas.indices {
                acc &+= ProtobufReader.zigzag(deltas[i])
                out[i] = acc
            }
            return out
        case .rle:
            let values = try expandRuns(raw, limits: limits)
            return signed ? values.map(ProtobufReader.zigzag) : values.map { Int64(bitPattern: $0) }
        case .componentwiseDelta:
            var out = [Int64](repeating: 0, count: raw.count)
            var x: Int64 = 0, y: Int64 = 0
            for i in raw.indices {
                if i & 1 == 0 { x &+= ProtobufReader.zigzag(raw[i]); out[i] = x } else { y &+= ProtobufReader.zigzag(raw[i]); out[i] = y }
            }
            return out
        case .morton:
            var out = [Int64](repeating: 0, count: raw.count)
            var acc: Int64 = 0
            for i in raw.indices {
                acc &+= Int64(bitPattern: raw[i])
                out[i] = acc
            }
            return out
        case .pseudoDecimal:
            throw TileDecodeError.mlt(rule: "the pseudodecimal integer encoding is not supported", offset: body.lowerBound)
        }
    }

    /// Values as stored: `numValues` little-endian words, varints or FastPFOR blocks.
    private func physicalValues(_ bytes: [UInt8], wide: Bool) throws -> [UInt64] {
        var reader = MLTReader(bytes, from: body.lowerBound, to: body.upperBound)
        switch physical {
        case .varint:
            guard numValues <= body.count else {
                throw reader.fail("a stream of \(numValues) varints has only \(body.count) bytes")
            }
            var out = [UInt64](repeating: 0, count: numValues)
            for i in 0..<numValues { out[i] = try reader.varint("a stream value") }
            return out
        case .none:
            let width = wide ? 8 : 4
            guard numValues <= body.count / width else {
                throw reader.fail("a stream of \(numValues) \(width * 8)-bit values has only \(body.count) bytes")
            }
            var out = [UInt64](repeating: 0, count: numValues)
            var p = body.lowerBound
            for i in 0..<numValues {
                var v: UInt64 = 0
                for k in 0..<width { v |= UInt64(bytes[p + k]) << (8 * UInt64(k)) }
                out[i] = v
                p += width
            }
            return out
        case .fastPFOR:
            return try MLTFastPFOR.decode(bytes, body, count: numValues).map { UInt64($0) }
        }
    }

    /// RLE: `runs` run lengths, then `runs` values; the total must be `rleValues`.
    private func expandRuns(_ raw: [UInt64], limits: MLTLimits) throws -> [UInt64] {
        guard runs <= raw.count / 2 else {
            throw TileDecodeError.mlt(rule: "an RLE stream names \(runs) runs but holds \(raw.count) values", offset: body.lowerBound)
        }
        var total: UInt64 = 0
        for i in 0..<runs {
            total = total &+ raw[i]
            guard total <= UInt64(rleValues), raw[i] <= UInt64(limits.maxStreamValues) else {
                throw TileDecodeError.mlt(rule: "the runs of an RLE stream add up to more than its \(rleValues) values", offset: body.lowerBound)
            }
        }
        guard total == UInt64(rleValues) else {
            throw TileDecodeError.mlt(rule: "the runs of an RLE stream add up to \(total), not its \(rleValues) values", offset: body.lowerBound)
        }
        var out: [UInt64] = []
        out.reserveCapacity(rleValues)
        for i in 0..<runs { out.append(contentsOf: repeatElement(raw[runs + i], count: Int(raw[i]))) }
        return out
    }

    /// ORC byte RLE: a header below 128 repeats the next byte header + 3 times; one at 128 or
    /// above is followed by 256 - header literal bytes. Decodes `count` bytes; a stream that ends
    /// early leaves the rest 0, as the reference decoders do (encoders drop trailing false bits).
    func byteRLE(_ bytes: [UInt8], count: Int) throws -> [UInt8] {
        var reader = MLTReader(bytes, from: body.lowerBound, to: body.upperBound)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            guard !reader.atEnd else {
                out.append(contentsOf: repeatElement(0, count: count - out.count))
                break
            }
            let header = try reader.byte("a byte-RLE header")
            if header < 0x80 {
                let value = try reader.byte("a byte-RLE run value")
                out.append(contentsOf: repeatElement(value, count: min(Int(header) + 3, count - out.count)))
            } else {
                let n = 256 - Int(header)
                guard n <= reader.remaining else { throw reader.fail("byte-RLE literals run past the end of the stream") }
                let take = min(n, count - out.count)
                out.append(contentsOf: bytes[reader.position..<(reader.position + take)])
                reader.skip(n)
            }
        }
        return out
    }

    /// Boolean RLE: byte RLE of the bits, least significant first; `count` booleans.
    func booleans(_ bytes: [UInt8], count: Int) throws -> [Bool] {
        let packed = try byteRLE(bytes, count: (count + 7) / 8)
        return (0..<count).map { packed[$0 >> 3] & (1 << UInt8($0 & 7)) != 0 }
    }
}
