package io.seqsync.ingress;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * A page of a fetch written as JSON straight onto the response: the bytes {@link Json#MAPPER}
 * makes of {@link Views.Fetched}, field for field, without the String {@code ctx.json} builds and
 * encodes again or the mapper's reflection over the records (the page is the hottest answer there
 * is). A field added to {@link Views.Fetched} or {@link Views.Message} must be added here too;
 * {@code FetchedJsonTest} compares both ways.
 */
final class FetchedJson {
  // Writing UTF-8, Jackson escapes a character beyond U+FFFF as two surrogates by default; ctx.json's
  // String path wrote the character itself, as this does.
  private static final ObjectWriter WRITER =
      Json.MAPPER.writer().with(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);

  private FetchedJson() {}

  /** Answers {@code page} as {@code ctx.json(page)} would: status unchanged, content type application/json. */
  static void answer(Context ctx, Views.Fetched page) {
    ctx.contentType(ContentType.APPLICATION_JSON);
    try {
      // Javalin's stream, so that its compression applies as it did to ctx.json.
      write(page, ctx.outputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code page} to {@code out} and flushes it; does not close {@code out}. */
  static void write(Views.Fetched page, OutputStream out) throws IOException {
    try (JsonGenerator json = WRITER.createGenerator(out)) {
      json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      json.writeStartObject();
      json.writeArrayFieldStart("messages");
      for (Views.Message message : page.messages()) {
        message(json, message);
      }
      json.writeEndArray();
      json.writeBooleanField("hasMore", page.hasMore());
      json.writeNumberField("nextAfter", page.nextAfter());
      json.writeNumberField("latestSeq", page.latestSeq());
      if (page.realign() != null) { // @JsonInclude(NON_NULL) on the record
        json.writeNumberField("realign", page.realign());
      }
      json.writeEndObject();
    }
  }

  private static void message(JsonGenerator json, Views.Message m) throws IOException {
    json.writeStartObject();
    json.writeStringField("msgId", m.msgId());
    json.writeStringField("convId", m.convId());
    json.writeNumberField("seq", m.seq());
    json.writeStringField("senderId", m.senderId());
    json.writeStringField("senderDevice", m.senderDevice());
    json.writeStringField("clientMsgId", m.clientMsgId());
    json.writeStringField("type", m.type());
    json.writeStringField("content", m.content());
    json.writeNumberField("createTime", m.createTime());
    json.writeBooleanField("recalled", m.recalled());
    json.writeEndObject();
  }
}
