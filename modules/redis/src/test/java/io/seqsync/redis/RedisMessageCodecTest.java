package io.seqsync.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.seqsync.events.model.Attachment;
import io.seqsync.store.StoredMessage;
import org.junit.jupiter.api.Test;

/** A message in one Redis string, with and without an attachment, tabs in its content included. */
class RedisMessageCodecTest {
  @Test
  void aMessageWithAnAttachmentComesBackWhole() {
    String attachment = StoredMessage.attachmentJson(new Attachment("u/1/0123456789abcdef0123456789abcdef", 42L,
        "image/png", "a\tb \"c\".png", 3, 4));
    StoredMessage photo = new StoredMessage(7, "d:1:2", 3, 1, "phone", "c3", "image", "caption\twith tab", 9L, false,
        attachment, null);
    assertThat(RedisMessageCodec.decode(RedisMessageCodec.encode(photo))).isEqualTo(photo);
  }

  @Test
  void aMessageWithoutOneKeepsTheFormerFormat() {
    StoredMessage text = new StoredMessage(7, "d:1:2", 3, 1, "phone", "c3", "text", "a\tb", 9L, false, null, null);
    String encoded = RedisMessageCodec.encode(text);
    assertThat(encoded).startsWith("7\td:1:2\t");
    assertThat(RedisMessageCodec.decode(encoded)).isEqualTo(text);
  }
}
