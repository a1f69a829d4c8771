package io.seqsync.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * http.stream-compression: the push stream takes permessage-deflate, which browsers always offer,
 * only when configured (it costs memory on both ends of every socket).
 */
class StreamCompressionTest {
  @RegisterExtension
  static final FetchStackExtension stack = FetchStackExtension.appOnRequest();

  @Test
  void theStreamDeclinesPermessageDeflateByDefault() {
    TestApp test = stack.app(Map.of());
    List<String> head = upgrade(test, "permessage-deflate; client_max_window_bits");
    assertThat(head.get(0)).contains(" 101 ");
    assertThat(head).noneMatch(line -> line.toLowerCase().startsWith("sec-websocket-extensions"));
  }

  @Test
  void theStreamAcceptsPermessageDeflateWhenConfigured() {
    TestApp test = stack.app(Map.of("http.stream-compression", "true"));
    List<String> head = upgrade(test, "permessage-deflate; client_max_window_bits");
    assertThat(head.get(0)).contains(" 101 ");
    assertThat(head).anyMatch(line -> line.toLowerCase().startsWith("sec-websocket-extensions: permessage-deflate"));
  }

  // The JDK's WebSocket client may not set Sec-WebSocket-Extensions: the upgrade by hand, as a browser sends it.
  private static List<String> upgrade(TestApp test, String extensions) {
    String request = "GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Sec-WebSocket-Extensions: " + extensions + "\r\n"
        + "Authorization: Bearer " + test.token(1, "phone") + "\r\n\r\n";
    try (Socket socket = new Socket("127.0.0.1", test.app.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      BufferedReader reader =
          new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
      List<String> head = new ArrayList<>();
      for (String line = reader.readLine(); line != null && !line.isEmpty(); line = reader.readLine()) {
        head.add(line);
      }
      return head;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
