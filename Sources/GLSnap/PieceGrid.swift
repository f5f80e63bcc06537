import GLSnapRender

/// The pieces of an area of an image, each at most one framebuffer: bands of `bandHeight` rows
/// (the last may be shorter) from the top, each split into columns of `pieceSide` pixels (the
/// last may be narrower) from the left. Pieces come band by band, left to right.
struct PieceGrid: Equatable {
    /// The area, in image pixels.
    let area: PixelRect
    let pieceSide: Int
    let bandHeight: Int

    /// A grid of `area` with pieces of at most `pieceSide` a side and bands of at most `bandHeight` rows.
    init(area: PixelRect, pieceSide: Int, bandHeight: Int) {
        precondition(area.width > 0 && area.height > 0 && pieceSide > 0 && bandHeight > 0, "empty grid")
        self.area = area
        self.pieceSide = pieceSide
        self.bandHeight = min(bandHeight, area.height)
    }

    /// The grid of a whole `width` × `height` image as `Snapshotter` draws it: full-width bands
    /// of at most `pieceSide` rows and `maxBandBytes` of RGBA (at least one row).
    init(width: Int, height: Int, pieceSide: Int, maxBandBytes: Int) {
        self.init(area: PixelRect(x: 0, y: 0, width: width, height: height), pieceSide: pieceSide,
                  bandHeight: max(1, min(height, pieceSide, maxBandBytes / (width * 4))))
    }

    var columns: Int { (area.width + pieceSide - 1) / pieceSide }
    var bands: Int { (area.height + bandHeight - 1) / bandHeight }
    var count: Int { columns * bands }

    /// The rows of band `b`, in image pixels.
    func rows(ofBand b: Int) -> Range<Int> {
        let y = area.y + b * bandHeight
        return y..<min(y + bandHeight, area.y + area.height)
    }

    /// The piece in band `band`, column `column`.
    func piece(band: Int, column: Int) -> PixelRect {
        let rows = rows(ofBand: band)
        let x = area.x + column * pieceSide
        return PixelRect(x: x, y: rows.lowerBound, width: min(pieceSide, area.x + area.width - x), height: rows.count)
    }
}

/// Puts the pieces of a `PieceGrid` together, band by band: each piece is read back into
/// `destination(for:)`, then `place` moves it where it belongs. Into an `image` (the grid's
/// area, row-major RGBA), a piece as wide as the area is read back straight into its rows;
/// without one, a band is put together in a buffer of one band and handed on by `band(_:)`.
final class Stitcher {
    let grid: PieceGrid
    /// The area's pixels, or one band's.
    private let rows: UnsafeMutableRawBufferPointer
    private let ownsRows: Bool
    /// One piece, where the grid has more than one column.
    private let piece: UnsafeMutableRawBufferPointer?

    /// Stitches into `image` (the grid's area, at least width × height × 4 bytes), or into a band
    /// buffer of its own when nil. Every byte of the image is written, once each piece is placed.
    init(grid: PieceGrid, image: UnsafeMutableRawBufferPointer?) {
        self.grid = grid
        let width = grid.area.width
        if let image {
            precondition(image.count >= width * grid.area.height * 4, "image buffer too small")
            rows = image
            ownsRows = false
        } else {
            rows = .allocate(byteCount: width * grid.bandHeight * 4, alignment: 16)
            rows.initializeMemory(as: UInt8.self, repeating: 0)
            ownsRows = true
        }
        if grid.columns > 1 {
            let p = UnsafeMutableRawBufferPointer.allocate(byteCount: grid.pieceSide * grid.bandHeight * 4, alignment: 16)
            p.initializeMemory(as: UInt8.self, repeating: 0)
            piece = p
        } else {
            piece = nil
        }
    }

    deinit {
        if ownsRows { rows.deallocate() }
        piece?.deallocate()
    }

    /// The first byte of image row `y` (image pixels) in `rows`.
    private func rowOffset(_ y: Int) -> Int {
        (ownsRows ? (y - grid.area.y) % grid.bandHeight : y - grid.area.y) * grid.area.width * 4
    }

    /// Where `piece` is read back to: its rows of the image or band when it is as wide as the
    /// area, else the piece buffer.
    func destination(for p: PixelRect) -> UnsafeMutableRawBufferPointer {
        let count = p.width * p.height * 4
        if let piece { return UnsafeMutableRawBufferPointer(rebasing: piece[0..<count]) }
        let start = rowOffset(p.y)
        return UnsafeMutableRawBufferPointer(rebasing: rows[start..<(start + count)])
    }

    /// Copies `piece`, read back into `destination(for:)`, into its place in the image or band.
    func place(_ p: PixelRect) {
        guard let piece else { return }
        let rowBytes = p.width * 4
        let x = (p.x - grid.area.x) * 4
        for r in 0..<p.height {
            rows.baseAddress!.advanced(by: rowOffset(p.y + r) + x)
                .copyMemory(from: piece.baseAddress!.advanced(by: r * rowBytes), byteCount: rowBytes)
        }
    }

    /// Band `b`'s rows, full width, once its pieces are placed.
    func band(_ b: Int) -> UnsafeRawBufferPointer {
        let rowRange = grid.rows(ofBand: b)
        let start = rowOffset(rowRange.lowerBound)
        return UnsafeRawBufferPointer(rebasing: rows[start..<(start + rowRange.count * grid.area.width * 4)])
    }
}
