package io.seqsync.ingress.http;

/** The caller of an endpoint that needs no token (probes, scrapers, a browser loading the web client). */
public enum Anyone {
  CALLER
}
