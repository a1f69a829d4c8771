/** The projector: the events topic into PostgreSQL, then announced on Redis. */
package io.seqsync.projector;
