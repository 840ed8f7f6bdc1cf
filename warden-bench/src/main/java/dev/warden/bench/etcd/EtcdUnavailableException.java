package dev.warden.bench.etcd;

import java.io.IOException;

/** etcd could not be started: no binary, or its members did not serve in time. */
public final class EtcdUnavailableException extends IOException {
    public EtcdUnavailableException(String message) {
        super(message);
    }
}
