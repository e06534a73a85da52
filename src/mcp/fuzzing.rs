//! Entry points for the fuzz targets in `fuzz/` (not an API: hidden from the docs, may change
//! with the code it exposes). It reaches the private line pre-parser without widening it.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncBufRead, AsyncRead, ReadBuf};

pub use super::MAX_LINE_BYTES;
use super::{Line, Screened};

/// What the pre-parser does with one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    /// Passed on to rmcp unchanged, or, for `notifications/cancelled`, to the call it cancels.
    Forward,
    /// Answered by the pre-parser with this JSON-RPC error line.
    Reply(String),
    /// Ignored (a blank line).
    Skip,
}

/// The ids of requests forwarded and not yet answered (a reused one is refused).
pub use super::InFlight;

/// `screen` on one line (without its `\n`).
pub fn screen(line: &[u8], in_flight: &InFlight) -> Screen {
    match super::screen(line, in_flight) {
        Screened::Forward | Screened::Cancel(_) => Screen::Forward,
        Screened::Reply(reply) => Screen::Reply(reply),
        Screened::Skip => Screen::Skip,
    }
}

/// One line as `read_bounded_line` returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadLine {
    Bytes(Vec<u8>),
    TooLong,
}

/// Every line `read_bounded_line` reads, with lines over `max_bytes` refused, from a stream
/// delivered in `reads` (one `fill_buf` each), so the fuzzer chooses where the buffer
/// boundaries fall. The server uses `MAX_LINE_BYTES`.
pub fn read_lines(reads: &[&[u8]], max_bytes: usize) -> Vec<ReadLine> {
    let mut reader = Reads { reads, offset: 0 };
    let mut lines = Vec::new();
    let mut context = Context::from_waker(Waker::noop());
    loop {
        // The reader is always ready, so one poll completes the read.
        let next =
            std::pin::pin!(super::read_bounded_line(&mut reader, max_bytes)).poll(&mut context);
        match next {
            Poll::Ready(Ok(Some(Line::Bytes(bytes)))) => lines.push(ReadLine::Bytes(bytes)),
            Poll::Ready(Ok(Some(Line::TooLong))) => lines.push(ReadLine::TooLong),
            Poll::Ready(Ok(None)) => return lines,
            Poll::Ready(Err(err)) => unreachable!("in-memory reads cannot fail: {err}"),
            Poll::Pending => unreachable!("an in-memory reader is always ready"),
        }
    }
}

/// An in-memory `AsyncBufRead` that hands out one slice per `fill_buf`.
struct Reads<'a> {
    reads: &'a [&'a [u8]],
    offset: usize,
}

impl Reads<'_> {
    fn current(&mut self) -> &[u8] {
        while let Some((first, rest)) = self.reads.split_first() {
            if self.offset < first.len() {
                return &first[self.offset..];
            }
            self.reads = rest;
            self.offset = 0;
        }
        &[]
    }
}

impl AsyncRead for Reads<'_> {
    fn poll_read(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let available = this.current();
        let n = available.len().min(buf.remaining());
        buf.put_slice(&available[..n]);
        this.offset += n;
        Poll::Ready(Ok(()))
    }
}

impl AsyncBufRead for Reads<'_> {
    fn poll_fill_buf(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        Poll::Ready(Ok(self.get_mut().current()))
    }

    fn consume(self: Pin<&mut Self>, amount: usize) {
        self.get_mut().offset += amount;
    }
}
