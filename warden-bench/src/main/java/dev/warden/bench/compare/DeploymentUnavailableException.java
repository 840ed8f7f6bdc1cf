package dev.warden.bench.compare;

/** A deployment did not come up as asked; the message says why, for the report. */
public final class DeploymentUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    public DeploymentUnavailableException(String reason) {
        super(reason);
    }
}
