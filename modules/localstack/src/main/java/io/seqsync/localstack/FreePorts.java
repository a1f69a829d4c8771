package io.seqsync.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Free loopback ports. The servers here need their port before they bind it (Kafka writes it into
 * its quorum and advertised listeners, PostgreSQL and Redis take it on the command line), so we ask
 * the OS for one and release it; another process could grab it in between, which is acceptable for
 * a local stack.
 */
final class FreePorts {
  private FreePorts() {}

  /** A port that was free on 127.0.0.1 a moment ago. */
  static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find a free port", e);
    }
  }

  /** {@code port}, after checking that nothing listens on it yet. */
  static int requireFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("port " + port + " on 127.0.0.1 is already in use", e);
    }
  }

  /** {@code port} itself, or a free one when it is 0. */
  static int orPick(int port) {
    return port == 0 ? pick() : port;
  }
}
