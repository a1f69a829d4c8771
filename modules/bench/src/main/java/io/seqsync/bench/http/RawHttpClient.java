package io.seqsync.bench.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A lean HTTP/1.1 client for the send load: one selector thread, keep-alive connections opened on
 * demand (as many as there are requests in flight, which the caller bounds) and reused, requests
 * written as prepared bytes, answers read by Content-Length or chunked. The JDK's HttpClient costs
 * about 50 µs of CPU per request here, a quarter of a core at 5,000 sends/s taken from the server
 * it shares two cores with; a client on another machine would take none. Futures complete on the
 * selector thread, so their callbacks must be short. Thread-safe: {@link #send} from any thread.
 */
public final class RawHttpClient implements AutoCloseable {
  /** An answer: its status and its (de-chunked) body. */
  public record Response(int status, byte[] body) {}

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};
  private static final long SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final InetSocketAddress address;
  private final long timeoutNanos;
  private final Selector selector;
  private final Thread thread;
  private final Queue<Exchange> submitted = new ConcurrentLinkedQueue<>();
  private final ArrayDeque<Connection> idle = new ArrayDeque<>();
  private final Set<Connection> busy = new HashSet<>();
  private volatile boolean closed;
  // Written on the selector thread only.
  private volatile long bytesRead;
  private volatile long bytesWritten;

  public RawHttpClient(int port, long timeoutNanos) {
    this.address = new InetSocketAddress("127.0.0.1", port);
    this.timeoutNanos = timeoutNanos;
    try {
      this.selector = Selector.open();
    } catch (IOException e) {
      throw new IllegalStateException("cannot open a selector", e);
    }
    this.thread = new Thread(this::loop, "bench-http-client");
    thread.setDaemon(true);
    thread.start();
  }

  /** Sends {@code request} (a whole HTTP/1.1 request, keep-alive) on an idle or new connection. */
  public CompletableFuture<Response> send(byte[] request) {
    Exchange exchange = new Exchange(request, System.nanoTime() + timeoutNanos);
    submitted.add(exchange);
    if (Thread.currentThread() != thread) {
      selector.wakeup();
    }
    return exchange.future;
  }

  /** The request bytes of a POST with a JSON body. */
  public static byte[] post(String path, String authorization, String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + authorization
        + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    byte[] request = Arrays.copyOf(head, head.length + body.length);
    System.arraycopy(body, 0, request, head.length, body.length);
    return request;
  }

  /** The request bytes of a GET. */
  public static byte[] get(String path, String authorization) {
    return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + authorization + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /** Bytes received from the server so far, headers included: what crossed the wire to this client. */
  public long bytesRead() {
    return bytesRead;
  }

  /** Bytes sent to the server so far. */
  public long bytesWritten() {
    return bytesWritten;
  }

  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop() {
    long nextSweep = System.nanoTime() + SWEEP_NANOS;
    try {
      while (!closed) {
        selector.select(100);
        for (SelectionKey key : selector.selectedKeys()) {
          ((Connection) key.attachment()).ready(key);
        }
        selector.selectedKeys().clear();
        for (Exchange exchange = submitted.poll(); exchange != null; exchange = submitted.poll()) {
          Connection connection = idle.pollFirst();
          try {
            (connection != null ? connection : new Connection()).start(exchange);
          } catch (IllegalStateException cannotConnect) {
            exchange.future.completeExceptionally(cannotConnect);
          }
        }
        long now = System.nanoTime();
        if (now >= nextSweep) {
          nextSweep = now + SWEEP_NANOS;
          for (Connection connection : busy.toArray(Connection[]::new)) {
            if (now > connection.exchange.deadline) {
              connection.fail(new TimeoutException("no answer within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
            }
          }
        }
      }
    } catch (IOException | ClosedSelectorException e) {
      submitted.forEach(exchange -> exchange.future.completeExceptionally(e));
    } finally {
      for (Connection connection : busy.toArray(Connection[]::new)) {
        connection.fail(new IOException("client closed"));
      }
      idle.forEach(Connection::closeChannel);
      try {
        selector.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  /** A request waiting for its answer. */
  private static final class Exchange {
    final byte[] request;
    final long deadline;
    final CompletableFuture<Response> future = new CompletableFuture<>();

    Exchange(byte[] request, long deadline) {
      this.request = request;
      this.deadline = deadline;
    }
  }

  /** One keep-alive connection: confined to the selector thread. */
  private final class Connection {
    private final SocketChannel channel;
    private final SelectionKey key;
    private boolean connected;
    private Exchange exchange;
    private ByteBuffer out;
    private byte[] in = new byte[8192];
    private int length;
    private boolean closeRequested;

    Connection() {
      try {
        channel = SocketChannel.open();
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        connected = channel.connect(address);
        key = channel.register(selector, 0, this);
      } catch (IOException e) {
        throw new IllegalStateException("cannot connect to " + address, e);
      }
    }

    void start(Exchange next) {
      exchange = next;
      out = ByteBuffer.wrap(next.request);
      length = 0;
      busy.add(this);
      if (connected) {
        write();
      } else {
        key.interestOps(SelectionKey.OP_CONNECT);
      }
    }

    void ready(SelectionKey selected) {
      try {
        if (!selected.isValid()) {
          return;
        }
        if (selected.isConnectable()) {
          channel.finishConnect();
          connected = true;
          write();
        } else if (selected.isWritable()) {
          write();
        } else if (selected.isReadable()) {
          read();
        }
      } catch (IOException | RuntimeException e) {
        fail(e);
      }
    }

    private void write() {
      try {
        bytesWritten += channel.write(out);
      } catch (IOException e) {
        fail(e);
        return;
      }
      key.interestOps(out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
    }

    private void read() throws IOException {
      if (length == in.length) {
        in = Arrays.copyOf(in, in.length * 2);
      }
      int read = channel.read(ByteBuffer.wrap(in, length, in.length - length));
      if (read < 0) {
        throw new IOException("connection closed by the server");
      }
      length += read;
      bytesRead += read;
      if (exchange == null) {
        throw new IOException("bytes from the server with no request outstanding");
      }
      Response response = parse();
      if (response != null) {
        Exchange done = exchange;
        exchange = null;
        busy.remove(this);
        if (closeRequested) {
          closeChannel();
        } else {
          idle.addLast(this);
        }
        done.future.complete(response);
      }
    }

    // The whole answer once it is in, else null.
    private Response parse() throws IOException {
      int headerEnd = indexOf(in, 0, length, HEADER_END);
      if (headerEnd < 0) {
        return null;
      }
      String[] lines = new String(in, 0, headerEnd, StandardCharsets.ISO_8859_1).split("\r\n");
      String[] statusLine = lines[0].split(" ", 3);
      if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
        throw new IOException("not an HTTP/1.x answer: " + lines[0]);
      }
      int status = Integer.parseInt(statusLine[1]);
      long contentLength = -1;
      boolean chunked = false;
      closeRequested = false;
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        String name = lines[i].substring(0, Math.max(colon, 0)).trim().toLowerCase(Locale.ROOT);
        String value = lines[i].substring(colon + 1).trim().toLowerCase(Locale.ROOT);
        switch (name) {
          case "content-length" -> contentLength = Long.parseLong(value);
          case "transfer-encoding" -> chunked = value.contains("chunked");
          case "connection" -> closeRequested = value.contains("close");
          default -> { }
        }
      }
      int bodyStart = headerEnd + HEADER_END.length;
      if (chunked) {
        return dechunk(status, bodyStart);
      }
      if (contentLength < 0) {
        throw new IOException("an answer with neither Content-Length nor chunked encoding");
      }
      if (length - bodyStart < contentLength) {
        return null;
      }
      return new Response(status, Arrays.copyOfRange(in, bodyStart, bodyStart + (int) contentLength));
    }

    private Response dechunk(int status, int from) {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      int at = from;
      while (true) {
        int lineEnd = indexOf(in, at, length, CRLF);
        if (lineEnd < 0) {
          return null;
        }
        String sizeText = new String(in, at, lineEnd - at, StandardCharsets.ISO_8859_1);
        int semicolon = sizeText.indexOf(';');
        int size = Integer.parseInt((semicolon < 0 ? sizeText : sizeText.substring(0, semicolon)).trim(), 16);
        int dataStart = lineEnd + 2;
        if (size == 0) {
          // No trailers are expected: the last chunk ends with an empty line.
          return length >= dataStart + 2 ? new Response(status, body.toByteArray()) : null;
        }
        if (length < dataStart + size + 2) {
          return null;
        }
        body.write(in, dataStart, size);
        at = dataStart + size + 2;
      }
    }

    void fail(Throwable error) {
      busy.remove(this);
      idle.remove(this);
      closeChannel();
      if (exchange != null) {
        Exchange failed = exchange;
        exchange = null;
        failed.future.completeExceptionally(error);
      }
    }

    void closeChannel() {
      key.cancel();
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing left to do with it
      }
    }
  }

  private static int indexOf(byte[] bytes, int from, int to, byte[] pattern) {
    outer:
    for (int i = from; i <= to - pattern.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (bytes[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
