//! Entry points for the fuzz targets in `fuzz/` (not an API: hidden from the docs, may change
//! with the code it exposes). It reaches the private line pre-parser without widening it.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncBufRead, AsyncRead, ReadBuf};

pub use super::MAX_LINE_BYTES;
use super::{Line, Screened};
/// The longest line rmcp's stdio transport takes, counting its `\n`.
pub use rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH as RMCP_MAX_LINE_BYTES;

/// What the pre-parser does with one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Screen {
    /// Passed on to rmcp unchanged.
    Forward,
    /// Answered by the pre-parser with this JSON-RPC error line.
    Reply(String),
    /// Ignored (a blank line).
    Skip,
}

/// `screen` on one line (without its `\n`).
pub fn screen(line: &[u8]) -> Screen {
    match super::screen(line) {
        Screened::Forward => Screen::Forward,
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

/// A piece of the input stream, delivered by one `fill_buf` call (or several, for long runs).
#[derive(Debug, Clone, Copy)]
pub enum Piece<'a> {
    Bytes(&'a [u8]),
    /// `len` copies of `byte`, without allocating them (lines past `MAX_LINE_BYTES`).
    Repeat {
        byte: u8,
        len: usize,
    },
}

/// Every line `read_bounded_line` reads, with lines over `max_bytes` refused, from a stream
/// made of `pieces`, each piece delivered as its own reads, so the fuzzer chooses where the
/// buffer boundaries fall. The server uses `MAX_LINE_BYTES`.
pub fn read_lines(pieces: &[Piece<'_>], max_bytes: usize) -> Vec<ReadLine> {
    let mut reader = Pieces::new(pieces);
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

/// An in-memory `AsyncBufRead` over `Piece`s.
struct Pieces<'a> {
    pieces: &'a [Piece<'a>],
    index: usize,
    offset: usize,
    filler: Vec<u8>,
}

const FILLER_CHUNK: usize = 64 * 1024;

impl<'a> Pieces<'a> {
    fn new(pieces: &'a [Piece<'a>]) -> Self {
        Self {
            pieces,
            index: 0,
            offset: 0,
            filler: Vec::new(),
        }
    }

    fn current(&mut self) -> &[u8] {
        while let Some(piece) = self.pieces.get(self.index) {
            let left = match *piece {
                Piece::Bytes(bytes) => bytes.len(),
                Piece::Repeat { len, .. } => len,
            } - self.offset;
            if left == 0 {
                self.index += 1;
                self.offset = 0;
                continue;
            }
            return match *piece {
                Piece::Bytes(bytes) => &bytes[self.offset..],
                Piece::Repeat { byte, .. } => {
                    if self.filler.first() != Some(&byte) {
                        self.filler = vec![byte; FILLER_CHUNK];
                    }
                    &self.filler[..left.min(FILLER_CHUNK)]
                }
            };
        }
        &[]
    }
}

impl AsyncRead for Pieces<'_> {
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

impl AsyncBufRead for Pieces<'_> {
    fn poll_fill_buf(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        Poll::Ready(Ok(self.get_mut().current()))
    }

    fn consume(self: Pin<&mut Self>, amount: usize) {
        self.get_mut().offset += amount;
    }
}
