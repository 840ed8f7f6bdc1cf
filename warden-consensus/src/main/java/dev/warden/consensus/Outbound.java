package dev.warden.consensus;

/** A message for the driver to send to member {@code to}. */
public record Outbound(long to, ZabMessage message) {
}
