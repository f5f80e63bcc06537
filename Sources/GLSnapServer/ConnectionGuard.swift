import Foundation

/// Keeps slow clients from holding every connection (slowloris). libmicrohttpd's connection
/// timeout only closes *idle* connections, and a client that sends a header line every few
/// seconds is never idle. So the guard tracks each connection from libmicrohttpd's
/// notifications and closes (`shutdown(2)`, which libmicrohttpd's own thread then sees as the
/// client leaving):
///
/// - a connection whose request headers are not complete `headerTimeout` seconds after it opened
///   (or after its previous response was sent), whatever trickles in: checked by a sweep;
/// - when more than `softLimit` connections are open, the one that has waited longest for its
///   headers, so that a new client always finds a slot. A real client sends its headers at
///   once and is answered; connections that are answering a request are never evicted;
/// - when one address holds more than `perAddress` connections, that address's connection that
///   has waited longest (or the new one, when all of them are answering): an address cannot
///   take more than its share, yet a client behind the same address (a NAT, a proxy) gets in.
///
///     waiting ──headers complete──▶ answering ──response sent──▶ waiting ... closed
///        └── past the deadline, or the oldest waiting one over the soft limit: shutdown
///
/// Connections are keyed by their `MHD_Connection` pointer. An entry is removed in
/// libmicrohttpd's "closed" notification, which comes before it closes the socket; `shutdown` is
/// only called under the same lock, so it never reaches a descriptor that was reused.
final class ConnectionGuard: @unchecked Sendable {
    private struct Entry {
        var fd: Int32
        var address: UInt32
        /// When the wait for the current request's headers began (nanoseconds, monotonic).
        var since: UInt64
        var waiting: Bool
        var closing = false
    }

    /// Headers must be complete this many nanoseconds after `since`.
    let headerTimeout: UInt64
    /// Open connections above which a new one evicts the oldest waiting one.
    let softLimit: Int
    /// Connections one address may hold (0: any number).
    let perAddress: Int
    private let lock = NSLock()
    private var entries: [UInt: Entry] = [:]
    /// Connections of each address that are not closing.
    private var byAddress: [UInt32: Int] = [:]
    private var timer: DispatchSourceTimer?
    /// Connections closed for taking too long over their headers, and evicted for new ones.
    private(set) var timedOut = 0
    private(set) var evicted = 0

    /// Free slots kept for new clients: 1/8 of the limit, at least one. They also hold the
    /// connections being closed but not yet cleaned up by libmicrohttpd: when clients reconnect
    /// as fast as they are evicted, those pile up, and at the hard limit libmicrohttpd resets
    /// every new connection (1/16 let 2 of 24 probes be reset under 530 trickling connections).
    static func reserve(for limit: Int) -> Int { max(1, limit / 8) }

    init(headerTimeout seconds: Double, connectionLimit: Int, perAddress: Int = 0) {
        precondition(seconds > 0 && connectionLimit >= 1 && perAddress >= 0, "a header deadline and a connection limit are needed")
        headerTimeout = UInt64(seconds * 1e9)
        self.perAddress = perAddress
        softLimit = max(1, connectionLimit - ConnectionGuard.reserve(for: connectionLimit))
    }

    deinit { stop() }

    /// Starts the sweep: every quarter of the deadline, at most every 250 ms.
    func start() {
        let interval = min(0.25, Double(headerTimeout) / 4e9)
        let t = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "glsnap.connection-guard"))
        t.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        t.setEventHandler { [weak self] in self?.sweep() }
        t.resume()
        timer = t
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    /// Open connections now (those being closed included).
    var open: Int { lock.lock(); defer { lock.unlock() }; return entries.count }

    func started(_ key: UInt, fd: Int32, address: UInt32 = 0) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock(); defer { lock.unlock() }
        entries[key] = Entry(fd: fd, address: address, since: now, waiting: true)
        byAddress[address, default: 0] += 1
        if perAddress > 0, byAddress[address, default: 0] > perAddress {
            if let o = oldestWaiting(except: key, address: address) {
                close(o)
                evicted += 1
            } else {
                close(key)
                return
            }
        }
        guard entries.count > softLimit, let o = oldestWaiting(except: key, address: nil) else { return }
        close(o)
        evicted += 1
    }

    /// Under `lock`: the connection that has waited longest for its headers (of `address`, when given).
    private func oldestWaiting(except key: UInt, address: UInt32?) -> UInt? {
        var oldest: (key: UInt, since: UInt64)?
        for (k, e) in entries where e.waiting && !e.closing && k != key && e.since < (oldest?.since ?? .max) {
            if let a = address, e.address != a { continue }
            oldest = (k, e.since)
        }
        return oldest?.key
    }

    func headersComplete(_ key: UInt) {
        lock.lock()
        entries[key]?.waiting = false
        lock.unlock()
    }

    func responseSent(_ key: UInt) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        entries[key]?.waiting = true
        entries[key]?.since = now
        lock.unlock()
    }

    func closed(_ key: UInt) {
        lock.lock()
        if let e = entries.removeValue(forKey: key), !e.closing { release(e.address) }
        lock.unlock()
    }

    private func release(_ address: UInt32) {
        let n = byAddress[address, default: 1] - 1
        byAddress[address] = n > 0 ? n : nil
    }

    /// Closes every connection past its header deadline; returns how many.
    @discardableResult
    func sweep(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Int {
        lock.lock(); defer { lock.unlock() }
        var n = 0
        for (k, e) in entries where e.waiting && !e.closing && now > e.since && now - e.since > headerTimeout {
            close(k)
            n += 1
        }
        timedOut += n
        return n
    }

    /// Under `lock`: ends the connection; libmicrohttpd notices, closes it and notifies `closed`.
    private func close(_ key: UInt) {
        guard let e = entries[key], !e.closing else { return }
        _ = shutdown(e.fd, Int32(SHUT_RDWR))
        entries[key]?.closing = true
        release(e.address)
    }
}
