package io.seqsync.ingress.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seqsync.ingress.Http;
import io.seqsync.ingress.http.Json;
import io.seqsync.store.StoredMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The hand-written page writer against the mapper it stands in for: the very same bytes. */
class FetchedJsonTest {
  private static final String UNICODE = "h\u00e9llo \u4f60\u597d \ud83d\ude00 \"quoted\" back\\slash"
      + " tab\t nl\n cr\r nul-free \u0001 \u007f \u2028 </script>";

  // As the projector stores it: the event's Avro record as JSON.
  private static final String ATTACHMENT = StoredMessage.attachmentJson(new io.seqsync.events.model.Attachment(
      "u/7/0123456789abcdef0123456789abcdef", 1234L, "image/png", "a \"b\".png", 64, 48));

  @Test
  void writesWhatTheMapperWrites() throws IOException {
    Views.Message plain = new Views.Message("9007199254740993", "d:1:2", 1, "1", "phone", "c-1", "text", "hello",
        1_700_000_000_001L, false, null, null, null, null, null, null);
    Views.Message recalled = Views.Message.of(new StoredMessage(Long.MAX_VALUE, "d:1:2", 2, 2, "tablet-2", "c-2",
        "text", StoredMessage.RECALLED_PLACEHOLDER, 1_700_000_000_002L, true, null, null));
    Views.Message unicode = new Views.Message("3", "g:team", 3, "7", "laptop", "c-3", "file", UNICODE, 0, false,
        null, null, null, null, null, null);
    Views.Message notice = new Views.Message("4", "g:team", 4, "7", "", null, "system", "", -1, false,
        null, null, null, null, null, null);
    Views.Message photo = new Views.Message("5", "g:team", 5, "7", "laptop", "c-5", "image", "look",
        6, false, ATTACHMENT, null, null, null, null, null);
    List<Views.Message> messages = List.of(plain, recalled, unicode, notice, photo, acted(UNICODE),
        new Views.Message("6", "g:team", 6, "7", "phone", "c-6", "text", "re", 6, false, null, null, null,
            new Views.ReplyTo(1, null, null, null), null, null));

    for (Views.Fetched page : List.of(
        new Views.Fetched(messages, true, 4, 500, null, null),
        new Views.Fetched(messages, false, 500, 500, 500L, null),
        new Views.Fetched(List.of(), false, 0, 0, null, new Views.ArchiveHint("d:1:2", 40)),
        new Views.Fetched(List.of(unicode), false, Long.MAX_VALUE, Long.MAX_VALUE, 0L, null))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      FetchedJson.write(page, out);
      byte[] expected = Json.MAPPER.writeValueAsString(page).getBytes(StandardCharsets.UTF_8);
      assertThat(new String(out.toByteArray(), StandardCharsets.UTF_8))
          .isEqualTo(new String(expected, StandardCharsets.UTF_8));
      assertThat(out.toByteArray()).isEqualTo(expected);
    }
  }

  @Test
  void everyFieldOfTheRecordsIsWritten() throws IOException {
    Views.Message unicode = acted(UNICODE);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FetchedJson.write(new Views.Fetched(List.of(unicode), true, 3, 9, 9L, new Views.ArchiveHint("g:team", 2)), out);

    JsonNode page = Http.JSON.readTree(out.toByteArray());
    assertThat(fieldNames(page)).containsExactly("messages", "hasMore", "nextAfter", "latestSeq", "realign", "archiveHint");
    assertThat(fieldNames(page.get("archiveHint"))).hasSize(Views.ArchiveHint.class.getRecordComponents().length);
    assertThat(fieldNames(page)).hasSize(Views.Fetched.class.getRecordComponents().length);
    JsonNode message = page.get("messages").get(0);
    assertThat(fieldNames(message)).hasSize(Views.Message.class.getRecordComponents().length);
    assertThat(Http.JSON.convertValue(message, Map.class)).containsEntry("content", UNICODE)
        .containsEntry("recalled", false).containsEntry("createTime", 5);
    assertThat(message.get("attachment").get("name").asText()).isEqualTo("a \"b\".png");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  // A message with every field of message actions set.
  private static Views.Message acted(String text) {
    return new Views.Message("5", "g:team", 5, "7", "laptop", "c-5", "text", text, 5, false, ATTACHMENT, true, 9L,
        new Views.ReplyTo(1, "8", "text", text), List.of("2", "3"), List.of(new Views.Reaction("\ud83d\udc4d", 2, true),
            new Views.Reaction(":tada:", 1, false)));
  }
}
