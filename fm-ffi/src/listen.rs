//! `serve --listen ADDR`: the protocol of [`crate::protocol`] over TCP, to many clients
//! at once, all on one match (`docs/serve.md`, "Socket mode"). One port speaks three
//! ways, told apart by a connection's first bytes:
//!
//! - JSON lines, as on stdin (a connection whose first bytes are not `GET `);
//! - WebSocket (an HTTP `GET` with `Upgrade: websocket`): each text message is one
//!   request, each reply one text message;
//! - plain HTTP `GET /`: the reference page (`examples/web/index.html`), if one is
//!   given, then the connection closes.
//!
//! A connection starts unbound and binds to the owner's token or a seat's
//! (`{"cmd":"bind","token":…}`); a seat sees only its side. Every connection has a
//! reader thread (requests, answered in order under the match's lock; a `think` runs on
//! a copy, and a `load` reads and replays its save, without the lock) and a writer thread that drains a bounded queue of replies
//! and notifications. A change one client makes (`apply`, `undo`, `new`, `load`) is
//! pushed to every other connection that bound with `"notify":true`, as that client may
//! know it. A client too slow to take its notifications (its queue full) is
//! disconnected; a connection that drops mid-request harms no one. A connection's
//! first request (a JSON line, or an HTTP head as a whole) must arrive within
//! [`Options::first_request`] of connecting, however slowly its bytes trickle in. A
//! `think` may ask for [`Options::max_think`] at most, at most [`Options::max_thinks`]
//! run at once, and each one's tree holds at most its share of
//! [`Options::think_memory`] (`crate::protocol::ThinkLimits`). The
//! owner's `quit` stops the server within a second whatever the clients do: it stops
//! accepting, stops a running `think`, ends every connection after its queued replies
//! (or at once, for one that does not read them), and returns.

use crate::protocol::{
    not_utf8, read_line, too_long_reply, Binding, Change, Core, LineRead, Reply, Session, Step,
    ThinkLimits, MAX_LINE_BYTES,
};
use crate::ws;
use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How a socket server behaves.
#[derive(Clone, Debug)]
pub struct Options {
    /// The most connections open at once; one more is told so and closed.
    pub max_clients: usize,
    /// The longest request (a line or a WebSocket message), in bytes.
    pub limit: usize,
    /// The page served on `GET /` (`None`: 404).
    pub page: Option<String>,
    /// How long after connecting a connection's first request (a whole JSON line, or
    /// an HTTP request head) may take to arrive; after it, the connection is closed
    /// (a JSON-lines client is told why).
    pub first_request: Duration,
    /// The web origins (`http://host:port`) whose pages may open a WebSocket or load
    /// the page; empty: the server's own address (and `localhost` with its port when
    /// it listens on a loopback address). An HTTP request whose `Origin` or `Host`
    /// names another is refused with 403, so that a page a player visits cannot talk
    /// to the server through the player's browser (nor through DNS rebinding).
    pub allowed_origins: Vec<String>,
    /// The most bytes of replies and notifications queued for one connection; a
    /// client whose queue would pass it (one that does not read) is dropped at once.
    pub max_queued_bytes: usize,
    /// The memory the search trees of all the `think`s running at once may hold, in
    /// bytes: each may hold `think_memory / max_thinks`, and stops there (its reply
    /// says `"stopped":"memory"`).
    pub think_memory: u64,
    /// The most `think`s running at once; one more is refused (rule `"limit"`).
    pub max_thinks: usize,
    /// The longest `think` a request may ask for (`time_ms`); a longer one is refused
    /// (rule `"limit"`). At most the protocol's 600 s.
    pub max_think: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_clients: 16,
            limit: MAX_LINE_BYTES,
            page: None,
            first_request: FIRST_REQUEST,
            allowed_origins: Vec::new(),
            max_queued_bytes: MAX_QUEUED_BYTES,
            think_memory: THINK_MEMORY,
            max_thinks: MAX_THINKS,
            max_think: MAX_THINK,
        }
    }
}

/// The default of [`Options::think_memory`]: 256 MiB, for the whole server.
pub const THINK_MEMORY: u64 = 256 << 20;

