package dev.warden.consensus;

/** Application data that arrived from member {@code from}, in the order it was sent. */
public record Received(long from, byte[] payload) {
}
