package io.seqsync.notifier.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The signature against the Standard Webhooks specification's own example. */
class WebhookSignatureTest {
  @Test
  void signsAsTheSpecificationsExample() {
    byte[] secret = Base64.getDecoder().decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    String signature = new WebhookSignature(secret).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
        "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));
    assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }
}
