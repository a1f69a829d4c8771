package io.seqsync.bench.push;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * The least a WebSocket server can be: it accepts, answers the upgrade with {@code 101} and then
 * holds the socket without ever reading it. Used to measure what an idle client WebSocket costs
 * the JVM on its own (its server side is one {@link Socket} each, a few hundred bytes).
 */
final class StubWebSocketServer implements AutoCloseable {
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  private final ServerSocket server;
  private final List<Socket> sockets = new ArrayList<>();
  private final Thread acceptor;

  StubWebSocketServer() throws IOException {
    server = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::acceptLoop, "stub-ws-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return server.getLocalPort();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        String key = readKey(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: " + accept(key) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        synchronized (sockets) {
          sockets.add(socket);
        }
      } catch (IOException e) {
        if (server.isClosed()) {
          return;
        }
      }
    }
  }

  private static String readKey(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      head.append((char) c);
      if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
        break;
      }
    }
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("sec-websocket-key:")) {
        return line.substring(line.indexOf(':') + 1).trim();
      }
    }
    throw new IOException("no Sec-WebSocket-Key");
  }

  private static String accept(String key) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      return Base64.getEncoder().encodeToString(sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Closes every held socket (the server stays open). */
  void dropAll() {
    synchronized (sockets) {
      for (Socket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
      sockets.clear();
    }
  }

  @Override
  public void close() {
    dropAll();
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