/// The default of [`Options::max_thinks`]: two thinks at once (the owner's and a
/// seat's), 128 MiB each by default.
pub const MAX_THINKS: usize = 2;

/// The default of [`Options::max_think`]: a minute.
pub const MAX_THINK: Duration = Duration::from_secs(60);

/// Replies and notifications queued for one connection before its reader waits (a
/// notification finding the queue full drops the connection): a client that does not
/// read stops being written to, not the server.
const QUEUE: usize = 256;

/// The default of [`Options::max_queued_bytes`]: 16 MiB, more than ten of the largest
/// replies (a Vimy Ridge set-up listing is about 1.4 MB).
pub const MAX_QUEUED_BYTES: usize = 16 << 20;

/// A connection's queue for its writer thread, bounded in bytes as well as in lines:
/// a client that does not read is dropped the moment its queue would pass
/// [`Options::max_queued_bytes`], so it holds at most that much memory.
#[derive(Clone)]
struct Outbox {
    tx: SyncSender<Vec<u8>>,
    queued: Arc<AtomicUsize>,
    stream: Arc<TcpStream>,
    max: usize,
}

impl Outbox {
    /// Counts `n` more bytes in; false (and the connection dropped) past the bound.
    fn admit(&self, n: usize) -> bool {
        if self.queued.fetch_add(n, Ordering::SeqCst).saturating_add(n) > self.max {
            self.queued.fetch_sub(n, Ordering::SeqCst);
            let _ = self.stream.shutdown(Shutdown::Both);
            return false;
        }
        true
    }

    /// Queues `bytes`, waiting while the queue holds [`QUEUE`] lines; false when the
    /// connection is over (gone, or dropped now for the bytes it has not read).
    fn send(&self, bytes: Vec<u8>) -> bool {
        let n = bytes.len();
        if !self.admit(n) {
            return false;
        }
        if self.tx.send(bytes).is_err() {
            self.queued.fetch_sub(n, Ordering::SeqCst);
            return false;
        }
        true
    }

    /// Queues a notification without waiting: a full queue drops the connection too.
    fn notify(&self, bytes: Vec<u8>) {
        let n = bytes.len();
        if !self.admit(n) {
            return;
        }
        match self.tx.try_send(bytes) {
            Ok(()) => {}
            Err(TrySendError::Disconnected(_)) => {
                self.queued.fetch_sub(n, Ordering::SeqCst);
            }
            Err(TrySendError::Full(_)) => {
                self.queued.fetch_sub(n, Ordering::SeqCst);
                let _ = self.stream.shutdown(Shutdown::Both);
            }
        }
    }
}

/// How long a write may block before its connection is dropped.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest HTTP request head read.
const MAX_HEAD: usize = 16 << 10;

/// The default of [`Options::first_request`].
pub const FIRST_REQUEST: Duration = Duration::from_secs(10);

/// Slots of [`Options::max_clients`] that connections not yet bound, and spectators'
/// connections, may never take: the owner's and the two seats'. When unbound
/// connections hold all the others, a new connection ends the oldest of them (as it
/// does whenever the server is full); spectators' `bind`s past them are refused.
pub const RESERVED_SLOTS: usize = 3;

/// How long `quit` lets connections write their queued replies before ending them.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How a connection frames its messages.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Framing {
    Lines,
    WebSocket,
}

impl Framing {
    fn wrap(self, text: &str) -> Vec<u8> {
        match self {
            Framing::Lines => {
                let mut v = Vec::with_capacity(text.len() + 1);
                v.extend_from_slice(text.as_bytes());
                v.push(b'\n');
                v
            }
            Framing::WebSocket => ws::frame(0x1, text.as_bytes()),
        }
    }
}

/// A live connection, as the others see it (to notify it, or to end it).
struct Conn {
    id: u64,
    framing: Framing,
    tx: Outbox,
    /// What it bound to, when it asked for notifications.
    notified: Option<Binding>,
    /// Whether it is bound as a spectator.
    spectator: bool,
}

