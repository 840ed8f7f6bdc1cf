package dev.warden.client;

/** Receives connection state changes, on the client's completion executor and in order. */
@FunctionalInterface
public interface StateListener {
    void stateChanged(ConnectionState newState);
}
