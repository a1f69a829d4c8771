package io.seqsync.ingress;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * HTTP/1.1 over a plain socket, for request targets no URI class would build (a bad percent
 * escape, a bare {@code %}): one request per connection. Reads a Content-Length, chunked or
 * until-close body.
 */
final class RawHttp {
  private final int port;

  RawHttp(int port) {
    this.port = port;
  }

  Http.Response send(String method, String target, String token, String body) {
    return send(method, target, token, body, false, 0);
  }

  /** The body in chunks of 64 KiB, with no Content-Length: its size is known only once read. */
  Http.Response sendChunked(String method, String target, String token, String body) {
    return send(method, target, token, body, true, 0);
  }

  /** The head and the first half of the body, then after {@code pauseMillis} the rest. */
  Http.Response sendSlowly(String method, String target, String token, String body, long pauseMillis) {
    return send(method, target, token, body, false, pauseMillis);
  }

  private Http.Response send(String method, String target, String token, String body, boolean chunked,
      long pauseMillis) {
    byte[] content = body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
        .append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n")
        .append("Content-Type: application/json\r\n")
        .append(chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + content.length + "\r\n");
    if (token != null) {
      head.append("Authorization: Bearer ").append(token).append("\r\n");
    }
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      if (chunked) {
        writeChunks(out, content);
      } else if (pauseMillis > 0) {
        out.write(content, 0, content.length / 2);
        out.flush();
        Thread.sleep(pauseMillis);
        out.write(content, content.length / 2, content.length - content.length / 2);
      } else {
        out.write(content);
      }
      out.flush();
      return read(new DataInputStream(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing a request", e);
    }
  }

  // The server may answer (413) and close before the last chunk: what it did not read is its business.
  private static void writeChunks(OutputStream out, byte[] content) {
    try {
      for (int from = 0; from < content.length; from += 65_536) {
        int size = Math.min(65_536, content.length - from);
        out.write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(content, from, size);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    } catch (IOException closedEarly) {
      // the answer is read next
    }
  }

  private static Http.Response read(DataInputStream in) throws IOException {
    String statusLine = line(in);
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (String line = line(in); !line.isEmpty(); line = line(in)) {
      int colon = line.indexOf(':');
      headers.computeIfAbsent(line.substring(0, colon).strip(), name -> new ArrayList<>()).add(line.substring(colon + 1).strip());
    }
    byte[] body;
    String length = headers.containsKey("Content-Length") ? headers.get("Content-Length").get(0) : null;
    if (length != null) {
      body = in.readNBytes(Integer.parseInt(length));
    } else if (headers.getOrDefault("Transfer-Encoding", List.of()).toString().toLowerCase(Locale.ROOT).contains("chunked")) {
      ByteArrayOutputStream chunks = new ByteArrayOutputStream();
      for (int size = Integer.parseInt(line(in).strip(), 16); size > 0; size = Integer.parseInt(line(in).strip(), 16)) {
        chunks.write(in.readNBytes(size));
        line(in);
      }
      body = chunks.toByteArray();
    } else {
      body = in.readAllBytes();
    }
    return new Http.Response(status, new String(body, StandardCharsets.UTF_8), HttpHeaders.of(headers, (a, b) -> true));
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException("connection closed mid-line");
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }
}