/// What every connection's threads share.
struct Hub {
    core: Mutex<Core>,
    conns: Mutex<Vec<Conn>>,
    /// Every accepted connection's socket from the moment it is accepted (a client
    /// still to send its first byte included), to end them all at `quit`.
    sockets: Mutex<Vec<(u64, TcpStream)>>,
    /// The connections not yet bound to the owner or a seat, oldest first.
    unbound: Mutex<std::collections::VecDeque<u64>>,
    /// Connections ended to make room whose threads have not finished yet: their slots
    /// are free already.
    ending: Mutex<Vec<u64>>,
    shutdown: AtomicBool,
    active: AtomicUsize,
    next_id: AtomicU64,
    addr: SocketAddr,
    opts: Options,
    /// [`Options::allowed_origins`] in lower case, or the defaults, and the `Host`
    /// values they allow.
    origins: Vec<String>,
    hosts: Vec<String>,
}

/// A lock that outlives a panic elsewhere: the protocol catches its own panics, so the
/// data behind a poisoned lock is still whole.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Hub {
    /// Answers one request of connection `id`, and queues the notifications of what it
    /// changed to the other connections. The reply is the caller's to send.
    fn answer(&self, id: u64, session: &mut Session, text: &str) -> Option<Reply> {
        let step = {
            let mut core = lock(&self.core);
            // Spectators may hold the slots unbound connections may (all but the
            // RESERVED_SLOTS): a public spectators' link cannot keep a seat out.
            let most = self.opts.max_clients.saturating_sub(RESERVED_SLOTS).max(1);
            let watching = lock(&self.conns)
                .iter()
                .filter(|c| c.spectator && c.id != id)
                .count();
            session.set_spectators_full((watching >= most).then_some(most));
            let step = core.handle_deferred(session, text);
            if session.is_bound() {
                lock(&self.unbound).retain(|c| *c != id);
            }
            let mut conns = lock(&self.conns);
            if let Some(me) = conns.iter_mut().find(|c| c.id == id) {
                me.notified = session.notified().cloned();
                me.spectator = matches!(session.binding(), Some(Binding::Spectator(_)));
            }
            if let Some(Step::Done(_, Some(change))) = &step {
                self.notify(&core, &conns, id, *change);
            }
            step
        };
        match step? {
            Step::Done(r, _) => Some(r),
            // `quit` stops a running search (its reply says it was cut short).
            Step::Think(job) => Some(job.run_until(&self.shutdown)),
            // A save is read and replayed without the lock (a long one takes a while),
            // then put in place under it: the others are answered meanwhile.
            Step::Load(job) => {
                let loaded = job.run();
                let core = &mut *lock(&self.core);
                let (reply, change) = core.finish_load(loaded);
                if let Some(change) = change {
                    self.notify(core, &lock(&self.conns), id, change);
                }
                Some(reply)
            }
        }
    }

    /// Queues a change's notification to every other connection that asked for them;
    /// one whose queue is full is too slow and is ended.
    fn notify(&self, core: &Core, conns: &[Conn], from: u64, change: Change) {
        for c in conns.iter().filter(|c| c.id != from) {
            let Some(binding) = &c.notified else { continue };
            let text = core.notification(binding, change);
            c.tx.notify(c.framing.wrap(&text));
        }
    }

    /// Before a new connection: when connections not yet bound hold every slot but the
    /// [`RESERVED_SLOTS`], ends the oldest of them, so that they can never keep the
    /// owner and the seats out (a new connection is unbound until it binds).
    fn make_room_for_unbound(&self) {
        let cap = self.opts.max_clients.saturating_sub(RESERVED_SLOTS).max(1);
        while lock(&self.unbound).len() >= cap {
            if !self.end_oldest_unbound() {
                break;
            }
        }
    }

    /// Ends the oldest connection not yet bound, if there is one (a JSON-lines client
    /// is told why; a WebSocket one just sees the close).
    fn end_oldest_unbound(&self) -> bool {
        let Some(oldest) = lock(&self.unbound).pop_front() else {
            return false;
        };
        lock(&self.ending).push(oldest);
        let websocket = lock(&self.conns)
            .iter()
            .any(|c| c.id == oldest && c.framing == Framing::WebSocket);
        if let Some((_, s)) = lock(&self.sockets).iter().find(|(i, _)| *i == oldest) {
            let mut w = s;
            let _ = w.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = websocket || writeln!(
                w,
                r#"{{"error":{{"rule":"protocol","message":"closed: the slots left are kept for the owner and the seats; bind with a token"}}}}"#
            )
            .is_ok();
            let _ = s.shutdown(Shutdown::Both);
        }
        true
    }

    fn begin_shutdown(&self) {
        if !self.shutdown.swap(true, Ordering::SeqCst) {
            // Wake the accept loop.
            let _ = TcpStream::connect(self.addr);
        }
    }
}

