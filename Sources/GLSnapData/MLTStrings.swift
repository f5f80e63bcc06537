import GLSnapStyle

/// String columns of MapLibre Tiles: plain (lengths + bytes), dictionary (offsets into
/// distinct strings), FSST-compressed dictionaries, and dictionaries shared by a struct's children.
enum MLTStrings {
    /// The escape code of FSST: the next byte is a literal.
    private static let fsstEscape: UInt8 = 255

    /// One string column from its streams after PRESENT.
    static func column(_ streams: [MLTStream], bytes: [UInt8], present: [Bool]?, count: Int,
                       limits: MLTLimits) throws -> [JSON?] {
        var lengths: [Int64]?, dictionaryLengths: [Int64]?, symbolLengths: [Int64]?
        var plain: MLTStream?, dictionary: MLTStream?, symbols: MLTStream?, offsets: [Int64]?
        for s in streams {
            switch s.kind {
            case .length where s.subtype == MLTLength.dictionary: dictionaryLengths = try s.integers(bytes, signed: false, limits: limits)
            case .length where s.subtype == MLTLength.symbol: symbolLengths = try s.integers(bytes, signed: false, limits: limits)
            case .length: lengths = try s.integers(bytes, signed: false, limits: limits)
            case .offset: offsets = try s.integers(bytes, signed: false, limits: limits)
            case .data where s.subtype == MLTDictionary.fsst: symbols = s
            case .data where s.subtype == MLTDictionary.single || s.subtype == MLTDictionary.shared: dictionary = s
            case .data: plain = s
            case .present: continue
            }
        }
        let fail = { (rule: String) in TileDecodeError.mlt(rule: "string column: " + rule, offset: streams.first?.body.lowerBound ?? 0) }
        let table: [String]
        if let dictionary {
            guard let dictionaryLengths else { throw fail("a dictionary without its lengths") }
            table = try strings(corpus(dictionary, symbols: symbols, symbolLengths: symbolLengths, bytes: bytes, fail),
                                dictionaryLengths, fail)
        } else if let plain, let lengths {
            table = try strings(Array(bytes[plain.body]), lengths, fail)
        } else {
            throw fail("neither a dictionary nor plain strings")
        }
        let values: [String]
        if let offsets {
            values = try offsets.map { o in
                guard o >= 0, o < Int64(table.count) else { throw fail("offset \(o) is past the \(table.count) strings") }
                return table[Int(o)]
            }
        } else if present != nil && table.count == count {
            // A plain column may hold an (empty) entry for each null too.
            return zip(table, present ?? []).map { $1 ? JSON.string($0) : nil }
        } else {
            values = table
        }
        return try place(values.map(JSON.string), present: present, count: count)
    }

