package io.seqsync.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which paths the messages route takes; everything else goes on to Javalin. */
class MessagesRouteTest {
  @Test
  void takesTheMessagesOfAConversationWithOrWithoutATrailingSlash() {
    assertThat(MessagesRoute.convIdOf("/v1/conversations/d:1:2/messages")).isEqualTo("d:1:2");
    assertThat(MessagesRoute.convIdOf("/v1/conversations/g:42/messages/")).isEqualTo("g:42");
    // Not a valid id: the route still takes it, and answers 400 invalid_conv_id as Javalin's did.
    assertThat(MessagesRoute.convIdOf("/v1/conversations/nonsense/messages")).isEqualTo("nonsense");
  }

  @Test
  void leavesEveryOtherPathToJavalin() {
    assertThat(MessagesRoute.convIdOf("/v1/conversations")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations/")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations/d:1:2")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations//messages")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations/messages")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations/d:1:2/messages/7/recall")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations/a/b/messages")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations/d:1:2/messagesx")).isNull();
    assertThat(MessagesRoute.convIdOf("/v1/conversations/d:1:2/draft")).isNull();
    assertThat(MessagesRoute.convIdOf("/v2/conversations/d:1:2/messages")).isNull();
    assertThat(MessagesRoute.convIdOf("/health")).isNull();
    assertThat(MessagesRoute.convIdOf(null)).isNull();
  }
}
