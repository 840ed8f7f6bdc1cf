/**
 * The data tools: {@code warden log dump}, {@code warden snapshot dump|take}, {@code warden restore}
 * and {@code warden purge} (docs/TOOLS.md). Tools that write lock the data directory as a server
 * does, so they refuse while a server runs on it.
 */
package dev.warden.cli.data;
