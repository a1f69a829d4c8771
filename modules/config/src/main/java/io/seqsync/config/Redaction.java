package io.seqsync.config;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Server addresses as they may be logged: without the credentials a URI can carry. */
public final class Redaction {
  private Redaction() {}

  /**
   * {@code address} (a URI, a JDBC URL, or a comma-separated list of them) without its query
   * (where a JDBC URL keeps {@code password=}) and with any {@code user:password@} replaced by
   * {@code ***@}.
   */
  public static String withoutSecrets(String address) {
    if (address == null) {
      return null;
    }
    return Arrays.stream(address.split(",", -1)).map(Redaction::one).collect(Collectors.joining(","));
  }

  private static String one(String address) {
    int query = address.indexOf('?');
    String withoutQuery = query < 0 ? address : address.substring(0, query);
    return withoutQuery.replaceFirst("//[^/@]*@", "//***@").replaceFirst("^[^/:@]*:[^/@]*@", "***@");
  }
}
