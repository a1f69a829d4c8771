package io.seqsync.ingress.hooks;

import io.seqsync.ingress.api.SendRequest;
import io.seqsync.ingress.auth.Caller;
import java.util.Locale;

/** The body POSTed to the pre-send hook: who sends what where. */
record PreSendCall(String type, String convId, String senderId, String senderDevice, String clientMsgId,
    String messageType, String content) {
  PreSendCall(String convId, Caller caller, SendRequest send) {
    this("message.pre-send", convId, Long.toString(caller.userId()), caller.deviceId(), send.clientMsgId(),
        send.type().name().toLowerCase(Locale.ROOT), send.content());
  }
}
