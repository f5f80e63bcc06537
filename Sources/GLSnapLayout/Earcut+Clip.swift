extension EarcutState {
    /// The ear clipping loop, with the fallbacks of earcut's passes 1 and 2 and the split of
    /// pass 3, driven by an explicit work list so hostile input cannot exhaust the stack.
    mutating func run(_ start: Int, into triangles: inout [UInt32]) {
        var work: [(node: Int, pass: Int)] = [(start, 0)]
        while let item = work.popLast() {
            var ear = item.node
            let pass = item.pass
            if pass == 0 && invSize != 0 { indexCurve(ear) }
            var stop = ear
            clipping: while prev[ear] != next[ear] {
                steps += 1
                if steps > maxSteps { return }
                let p = prev[ear], n = next[ear]
                if invSize != 0 ? isEarHashed(ear) : isEar(ear) {
                    triangles.append(UInt32(vertex[p]))
                    triangles.append(UInt32(vertex[ear]))
                    triangles.append(UInt32(vertex[n]))
                    removeNode(ear)
                    // Skipping the next vertex leaves fewer sliver triangles.
                    ear = next[n]
                    stop = ear
                    continue
                }
                ear = n
                if ear == stop {
                    switch pass {
                    case 0:
                        work.append((filterPoints(ear), 1))
                    case 1:
                        let cured = cureLocalIntersections(filterPoints(ear), into: &triangles)
                        work.append((cured, 2))
                    default:
                        if let halves = splitEarcut(ear) {
                            work.append((halves.0, 0))
                            work.append((halves.1, 0))
                        }
                    }
                    break clipping
                }
            }
        }
    }

    mutating func isEar(_ ear: Int) -> Bool {
        let a = prev[ear], c = next[ear]
        if area(a, ear, c) >= 0 { return false }
        let ax = xs[a], bx = xs[ear], cx = xs[c], ay = ys[a], by = ys[ear], cy = ys[c]
        let x0 = min(ax, bx, cx), y0 = min(ay, by, cy), x1 = max(ax, bx, cx), y1 = max(ay, by, cy)
        var p = next[c]
        while p != a {
            steps += 1
            if xs[p] >= x0 && xs[p] <= x1 && ys[p] >= y0 && ys[p] <= y1 && !(xs[p] == ax && ys[p] == ay)
                && Self.pointInTriangle(ax, ay, bx, by, cx, cy, xs[p], ys[p])
                && area(prev[p], p, next[p]) >= 0 { return false }
            p = next[p]
        }
        return true
    }

    mutating func isEarHashed(_ ear: Int) -> Bool {
        let a = prev[ear], c = next[ear]
        if area(a, ear, c) >= 0 { return false }
        let ax = xs[a], bx = xs[ear], cx = xs[c], ay = ys[a], by = ys[ear], cy = ys[c]
        let x0 = min(ax, bx, cx), y0 = min(ay, by, cy), x1 = max(ax, bx, cx), y1 = max(ay, by, cy)
        let minZ = zOrder(x0, y0), maxZ = zOrder(x1, y1)
        func blocks(_ q: Int) -> Bool {
            q != a && q != c && xs[q] >= x0 && xs[q] <= x1 && ys[q] >= y0 && ys[q] <= y1 && !(xs[q] == ax && ys[q] == ay)
                && Self.pointInTriangle(ax, ay, bx, by, cx, cy, xs[q], ys[q])
                && area(prev[q], q, next[q]) >= 0
        }
        var p = prevZ[ear], n = nextZ[ear]
        var visited = 0
        defer { steps += visited }
        while p >= 0 && z[p] >= minZ && n >= 0 && z[n] <= maxZ {
            visited += 2
            if blocks(p) { return false }
            p = prevZ[p]
            if blocks(n) { return false }
            n = nextZ[n]
        }
        while p >= 0 && z[p] >= minZ {
            visited += 1
            if blocks(p) { return false }
            p = prevZ[p]
        }
        while n >= 0 && z[n] <= maxZ {
            visited += 1
            if blocks(n) { return false }
            n = nextZ[n]
        }
        return true
    }

    mutating func cureLocalIntersections(_ startNode: Int, into triangles: inout [UInt32]) -> Int {
        var start = startNode
        var p = start
        repeat {
            steps += 1
            let a = prev[p], b = next[next[p]]
            if !equals(a, b) && intersects(a, p, next[p], b) && locallyInside(a, b) && locallyInside(b, a) {
                triangles.append(UInt32(vertex[a]))
                triangles.append(UInt32(vertex[p]))
                triangles.append(UInt32(vertex[b]))
                removeNode(p)
                removeNode(next[p])
                p = b
                start = b
            }
            p = next[p]
        } while p != start
        return filterPoints(p)
    }

    /// Splits the ring along the first valid diagonal; nil when there is none (or when the
    /// steps run out: each diagonal tried costs a walk around the ring).
    mutating func splitEarcut(_ start: Int) -> (Int, Int)? {
        var ringSize = 0
        var q = start
        repeat { ringSize += 1; q = next[q] } while q != start
        var a = start
        repeat {
            var b = next[next[a]]
            while b != prev[a] {
                steps += ringSize
                if steps > maxSteps { return nil }
                if vertex[a] != vertex[b] && isValidDiagonal(a, b) {
                    var c = splitPolygon(a, b)
                    let fa = filterPoints(a, next[a])
                    c = filterPoints(c, next[c])
                    return (fa, c)
                }
                b = next[b]
            }
            a = next[a]
        } while a != start
        return nil
    }

    // MARK: z-order

    func zOrder(_ px: Double, _ py: Double) -> Int32 {
        var x = Int32(clamping: Int(((px - minX) * invSize).rounded(.towardZero)))
        var y = Int32(clamping: Int(((py - minY) * invSize).rounded(.towardZero)))
        x = (x | (x << 8)) & 0x00FF_00FF; x = (x | (x << 4)) & 0x0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333; x = (x | (x << 1)) & 0x5555_5555
        y = (y | (y << 8)) & 0x00FF_00FF; y = (y | (y << 4)) & 0x0F0F_0F0F
        y = (y | (y << 2)) & 0x3333_3333; y = (y | (y << 1)) & 0x5555_5555
        return x | (y << 1)
    }

    mutating func indexCurve(_ start: Int) {
        var p = start
        repeat {
            if z[p] == 0 { z[p] = zOrder(xs[p], ys[p]) }
            prevZ[p] = prev[p]
            nextZ[p] = next[p]
            p = next[p]
        } while p != start
        nextZ[prevZ[p]] = -1
        prevZ[p] = -1
        sortLinked(p)
    }

    /// Simon Tatham's merge sort of the z-links.
    mutating func sortLinked(_ head: Int) {
        var list = head
        var inSize = 1
        var numMerges: Int
        repeat {
            var p = list
            list = -1
            var tail = -1
            numMerges = 0
            while p >= 0 {
                numMerges += 1
                var q = p
                var pSize = 0
                for _ in 0..<inSize {
                    pSize += 1
                    q = nextZ[q]
                    if q < 0 { break }
                }
                var qSize = inSize
                while pSize > 0 || (qSize > 0 && q >= 0) {
                    let e: Int
                    if pSize != 0 && (qSize == 0 || q < 0 || z[p] <= z[q]) {
                        e = p; p = nextZ[p]; pSize -= 1
                    } else {
                        e = q; q = nextZ[q]; qSize -= 1
                    }
                    if tail >= 0 { nextZ[tail] = e } else { list = e }
                    prevZ[e] = tail
                    tail = e
                }
                p = q
            }
            if tail >= 0 { nextZ[tail] = -1 }
            inSize *= 2
        } while numMerges > 1
    }
}