    /// The children of a struct column sharing one dictionary: (child name, values), at most
    /// `budget` values in all.
    static func shared(_ reader: inout MLTReader, bytes: [UInt8], children: [MLTColumn], count: Int,
                       budget: Int, limits: MLTLimits) throws -> [(String, [JSON?])] {
        var dictionaryLengths: [Int64]?, symbolLengths: [Int64]?, symbols: MLTStream?, dictionary: MLTStream?
        while dictionary == nil {
            let s = try MLTStream.read(&reader, limits: limits)
            switch (s.kind, s.subtype) {
            case (.length, MLTLength.dictionary): dictionaryLengths = try s.integers(bytes, signed: false, limits: limits)
            case (.length, _): symbolLengths = try s.integers(bytes, signed: false, limits: limits)
            case (.data, MLTDictionary.single), (.data, MLTDictionary.shared): dictionary = s
            case (.data, _): symbols = s
            default: throw reader.fail("a shared dictionary holds a stream that is neither LENGTH nor DATA")
            }
        }
        let at = reader.position
        let fail = { (rule: String) in TileDecodeError.mlt(rule: "shared dictionary: " + rule, offset: at) }
        guard let dictionary, let dictionaryLengths else { throw fail("a dictionary without its lengths") }
        let table = try strings(corpus(dictionary, symbols: symbols, symbolLengths: symbolLengths, bytes: bytes, fail),
                                dictionaryLengths, fail)
        var out: [(String, [JSON?])] = []
        for child in children {
            let streams = try reader.length("a child stream count")
            guard streams > 0 else { continue }
            guard (out.count + 1) * count <= budget else {
                throw fail("the property columns hold more than \(DataLimits.maxMLTStreamValues) values")
            }
            guard case let .scalar(.string, nullable) = child.kind else { throw fail("child \"\(child.name)\" is not a string") }
            var present: [Bool]?
            if nullable {
                let p = try MLTStream.read(&reader, limits: limits)
                guard p.numValues == count else { throw fail("a PRESENT stream has \(p.numValues) flags for \(count) features") }
                present = try p.booleans(bytes, count: p.numValues)
            }
            let offsets = try MLTStream.read(&reader, limits: limits).integers(bytes, signed: false, limits: limits)
            let values = try offsets.map { o in
                guard o >= 0, o < Int64(table.count) else { throw fail("offset \(o) is past the \(table.count) strings") }
                return JSON.string(table[Int(o)])
            }
            out.append((child.name, try place(values, present: present, count: count)))
        }
        return out
    }

    private static func place(_ values: [JSON], present: [Bool]?, count: Int) throws -> [JSON?] {
        guard let present else {
            guard values.count == count else {
                throw TileDecodeError.mlt(rule: "a string column has \(values.count) values for \(count) features", offset: 0)
            }
            return values
        }
        var out: [JSON?] = []
        out.reserveCapacity(count)
        var k = 0
        for flag in present {
            if flag {
                guard k < values.count else { throw TileDecodeError.mlt(rule: "a string column has fewer values than present flags", offset: 0) }
                out.append(values[k]); k += 1
            } else { out.append(nil) }
        }
        return out
    }

    /// The dictionary's bytes, FSST-expanded when it has a symbol table.
    private static func corpus(_ dictionary: MLTStream, symbols: MLTStream?, symbolLengths: [Int64]?, bytes: [UInt8],
                               _ fail: (String) -> TileDecodeError) throws -> [UInt8] {
        guard let symbols else { return Array(bytes[dictionary.body]) }
        guard let symbolLengths, symbolLengths.count <= 255 else { throw fail("an FSST symbol table without its (at most 255) lengths") }
        var starts: [Int] = []
        var p = symbols.body.lowerBound
        for l in symbolLengths {
            guard l >= 0, l <= 8, p + Int(l) <= symbols.body.upperBound else { throw fail("FSST symbols run past their table") }
            starts.append(p); p += Int(l)
        }
        var out: [UInt8] = []
        out.reserveCapacity(dictionary.body.count * 2)
        var i = dictionary.body.lowerBound
        while i < dictionary.body.upperBound {
            let code = bytes[i]
            if code == fsstEscape {
                guard i + 1 < dictionary.body.upperBound else { throw fail("an FSST escape at the end of the data") }
                out.append(bytes[i + 1]); i += 2
            } else {
                guard Int(code) < starts.count else { throw fail("FSST code \(code) is past the \(starts.count) symbols") }
                out.append(contentsOf: bytes[starts[Int(code)]..<(starts[Int(code)] + Int(symbolLengths[Int(code)]))])
                i += 1
            }
        }
        return out
    }

    /// Splits `data` by `lengths`.
    private static func strings(_ data: [UInt8], _ lengths: [Int64], _ fail: (String) -> TileDecodeError) throws -> [String] {
        var out: [String] = []
        out.reserveCapacity(lengths.count)
        var p = 0
        for l in lengths {
            guard l >= 0, l <= Int64(data.count - p) else { throw fail("string lengths run past the \(data.count) bytes") }
            out.append(String(decoding: data[p..<(p + Int(l))], as: UTF8.self))
            p += Int(l)
        }
        return out
    }
}
