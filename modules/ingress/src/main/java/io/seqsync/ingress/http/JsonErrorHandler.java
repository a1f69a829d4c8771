package io.seqsync.ingress.http;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error answers, for requests refused before they reach Javalin (a malformed URI, a
 * header too large): the API's JSON error instead of an HTML page, and the connection closed, as
 * Jetty does after such a request anyway, so that clients do not reuse it.
 */
public final class JsonErrorHandler extends ErrorHandler {
  private static final String JSON = "application/json;charset=utf-8";

  // Jetty answers only GET, POST and HEAD with a body by default: a bad PUT got an empty 400.
  @Override
  public boolean errorPageForMethod(String method) {
    return true;
  }

  @Override
  protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
      Callback callback) {
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
    response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    response.write(true, ByteBuffer.wrap(body(code, message)), callback);
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, JSON);
    return ByteBuffer.wrap(body(status, reason));
  }

  private static byte[] body(int status, String message) {
    String code = ErrorHandling.codeOf(status);
    return ErrorHandling.answer(new ApiException(status, code,
        message == null || message.isBlank() ? code.replace('_', ' ') : message)).body();
  }
}
