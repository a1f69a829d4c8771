package io.seqsync.bench.peer;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.SocketFactory;

/** Plain sockets that count the bytes through them: what a client received and sent on the wire. */
final class CountingSockets extends SocketFactory {
  final AtomicLong bytesIn = new AtomicLong();
  final AtomicLong bytesOut = new AtomicLong();

  @Override
  public Socket createSocket() {
    return new Socket() {
      @Override
      public InputStream getInputStream() throws IOException {
        return new FilterInputStream(super.getInputStream()) {
          @Override
          public int read() throws IOException {
            int b = super.read();
            bytesIn.addAndGet(b < 0 ? 0 : 1);
            return b;
          }

          @Override
          public int read(byte[] bytes, int offset, int length) throws IOException {
            int n = super.read(bytes, offset, length);
            bytesIn.addAndGet(Math.max(0, n));
            return n;
          }
        };
      }

      @Override
      public OutputStream getOutputStream() throws IOException {
        return new FilterOutputStream(super.getOutputStream()) {
          @Override
          public void write(int b) throws IOException {
            bytesOut.incrementAndGet();
            super.out.write(b);
          }

          @Override
          public void write(byte[] bytes, int offset, int length) throws IOException {
            bytesOut.addAndGet(length);
            super.out.write(bytes, offset, length);
          }
        };
      }
    };
  }

  // Smack connects an unconnected socket; the factory's other ways are not used.
  @Override
  public Socket createSocket(String host, int port) {
    throw unused();
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) {
    throw unused();
  }

  @Override
  public Socket createSocket(InetAddress host, int port) {
    throw unused();
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) {
    throw unused();
  }

  private static UnsupportedOperationException unused() {
    return new UnsupportedOperationException("the client connects an unconnected socket");
  }
}