/// Serves the protocol on `listener` to many clients at once, all on `core`'s match,
/// until the owner sends `quit`. Returns after every connection has ended.
///
/// # Errors
/// The listener's address cannot be read.
pub fn run(listener: TcpListener, mut core: Core, opts: Options) -> io::Result<()> {
    let addr = listener.local_addr()?;
    core.limit_thinks(ThinkLimits {
        max_ms: u64::try_from(opts.max_think.as_millis()).unwrap_or(u64::MAX),
        memory: Some(opts.think_memory),
        max_thinks: opts.max_thinks,
    });
    let origins = allowed_origins(&opts.allowed_origins, addr);
    let hosts = origins
        .iter()
        .filter_map(|o| o.split_once("://").map(|(_, h)| h.to_string()))
        .collect();
    let hub = Arc::new(Hub {
        core: Mutex::new(core),
        conns: Mutex::new(Vec::new()),
        sockets: Mutex::new(Vec::new()),
        unbound: Mutex::new(Default::default()),
        ending: Mutex::new(Vec::new()),
        shutdown: AtomicBool::new(false),
        active: AtomicUsize::new(0),
        next_id: AtomicU64::new(1),
        addr,
        opts,
        origins,
        hosts,
    });
    let mut threads: Vec<std::thread::JoinHandle<()>> = Vec::new();
    for stream in listener.incoming() {
        if hub.shutdown.load(Ordering::SeqCst) {
            break;
        }
        let mut stream = match stream {
            Ok(s) => s,
            Err(_) => {
                // Out of descriptors, or a connection reset before it was accepted:
                // wait a moment rather than spin.
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        threads.retain(|t| !t.is_finished());
        // Full: a connection not bound yet makes room (its slot frees as its thread
        // ends); only a server full of bound clients turns a new one away.
        let open = || {
            let ending = lock(&hub.ending).len();
            hub.active.load(Ordering::SeqCst).saturating_sub(ending)
        };
        if open() >= hub.opts.max_clients && !hub.end_oldest_unbound() {
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = writeln!(
                stream,
                r#"{{"error":{{"rule":"protocol","message":"too many connections (at most {}): try again later"}}}}"#,
                hub.opts.max_clients
            );
            let _ = stream.shutdown(Shutdown::Both);
            continue;
        }
        let id = hub.next_id.fetch_add(1, Ordering::SeqCst);
        let Ok(kept) = stream.try_clone() else {
            continue;
        };
        hub.make_room_for_unbound();
        lock(&hub.unbound).push_back(id);
        lock(&hub.sockets).push((id, kept));
        hub.active.fetch_add(1, Ordering::SeqCst);
        let h = Arc::clone(&hub);
        let spawned = std::thread::Builder::new()
            .name("fm-serve-conn".into())
            .spawn(move || {
                connection(&h, id, stream);
                lock(&h.unbound).retain(|c| *c != id);
                lock(&h.ending).retain(|c| *c != id);
                lock(&h.sockets).retain(|(i, _)| *i != id);
                h.active.fetch_sub(1, Ordering::SeqCst);
            });
        match spawned {
            Ok(t) => threads.push(t),
            Err(_) => {
                lock(&hub.unbound).retain(|c| *c != id);
                lock(&hub.sockets).retain(|(i, _)| *i != id);
                hub.active.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
    // Shutdown: no more requests are read (a client that has sent nothing yet
    // included); queued replies are still written for a moment, then every socket is
    // closed, so that a client that does not read cannot hold the server up.
    for (_, s) in lock(&hub.sockets).iter() {
        let _ = s.shutdown(Shutdown::Read);
    }
    let began = Instant::now();
    while hub.active.load(Ordering::SeqCst) > 0 && began.elapsed() < QUIT_GRACE {
        std::thread::sleep(Duration::from_millis(5));
    }
    for (_, s) in lock(&hub.sockets).iter() {
        let _ = s.shutdown(Shutdown::Both);
    }
    for t in threads {
        let _ = t.join();
    }
    Ok(())
}

/// A socket read under a deadline: each read waits at most until it, so a client
/// sending a byte at a time cannot stretch it; none once it is cleared.
struct DeadlineRead {
    stream: TcpStream,
    deadline: Rc<Cell<Option<Instant>>>,
    /// Whether the socket's read timeout is set (to clear it once, not every read).
    armed: bool,
}

impl Read for DeadlineRead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.deadline.get() {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(io::ErrorKind::TimedOut.into());
                }
                self.stream.set_read_timeout(Some(left))?;
                self.armed = true;
            }
            None if self.armed => {
                self.stream.set_read_timeout(None)?;
                self.armed = false;
            }
            None => {}
        }
        self.stream.read(buf)
    }
}

/// Whether a read failed because the first request's deadline passed.
fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

/// One connection, from its first byte to its end.
fn connection(hub: &Arc<Hub>, id: u64, stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    // The first request, whatever its kind, must be whole by this deadline.
    let first = Rc::new(Cell::new(Some(Instant::now() + hub.opts.first_request)));
    let mut reader = BufReader::with_capacity(
        64 << 10,
        DeadlineRead {
            stream: read_half,
            deadline: Rc::clone(&first),
            armed: false,
        },
    );
    // The first bytes tell HTTP from JSON lines (a client speaks first).
    let http = match reader.fill_buf() {
        Ok([]) => return,
        Ok(b) => b.starts_with(b"GET ") || (b.len() < 4 && b"GET ".starts_with(b)),
        Err(e) => {
            if timed_out(&e) {
                first_request_late(hub, &stream);
            }
            return;
        }
    };
    let framing = if http {
        match http_head(&mut reader) {
            Ok(Some(head)) => match upgrade(hub, &stream, &head) {
                Some(()) => Framing::WebSocket,
                None => return,
            },
            Err(e) if timed_out(&e) => {
                let _ = respond(
                    &stream,
                    "408 Request Timeout",
                    "text/plain",
                    &format!(
                        "the request head did not arrive within {} ms\n",
                        hub.opts.first_request.as_millis()
                    ),
                );
                return;
            }
            Ok(None) | Err(_) => {
                let _ = respond(&stream, "400 Bad Request", "text/plain", "bad request\n");
                return;
            }
        }
    } else {
        Framing::Lines
    };
    if framing == Framing::WebSocket {
        // The upgrade was the first request.
        first.set(None);
    }
    let (tx, rx) = sync_channel::<Vec<u8>>(QUEUE);
    let (Ok(write_half), Ok(dropper)) = (stream.try_clone(), stream.try_clone()) else {
        return;
    };
    let queued = Arc::new(AtomicUsize::new(0));
    let tx = Outbox {
        tx,
        queued: Arc::clone(&queued),
        stream: Arc::new(dropper),
        max: hub.opts.max_queued_bytes,
    };
    let writer = std::thread::Builder::new()
        .name("fm-serve-write".into())
        .spawn(move || write_loop(write_half, rx, &queued));
    let Ok(writer) = writer else { return };
    {
        let mut conns = lock(&hub.conns);
        if hub.shutdown.load(Ordering::SeqCst) {
            return;
        }
        conns.push(Conn {
            id,
            framing,
            tx: tx.clone(),
            notified: None,
            spectator: false,
        });
    }
    let mut session = Session::socket();
    match framing {
        Framing::Lines => lines_loop(hub, id, &mut session, &mut reader, &tx, &first),
        Framing::WebSocket => ws_loop(hub, id, &mut session, &mut reader, &tx),
    }
    lock(&hub.conns).retain(|c| c.id != id);
    drop(tx);
    let _ = writer.join();
    let _ = stream.shutdown(Shutdown::Both);
}

/// Writes what is queued until every sender is gone or the peer stops reading.
fn write_loop(mut stream: TcpStream, rx: Receiver<Vec<u8>>, queued: &AtomicUsize) {
    for bytes in rx {
        let written = stream.write_all(&bytes).and_then(|()| stream.flush());
        queued.fetch_sub(bytes.len(), Ordering::SeqCst);
        if written.is_err() {
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
    }
}

/// Sends a reply; after the owner's `quit`, starts the shutdown. Returns whether the
/// connection goes on.
fn send_reply(hub: &Hub, tx: &Outbox, framing: Framing, reply: &Reply) -> bool {
    if !tx.send(framing.wrap(&reply.line)) {
        return false;
    }
    if reply.quit {
        hub.begin_shutdown();
    }
    !hub.shutdown.load(Ordering::SeqCst)
}

/// Tells a client that sent no whole request in time why it is closed (a JSON line:
/// an HTTP client would have sent `GET ` first) and closes it.
fn first_request_late(hub: &Hub, mut stream: &TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = writeln!(stream, "{}", late_line(hub));
    let _ = stream.shutdown(Shutdown::Both);
}

/// The error line of a client whose first request did not arrive in time.
fn late_line(hub: &Hub) -> String {
    format!(
        r#"{{"error":{{"rule":"protocol","message":"no whole request within {} ms of connecting: closed"}}}}"#,
        hub.opts.first_request.as_millis()
    )
}

fn lines_loop<R: BufRead>(
    hub: &Hub,
    id: u64,
    session: &mut Session,
    reader: &mut R,
    tx: &Outbox,
    first: &Cell<Option<Instant>>,
) {
    let limit = hub.opts.limit;
    let mut line = Vec::new();
    loop {
        let read = read_line(reader, &mut line, limit);
        if let Err(e) = &read {
            if first.get().is_some() && timed_out(e) {
                tx.send(Framing::Lines.wrap(&late_line(hub)));
            }
        }
        first.set(None);
        let reply = match read {
            Err(_) | Ok(LineRead::Eof) => return,
            Ok(LineRead::TooLong { len }) => too_long_reply(len, limit),
            Ok(LineRead::Line) => match std::str::from_utf8(&line) {
                Ok(text) => match hub.answer(id, session, text) {
                    Some(r) => r,
                    None => continue,
                },
                Err(e) => not_utf8(e),
            },
        };
        if !send_reply(hub, tx, Framing::Lines, &reply) {
            return;
        }
    }
}

/// A [`Write`] that queues each write (a whole frame) for the writer thread, so that
/// the reader's pongs and closes never interleave with replies mid-frame.
struct Queue<'a>(&'a Outbox);

impl Write for Queue<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.0.send(buf.to_vec()) {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn ws_loop<R: Read>(hub: &Hub, id: u64, session: &mut Session, reader: &mut R, tx: &Outbox) {
    let limit = hub.opts.limit;
    loop {
        let reply = match ws::read_message(reader, &mut Queue(tx), limit) {
            Ok(ws::Message::Text(text)) => match hub.answer(id, session, &text) {
                Some(r) => r,
                None => continue,
            },
            Ok(ws::Message::Binary) => crate::protocol::error_reply(
                "protocol",
                "requests are WebSocket text messages, one JSON request each",
            ),
            Ok(ws::Message::TooLong { len }) => too_long_reply(len, limit),
            Ok(ws::Message::Close) => return,
            Err(ws::Failure::Protocol(code, why)) => {
                tx.send(ws::close_frame(code, why));
                return;
            }
            Err(ws::Failure::Io(_)) => return,
        };
        if !send_reply(hub, tx, Framing::WebSocket, &reply) {
            tx.send(ws::close_frame(1001, "the server is stopping"));
            return;
        }
    }
}

/// An HTTP request head: the request line's target and the headers (names in lower
/// case).
struct Head {
    target: String,
    headers: Vec<(String, String)>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads an HTTP request head (at most [`MAX_HEAD`] bytes), leaving what follows it in
/// the reader.
fn http_head<R: BufRead>(reader: &mut R) -> io::Result<Option<Head>> {
    let mut lines = Vec::new();
    let mut total = 0;
    loop {
        let mut line = Vec::new();
        let n = reader
            .take((MAX_HEAD - total) as u64)
            .read_until(b'\n', &mut line)?;
        total += n;
        if n == 0 || !line.ends_with(b"\n") {
            return Ok(None);
        }
        let Ok(text) = String::from_utf8(line) else {
            return Ok(None);
        };
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        lines.push(text.to_string());
    }
    Ok(parse_head(&lines))
}

/// The head of an HTTP `GET` from its lines (`None` for anything else).
fn parse_head(lines: &[String]) -> Option<Head> {
    let mut parts = lines.first()?.split(' ');
    let (method, target) = (parts.next()?, parts.next()?);
    if method != "GET" || !parts.next()?.starts_with("HTTP/1.") {
        return None;
    }
    let headers = lines[1..]
        .iter()
        .filter_map(|l| {
            let (n, v) = l.split_once(':')?;
            Some((n.trim().to_ascii_lowercase(), v.trim().to_string()))
        })
        .collect();
    Some(Head {
        target: target.to_string(),
        headers,
    })
}

fn respond(mut stream: &TcpStream, status: &str, kind: &str, body: &str) -> io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}

/// The origins a page may come from: the given ones, or the server's own address (and
/// `localhost` on a loopback address), in lower case without a trailing slash.
fn allowed_origins(given: &[String], addr: SocketAddr) -> Vec<String> {
    if !given.is_empty() {
        return given
            .iter()
            .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
            .collect();
    }
    let mut v = vec![format!("http://{addr}")];
    if addr.ip().is_loopback() {
        v.push(format!("http://localhost:{}", addr.port()));
    }
    v
}

/// Why an HTTP request may not be served: its `Host` or `Origin` is not one allowed
/// ([`Options::allowed_origins`]). A request without them (not a browser's) passes.
fn refused_origin(hub: &Hub, head: &Head) -> Option<String> {
    if let Some(host) = head.header("host") {
        let host = host.to_ascii_lowercase();
        if !hub.hosts.contains(&host) {
            return Some(format!(
                "host {host} is not this server's (see --allow-origin)"
            ));
        }
    }
    if let Some(origin) = head.header("origin") {
        let origin = origin.trim_end_matches('/').to_ascii_lowercase();
        if !hub.origins.contains(&origin) {
            return Some(format!(
                "pages from {origin} may not use this server (see --allow-origin)"
            ));
        }
    }
    None
}

/// Answers an HTTP request: `Some` when it upgraded to WebSocket (the 101 sent),
/// `None` when it was answered (the page, 403, 404, 400) and the connection ends.
fn upgrade(hub: &Hub, stream: &TcpStream, head: &Head) -> Option<()> {
    if let Some(why) = refused_origin(hub, head) {
        let _ = respond(stream, "403 Forbidden", "text/plain", &format!("{why}\n"));
        return None;
    }
    let has = |name: &str, word: &str| {
        head.header(name)
            .is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(word)))
    };
    if has("upgrade", "websocket") {
        let key = head.header("sec-websocket-key");
        let (Some(key), true) = (key, has("sec-websocket-version", "13")) else {
            let _ = respond(
                stream,
                "400 Bad Request",
                "text/plain",
                "a WebSocket handshake needs Sec-WebSocket-Key and version 13\n",
            );
            return None;
        };
        let mut s = stream;
        let ok = write!(
            s,
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Accept: {}\r\n\r\n",
            ws::accept_key(key)
        )
        .and_then(|()| s.flush());
        return ok.ok();
    }
    let path = head.target.split('?').next().unwrap_or("");
    match (&hub.opts.page, path) {
        (Some(page), "/" | "/index.html") => {
            let _ = respond(stream, "200 OK", "text/html; charset=utf-8", page);
        }
        _ => {
            let _ = respond(stream, "404 Not Found", "text/plain", "not found\n");
        }
    }
    None
}
